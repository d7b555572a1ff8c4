import XCTest

/// Keeps SECURITY.md's table ("What each store reveals (measured)") in agreement with what
/// the observer measured: every `diary` cell must equal the finding, and every finding must
/// have a row. Changing the behaviour or the document without the other fails here.
final class ObserverTableTests: XCTestCase {
    /// The table's rows: key → (sqlite cell, files cell).
    static func documentedCells(file: StaticString = #filePath) throws -> [String: (sqlite: String, files: String)] {
        var root = URL(fileURLWithPath: "\(file)")
        for _ in 0..<3 { root.deleteLastPathComponent() }  // Tests/diaryTests/<file> → package root
        let text = try String(contentsOf: root.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        guard let start = text.range(of: "## What each store reveals (measured)") else {
            throw TableError("SECURITY.md has no section \"What each store reveals (measured)\"")
        }
        var rows: [String: (String, String)] = [:]
        var sawHeader = false
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            guard line.hasPrefix("|") else {
                if sawHeader && !rows.isEmpty { break }  // the first table ends at its first non-row
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if !sawHeader {
                sawHeader = true
                guard cells.count >= 4, cells[2].contains("sqlite"), cells[3].contains("files") else {
                    throw TableError("the table's columns 3 and 4 must be diary sqlite and diary files: \(cells)")
                }
                continue
            }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }  // separator
            let key = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard rows[key] == nil else { throw TableError("row \(key) appears twice") }
            rows[key] = (cells[2], cells[3])
        }
        return rows
    }

    func testEveryDiaryCellOfTheTableMatchesTheObserversFinding() throws {
        let documented = try Self.documentedCells()
        XCTAssertFalse(documented.isEmpty, "the table has no rows")
        for store in ["sqlite", "files"] {
            let facts = try ObserverScenario.shared(store).facts
            XCTAssertEqual(Set(documented.keys), Set(facts.keys), "table rows and measured facts differ (\(store))")
            for (key, measured) in facts.sorted(by: { $0.key < $1.key }) {
                guard let cells = documented[key] else { continue }
                let cell = store == "sqlite" ? cells.sqlite : cells.files
                XCTAssertEqual(cell, measured, "SECURITY.md says `\(cell)` for \(key) (\(store)); the observer found `\(measured)`")
            }
        }
    }

    struct TableError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
