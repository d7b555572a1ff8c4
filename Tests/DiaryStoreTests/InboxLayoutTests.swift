import Foundation
import XCTest

@testable import DiaryStore

/// A vault directory holds a capture inbox (`inbox/`, `inbox/rejected/`) without any finding:
/// capture devices write there by design, so nothing in it is the store's damage.
final class InboxLayoutTests: XCTestCase {
    private var scratch: StoreScratch!

    override func setUpWithError() throws { scratch = try StoreScratch() }
    override func tearDown() { scratch.cleanUp() }

    private let item = String(repeating: "ab", count: 16) + "-00000000000000000007.dcap"

    func testItemNamesAreExactlyTheCanonicalOnes() {
        XCTAssertTrue(InboxLayout.isItemName(item))
        XCTAssertEqual(InboxLayout.itemName(deviceHex: String(repeating: "ab", count: 16), counter: 7), item)
        for bad in [
            item.uppercased(), item + "x", "x" + item, item.replacingOccurrences(of: "-0", with: "_0"),
            item.replacingOccurrences(of: "7.dcap", with: "a.dcap"), ".dcap",
        ] {
            XCTAssertFalse(InboxLayout.isItemName(bad), bad)
        }
    }

    func testAnInboxIsNeverTheStoresDamage() throws {
        let directory = scratch.vaultURL()
        let store = try StoreLayout.create(.files, at: directory, initial: initialChange(entries: 1))
        let inbox = directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(
            at: inbox.appendingPathComponent("rejected"), withIntermediateDirectories: true)
        for name in [item, ".tmp-abc", "rejected/" + item] {
            try Data([1]).write(to: inbox.appendingPathComponent(name))
        }
        XCTAssertEqual(try store.auditLayout(), [])
        XCTAssertEqual(try StoreLayout.detect(at: directory), .files, "still a vault")
        try Data([1]).write(to: inbox.appendingPathComponent("notes.txt"))
        try Data([1]).write(to: inbox.appendingPathComponent("rejected/x"))
        try FileManager.default.createDirectory(
            at: inbox.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: inbox.appendingPathComponent("rejected/" + item.replacingOccurrences(of: "7.dcap", with: "8.dcap"))
                .path, withDestinationPath: "/etc/passwd")
        XCTAssertEqual(try store.auditLayout(), [], "a note for verify, never damage")
        try Data([1]).write(to: directory.appendingPathComponent("notes.txt"))
        XCTAssertEqual(try store.auditLayout(), ["unexpected file 'notes.txt' in the vault directory"])
    }
}
