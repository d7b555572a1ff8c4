import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `importEntries(items:)`: entries stored with their files in one change, duplicates decided
/// before any file is opened, identical files stored once, bad names refused before anything is
/// written, and a failure part way leaving neither entries nor objects, in both stores.
final class VaultImportAttachmentTests: VaultTestCase {
    private struct Opened: Error {}

    /// A file of `bytes`; `opens` counts how many times the import opened it.
    private func file(_ name: String, _ bytes: [UInt8], opens: UnsafeMutablePointer<Int>? = nil, fail: Bool = false)
        -> ImportFile
    {
        ImportFile(name: name) {
            opens?.pointee += 1
            if fail { throw Opened() }
            return AttachmentInput.reading(bytes, name: name)
        }
    }

    private func entry(_ text: String, source: String) -> Entry {
        let date = Date(millisecondsSince1970: 1_700_000_000_000)
        return Entry(
            id: SecureRandom.uuid(), text: text, date: date, created: date, modified: date, starred: false, tags: [],
            source: source)
    }

    private func read(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    func testEntriesComeWithTheirFilesIdenticalOnesStoredOnceAndASecondImportOpensNothing() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "items-\(kind)")
            let shared = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
            let opens = UnsafeMutablePointer<Int>.allocate(capacity: 1)
            defer { opens.deallocate() }
            opens.pointee = 0
            let entries = [entry("One", source: "t:1"), entry("Two", source: "t:2"), entry("Three", source: "t:3")]
            let items = [
                ImportItem(
                    entry: entries[0],
                    attachments: [file("a.bin", shared, opens: opens), file("b.bin", [1, 2], opens: opens)]),
                ImportItem(entry: entries[1], attachments: [file("same.bin", shared, opens: opens)]),
                ImportItem(entry: entries[2]),
            ]
            let outcome = try vault.importEntries(items: { body in try items.forEach(body) })
            XCTAssertEqual(outcome.imported.count, 3)
            XCTAssertEqual(outcome.attachments, 3)
            XCTAssertEqual(opens.pointee, 3, "each file opened once, when its entry is stored")
            let one = try vault.entry(entries[0].id)
            let two = try vault.entry(entries[1].id)
            XCTAssertEqual(one.attachments.map(\.name), ["a.bin", "b.bin"])
            XCTAssertEqual(try read(vault, two.attachments[0]), shared)
            XCTAssertEqual(two.attachments[0].objectID, one.attachments[0].objectID, "stored once")
            XCTAssertEqual(try vault.backend.attachmentIDs().count, 2)
            XCTAssertEqual(try vault.unreferencedAttachments(), [])

            // Same sources again (new ids): duplicates, decided before any file is opened.
            let again = [entry("One", source: "t:1"), entry("Two", source: "t:2")].map {
                ImportItem(entry: $0, attachments: [file("x.bin", [9], opens: opens)])
            }
            let second = try vault.importEntries(items: { body in try again.forEach(body) })
            XCTAssertEqual(second.imported, [])
            XCTAssertEqual(second.duplicates, 2)
            XCTAssertEqual(opens.pointee, 3)
            XCTAssertEqual(try vault.backend.attachmentIDs().count, 2)
        }
    }

    func testAFailureOrABadNameLeavesNeitherEntriesNorObjects() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "fail-\(kind)")
            let failing = [
                ImportItem(entry: entry("One", source: "f:1"), attachments: [file("a.bin", [1, 2, 3])]),
                ImportItem(entry: entry("Two", source: "f:2"), attachments: [file("b.bin", [4], fail: true)]),
            ]
            XCTAssertThrowsError(try vault.importEntries(items: { body in try failing.forEach(body) })) {
                XCTAssertTrue($0 is Opened, "\($0)")
            }
            XCTAssertEqual(try vault.list(), [])
            XCTAssertEqual(try vault.backend.attachmentIDs(), [], "the object sealed first was removed")

            for names in [["ok.bin", "OK.bin"], ["a/b"], [""]] {
                let bad = [ImportItem(entry: entry("Bad", source: "b:1"), attachments: names.map { file($0, [1]) })]
                XCTAssertThrowsError(try vault.importEntries(items: { body in try bad.forEach(body) }), "\(names)") {
                    guard case VaultError.importRefused(position: 1, _) = $0 else { return XCTFail("\($0)") }
                }
            }
            XCTAssertEqual(try vault.list(), [])
            XCTAssertEqual(try vault.backend.attachmentIDs(), [])
        }
    }
}
