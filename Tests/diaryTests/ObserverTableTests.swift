import XCTest

/// Keeps SECURITY.md's table ("What each store reveals (measured)") in agreement with what
/// the observers measured (`ObserverScenario` for the two stores, `SyncObserverScenario` for
/// the sync remote): every `diary` cell must equal the finding, a row a store's observer does
/// not measure (the sync rows) must say `n/a` in that store's column, and every finding must
/// have a row. Changing the behaviour or the document without the other fails here.
final class ObserverTableTests: XCTestCase {
    /// The table's rows: key → (sqlite cell, files cell, sync remote cell).
    static func documentedCells(file: StaticString = #filePath) throws -> [String: (
        sqlite: String, files: String, remote: String
    )] {
        var root = URL(fileURLWithPath: "\(file)")
        for _ in 0..<3 { root.deleteLastPathComponent() }  // Tests/diaryTests/<file> → package root
        let text = try String(contentsOf: root.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        guard let start = text.range(of: "## What each store reveals (measured)") else {
            throw TableError("SECURITY.md has no section \"What each store reveals (measured)\"")
        }
        var rows: [String: (String, String, String)] = [:]
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
                guard cells.count >= 5, cells[2].contains("sqlite"), cells[3].contains("files"),
                    cells[4].contains("sync remote")
                else {
                    throw TableError("the table's columns 3 to 5 must be diary sqlite, files and sync remote: \(cells)")
                }
                continue
            }
            if cells.allSatisfy({ $0.allSatisfy { "-: ".contains($0) } }) { continue }  // separator
            let key = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard rows[key] == nil else { throw TableError("row \(key) appears twice") }
            guard cells.count >= 5 else { throw TableError("row \(key) has too few cells") }
            rows[key] = (cells[2], cells[3], cells[4])
        }
        return rows
    }

    func testEveryDiaryCellOfTheTableMatchesTheObserversFinding() throws {
        let documented = try Self.documentedCells()
        XCTAssertFalse(documented.isEmpty, "the table has no rows")
        var measuredKeys = try SyncObserverScenario.keys()
        for store in ["sqlite", "files"] {
            let facts = try ObserverScenario.shared(store).facts
            measuredKeys.formUnion(facts.keys)
            for (key, cells) in documented.sorted(by: { $0.key < $1.key }) {
                let cell = store == "sqlite" ? cells.sqlite : cells.files
                if let measured = facts[key] {
                    XCTAssertEqual(
                        cell, measured,
                        "SECURITY.md says `\(cell)` for \(key) (\(store)); the observer found `\(measured)`")
                } else {
                    XCTAssertTrue(
                        cell.hasPrefix("n/a"),
                        "SECURITY.md says `\(cell)` for \(key) (\(store)), which nothing measured")
                }
            }
            XCTAssertTrue(Set(facts.keys).isSubset(of: documented.keys), "measured facts without a row (\(store))")
        }
        for (key, cells) in documented.sorted(by: { $0.key < $1.key }) {
            // One cell for both remotes: the finding when git and folder agree, else "git: …; folder: …".
            if let measured = try SyncObserverScenario.cell(key) {
                XCTAssertEqual(
                    cells.remote, measured,
                    "SECURITY.md says `\(cells.remote)` for \(key) (sync remote); the observer found `\(measured)`")
            } else {
                XCTAssertTrue(
                    cells.remote.hasPrefix("n/a"),
                    "SECURITY.md says `\(cells.remote)` for \(key) (sync remote), which nothing measured")
            }
        }
        XCTAssertEqual(Set(documented.keys), measuredKeys, "table rows and measured facts differ")
    }

    struct TableError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
