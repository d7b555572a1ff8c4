import DiaryStore
import Foundation
import XCTest

@testable import DiarySync

/// Whoever controls the remote can put links in it: `RemoteTree` follows none below its top,
/// lists none, and writes nothing through one.
final class RemoteTreeLinkTests: XCTestCase {
    private var scratch: URL!
    private var root: URL { scratch.appendingPathComponent("remote", isDirectory: true) }
    /// A place outside the tree that links point at.
    private var outside: URL { scratch.appendingPathComponent("outside", isDirectory: true) }
    private var tree: RemoteTree { RemoteTree(root: root) }
    private let hex = RemoteLayout.hex(UUID())

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remote-links-\(UUID().uuidString)", isDirectory: true)
        for dir in [root, outside] {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func put(_ text: String, at url: URL) throws {
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func link(_ path: String, to target: URL) throws {
        let at = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: at.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: at.path, withDestinationPath: target.path)
    }

    private func assertRefusesLink(at path: String, _ expression: () throws -> Void, line: UInt = #line) {
        XCTAssertThrowsError(try expression(), line: line) { error in
            XCTAssertEqual(
                error as? SyncError,
                .remoteUnusable(.wrongEntryKind(path: root.appendingPathComponent(path).path, found: .symbolicLink)),
                line: line)
        }
    }

    func testALogFolderThatIsALinkIsNotALog() throws {
        try put("record", at: outside.appendingPathComponent("000000000001"))
        try link("log/\(hex)", to: outside)
        try put("record", at: root.appendingPathComponent("log/\(RemoteLayout.hex(UUID()))/000000000001"))
        XCTAssertEqual(tree.logFolders().count, 1)
        XCTAssertFalse(tree.logFolders().contains(hex))
        XCTAssertEqual(try tree.listing("log").unfollowed, [hex: .symbolicLink])
        XCTAssertEqual(tree.recordFiles(inLog: hex).count, 0, "nothing is listed through the link")
        XCTAssertEqual(tree.allRecordFiles().count, 1)
        assertRefusesLink(at: "log/\(hex)") { _ = try tree.read("log/\(hex)/000000000001", limit: 100) }
        assertRefusesLink(at: "log/\(hex)") { _ = try tree.listing("log/\(hex)") }
    }

    func testALinkHigherUpIsNotFollowedEither() throws {
        try put("record", at: outside.appendingPathComponent("\(hex)/000000000001"))
        try link("log", to: outside)
        XCTAssertEqual(tree.logFolders(), [])
        XCTAssertEqual(tree.list(), [], "the link itself is left out of the listing")
        XCTAssertEqual(try tree.listing().unfollowed, ["log": .symbolicLink])
        assertRefusesLink(at: "log") { _ = try tree.read("log/\(hex)/000000000001", limit: 100) }
        XCTAssertNil(tree.stamp("log/\(hex)/000000000001"))
        XCTAssertNil(tree.readPrefix("log/\(hex)/000000000001", count: 3))
        XCTAssertFalse(tree.remove("log/\(hex)/000000000001"))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: outside.appendingPathComponent("\(hex)/000000000001").path))
    }

    func testAKeysFolderThatIsALinkMakesAHeaderWriteFailAndNothingIsWrittenThrough() throws {
        try link(RemoteLayout.keysDirectory, to: outside)
        let header = RemoteLayout.headerPath(machine: UUID(), seq: 1, store: .sqlite)
        try put("planted", at: outside.appendingPathComponent(String(header.dropFirst(5))))
        assertRefusesLink(at: "keys") { try tree.makeFolder(RemoteLayout.keysDirectory) }
        assertRefusesLink(at: "keys") { try tree.write([1, 2, 3], to: header) }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path).count, 1)
        XCTAssertEqual(
            try Data(contentsOf: outside.appendingPathComponent(String(header.dropFirst(5)))), Data("planted".utf8))
        XCTAssertEqual(tree.publishedHeaders().count, 0, "no header is read through the link")
    }

    func testARecordThatIsALinkIsNeitherListedNorRead() throws {
        let secret = outside.appendingPathComponent("secret")
        try put("not a record", at: secret)
        let path = "log/\(hex)/000000000001"
        try link(path, to: secret)
        try put("record", at: root.appendingPathComponent("log/\(hex)/000000000002"))
        XCTAssertEqual(tree.recordFiles(inLog: hex).map(\.seq), [2])
        XCTAssertEqual(try tree.listing("log/\(hex)").unfollowed, ["000000000001": .symbolicLink])
        assertRefusesLink(at: path) { _ = try tree.read(path, limit: 100) }
        XCTAssertNil(tree.readIfPossible(path, limit: 100))
        XCTAssertNil(tree.readPrefix(path, count: 4))
        XCTAssertNil(tree.stamp(path))
        XCTAssertThrowsError(
            try tree.move(path, to: "log/\(hex)/000000000003"), "a link is not put in place of a record")
        var visited: [String] = []
        tree.forEachRecordFile(limit: 100) { path, _ in
            visited.append(path)
            return true
        }
        XCTAssertEqual(visited, ["log/\(hex)/000000000002"])
        XCTAssertTrue(tree.remove(path), "the link itself is removed")
        XCTAssertEqual(try Data(contentsOf: secret), Data("not a record".utf8), "what it pointed at is not")
    }

    func testAFIFOIsRefusedWithoutBlocking() throws {
        let path = "log/\(hex)/000000000001"
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("log/\(hex)"), withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(root.appendingPathComponent(path).path, 0o600), 0)
        XCTAssertEqual(tree.recordFiles(inLog: hex).count, 0)
        XCTAssertEqual(try tree.listing("log/\(hex)").unfollowed, ["000000000001": .special])
        XCTAssertThrowsError(try tree.read(path, limit: 100)) { error in
            XCTAssertEqual(
                error as? SyncError,
                .remoteUnusable(.wrongEntryKind(path: root.appendingPathComponent(path).path, found: .special)))
        }
        XCTAssertNil(tree.readPrefix(path, count: 4))
    }

    func testRecordsAreHandedOverOneAtATimeUntilTheReaderStops() throws {
        for seq in 1...3 {
            try put(
                "record \(seq)", at: root.appendingPathComponent("log/\(hex)/\(RemoteLayout.recordName(UInt64(seq)))"))
        }
        try put(String(repeating: "x", count: 200), at: root.appendingPathComponent("log/\(hex)/000000000004"))
        var read: [String] = []
        tree.forEachRecordFile(limit: 100) { _, bytes in
            read.append(String(decoding: bytes, as: UTF8.self))
            return true
        }
        XCTAssertEqual(read, ["record 1", "record 2", "record 3"], "the one over the limit is passed over")
        read = []
        tree.forEachRecordFile(limit: 100) { _, bytes in
            read.append(String(decoding: bytes, as: UTF8.self))
            return read.count < 2
        }
        XCTAssertEqual(read, ["record 1", "record 2"])
        XCTAssertEqual(tree.readPrefix("log/\(hex)/000000000002", count: 6), Array("record".utf8))
    }

    func testAWriteReplacesALinkAtItsNameInsteadOfWritingThroughIt() throws {
        let target = outside.appendingPathComponent("target")
        try put("untouched", at: target)
        try tree.makeFolder(RemoteLayout.keysDirectory)
        try link("keys/header", to: target)
        try tree.write(Array("new".utf8), to: "keys/header")
        XCTAssertEqual(try Data(contentsOf: target), Data("untouched".utf8))
        XCTAssertEqual(tree.readIfPossible("keys/header", limit: 10), Array("new".utf8))
        XCTAssertEqual(try tree.listing(RemoteLayout.keysDirectory).files, ["header"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("keys").path), ["header"],
            "no temporary file is left behind")
    }
}
