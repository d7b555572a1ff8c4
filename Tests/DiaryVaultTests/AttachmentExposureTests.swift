import DiaryStore
import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryVault

/// Measures what attachments reveal to someone who copies a vault (no key: a directory
/// listing, `stat`, and SQL on the database), and checks that SECURITY.md's table "What
/// attachments reveal (measured)" says exactly that: a cell built from the measurement must
/// appear in the document, so neither can change without the other.
final class AttachmentExposureTests: VaultTestCase {
    private typealias F = AttachmentFixtures
    private let lengths = [1, 1000, 100_000, 1_000_000]

    /// What the observer found in one store.
    private struct Seen {
        var objects = 0
        var sizes: [Int] = []
        var afterDuplicate = 0
        var afterNoDedup = 0
        var detail = ""
    }

    private func measure(_ kind: StoreKind) throws -> Seen {
        let vault = try makeVault(kind, name: "m-\(kind)")
        let files = lengths.enumerated().map { F.input(F.bytes($1, seed: UInt8($0)), name: "f\($0)") }
        _ = try vault.add(text: "with files", attachments: files)
        var seen = Seen()
        (seen.objects, seen.sizes, seen.detail) = try observe(vault.directory, kind)
        // Someone who can make you attach a file they have learns whether you had it already.
        _ = try vault.add(text: "again", attachments: [F.input(F.bytes(1000, seed: 1), name: "same")])
        seen.afterDuplicate = try observe(vault.directory, kind).0
        _ = try vault.add(text: "off", attachments: [F.input(F.bytes(1000, seed: 1), name: "x", dedup: false)])
        seen.afterNoDedup = try observe(vault.directory, kind).0
        XCTAssertEqual(try VaultExposure.measure(at: vault.directory).attachmentCount, seen.afterNoDedup)
        return seen
    }

    /// Object count, sorted sizes and a store-specific note, measured without the key.
    private func observe(_ directory: URL, _ kind: StoreKind) throws -> (Int, [Int], String) {
        if kind == .files {
            let folder = directory.appendingPathComponent("attachments")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            var sizes: [Int] = []
            var hidden = true
            for name in names {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: folder.appendingPathComponent(name).path)
                sizes.append((attributes[.size] as! NSNumber).intValue)
                let mtime = Int((attributes[.modificationDate] as! Date).timeIntervalSince1970)
                hidden = hidden && DurableFile.hiddenTimeWindow.contains(mtime)
            }
            return (names.count, sizes.sorted(), hidden ? "random mtimes" : "real mtimes")
        }
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("vault.sqlite").path)
        return try queue.read { db in
            let sizes = try Int.fetchAll(db, sql: "SELECT sum(length(sealed)) FROM attachment_chunk GROUP BY id")
            let rows = try Row.fetchAll(db, sql: "SELECT id, chunk, rowid FROM attachment_chunk ORDER BY id, chunk")
            // The largest object's rows in chunk order: their rowids would rise if they followed
            // insertion (17 random rowids happen to rise once in 17!, about 3.6·10^14).
            let groups = Dictionary(grouping: rows, by: { $0["id"] as Data }).values
            let largest = groups.max { $0.count < $1.count } ?? []
            let rowids: [Int64] = largest.sorted { ($0["chunk"] as Int64) < ($1["chunk"] as Int64) }.map { $0["rowid"] }
            let order = rowids == rowids.sorted() ? "in insertion order" : "not in insertion order"
            let detail = "\(rows.count) rows; the largest object's \(largest.count) rowids \(order)"
            return (groups.count, sizes.sorted(), detail)
        }
    }

    func testSecurityTableSaysWhatAttachmentsReveal() throws {
        let sqlite = try measure(.sqlite)
        let files = try measure(.files)
        let expectedSizes = try lengths.map { Int(try XCTUnwrap(AttachmentObject.storedLength(for: UInt64($0)))) }
        XCTAssertEqual(sqlite.sizes, expectedSizes)
        XCTAssertEqual(files.sizes, expectedSizes)
        let sizeCell = zip(lengths, expectedSizes).map { "\($0) B → \($1) B" }.joined(separator: ", ")
        let rowCount = lengths.map { 1 + Int(AttachmentObject.chunkCount(for: UInt64($0))!) }.reduce(0, +)
        let table = [
            "| Number of attachment objects | \(sqlite.objects) of \(lengths.count) files | \(files.objects) of \(lengths.count) files |",
            "| Each object's stored size | \(sizeCell) | \(sizeCell) |",
            "| Storage detail | \(sqlite.detail) | \(files.detail) |",
            "| Objects after attaching a file already attached (dedup on) | \(sqlite.afterDuplicate) | \(files.afterDuplicate) |",
            "| Objects after attaching it with `--no-dedup` | \(sqlite.afterNoDedup) | \(files.afterNoDedup) |",
        ]
        XCTAssertEqual(sqlite.detail, "\(rowCount) rows; the largest object's 17 rowids not in insertion order")
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let text = try String(contentsOf: root.appendingPathComponent("SECURITY.md"), encoding: .utf8)
        for row in table {
            XCTAssertTrue(text.contains(row), "SECURITY.md lacks the measured row:\n\(row)")
        }
        print(table.joined(separator: "\n"))
    }
}
