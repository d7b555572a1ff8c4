import DiaryStore
import Foundation
import XCTest

@testable import DiarySync

/// The capture inbox of a folder remote as files: strict names, nothing followed, items moved
/// aside under a name that is free.
final class RemoteInboxTests: XCTestCase {
    private var root: URL!
    private var inbox: RemoteInbox { RemoteInbox(tree: RemoteTree(root: root)) }
    private let device = "0123456789abcdef0123456789abcdef"

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remote-inbox-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func put(_ text: String, at path: String) throws {
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: root.appendingPathComponent(path))
    }

    func testItemNamesAreADeviceAndATwentyDigitCounter() throws {
        let parsed = try XCTUnwrap(RemoteLayout.item(fromName: "\(device)-00000000000000000042.dcap"))
        XCTAssertEqual(RemoteLayout.hex(parsed.device), device)
        XCTAssertEqual(parsed.counter, 42)
        for bad in [
            "\(device)-00000000000000000000.dcap", "\(device)-0000000000000000042.dcap",
            "\(device)-00000000000000000042.dca", "\(device.uppercased())-00000000000000000042.dcap",
            "\(device)-0000000000000000004٢.dcap", "\(device)_00000000000000000042.dcap",
            "\(device)-00000000000000000042-1.dcap", "\(device)-99999999999999999999.dcap",
        ] {
            XCTAssertNil(RemoteLayout.item(fromName: bad), bad)
        }
    }

    func testTheListingSkipsWritesInProgressAndNamesWhatIsNotAnItem() throws {
        let item = "\(device)-00000000000000000001.dcap"
        try put("x", at: "inbox/\(item)")
        try put("x", at: "inbox/.tmp-\(item)")
        try put("x", at: "inbox/notes.txt")
        try put("x", at: "inbox/rejected/\(device)-00000000000000000002.dcap")
        try put("x", at: "inbox/other/a")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("inbox/\(device)-00000000000000000003.dcap").path,
            withDestinationPath: "/etc/passwd")
        let listing = inbox.list()
        XCTAssertEqual(listing.items.map(\.path), ["inbox/\(item)"])
        XCTAssertEqual(
            listing.unexpected.sorted(),
            ["inbox/\(device)-00000000000000000003.dcap", "inbox/notes.txt", "inbox/other"])
        XCTAssertNil(
            inbox.read(
                RemoteInbox.Item(
                    name: "", path: "inbox/\(device)-00000000000000000003.dcap",
                    device: UUID(), counter: 3), limit: 100), "a link is never read")
    }

    func testAnItemMovedAsideTakesAFreeNameInRejected() throws {
        let (name, _) = try moveTwoDifferentItemsAside()
        XCTAssertEqual(inbox.list().items, [])
        XCTAssertEqual(
            try String(contentsOf: root.appendingPathComponent("inbox/rejected/\(name).2"), encoding: .utf8),
            "second")
    }

    func testAnItemWhoseBytesAreAlreadyInRejectedIsRemovedNotCopiedAgain() throws {
        let (name, item) = try moveTwoDifferentItemsAside()
        for bytes in ["first", "second", "second", "first"] {
            try put(bytes, at: "inbox/\(name)")
            XCTAssertEqual(inbox.moveAside(item), "inbox/rejected/\(name)\(bytes == "first" ? "" : ".2")", bytes)
        }
        XCTAssertEqual(inbox.list().items, [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("inbox/rejected").path)
                .sorted(), [name, "\(name).2"])
        try put("third", at: "inbox/\(name)")
        XCTAssertEqual(inbox.moveAside(item), "inbox/rejected/\(name).3", "other bytes still take a free name")
    }

    /// "first", then "second", under one item's name, each moved aside: to `rejected/NAME` and
    /// `rejected/NAME.2`.
    private func moveTwoDifferentItemsAside(
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (name: String, item: RemoteInbox.Item) {
        let name = "\(device)-00000000000000000001.dcap"
        try put("first", at: "inbox/\(name)")
        let item = try XCTUnwrap(inbox.list().items.first, file: file, line: line)
        XCTAssertEqual(inbox.moveAside(item), "inbox/rejected/\(name)", file: file, line: line)
        try put("second", at: "inbox/\(name)")
        XCTAssertEqual(inbox.moveAside(item), "inbox/rejected/\(name).2", file: file, line: line)
        return (name, item)
    }
}
