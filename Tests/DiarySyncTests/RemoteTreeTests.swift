import DiaryStore
import Foundation
import XCTest

@testable import DiarySync

final class RemoteTreeTests: XCTestCase {
    private var root: URL!
    private var tree: RemoteTree { RemoteTree(root: root) }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remote-tree-\(UUID().uuidString)", isDirectory: true)
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

    func testTheListerSortsNamesAndFindsNothingInAMissingFolder() throws {
        for name in ["b", "a", "c.sync-conflict-1", ".hidden"] { try put("x", at: "keys/\(name)") }
        XCTAssertEqual(tree.list("keys"), [".hidden", "a", "b", "c.sync-conflict-1"])
        XCTAssertEqual(tree.list(), ["keys"])
        XCTAssertEqual(tree.list("log"), [])
        XCTAssertEqual(tree.list("keys/a"), [], "a file is not a folder")
    }

    func testTheMarkerIsReadStrictly() throws {
        XCTAssertEqual(try tree.marker(), .absent)
        let id = UUID()
        try tree.writeMarker(vaultID: id)
        XCTAssertEqual(try tree.marker(), .vault(id))
        try put("diary-sync 1\n\(id.uuidString.lowercased())\n", at: RemoteLayout.marker)
        XCTAssertEqual(try tree.marker(), .format1(id), "a format-1 remote is named as such, to upgrade")
        for forged in [
            "diary-sync 3\n\(id.uuidString.lowercased())\n", "diary-sync 2\n", "diary-sync 2\nnot-an-id\n",
            "diary-sync 2\n\(id.uuidString.lowercased())\nmore\n", "", "diary-sync 2\n\(id.uuidString)\n",
        ] {
            try put(forged, at: RemoteLayout.marker)
            XCTAssertEqual(try tree.marker(), .unreadable, forged)
        }
    }

    func testAMarkerLargerThanAnyMarkerIsNotRead() throws {
        try put(String(repeating: "x", count: RemoteTree.markerLimit + 1), at: RemoteLayout.marker)
        XCTAssertThrowsError(try tree.marker())
    }

    func testPublishedHeadersAreListedNewestFirstAndOtherNamesLeftOut() throws {
        let machine = UUID()
        let hex = RemoteLayout.hex(machine)
        for name in [
            "\(hex)-000000000002.sqlite", "\(hex)-000000000007.files", "\(hex)-000000000003.sqlite",
            "\(hex)-000000000003.sqlite (1)", "README",
        ] {
            try put("h", at: "keys/\(name)")
        }
        let headers = tree.publishedHeaders()
        XCTAssertEqual(headers.map(\.seq), [7, 3, 2])
        XCTAssertEqual(headers.map(\.store), [.files, .sqlite, .sqlite])
        XCTAssertEqual(
            headers.map(\.path),
            [
                "keys/\(hex)-000000000007.files", "keys/\(hex)-000000000003.sqlite",
                "keys/\(hex)-000000000002.sqlite",
            ])
        XCTAssertTrue(headers.allSatisfy { $0.machine == machine })
    }

    func testOnlyTwelveDigitNamesAreRecordFiles() throws {
        let hex = RemoteLayout.hex(UUID())
        for name in ["000000000001", "000000000002", "000000000002 (1)", ".diary-tmp-1", "000000000000"] {
            try put("r", at: "log/\(hex)/\(name)")
        }
        try put("r", at: "log/not-a-machine/000000000001")
        XCTAssertEqual(tree.recordFiles(inLog: hex).map(\.seq), [1, 2])
        XCTAssertEqual(tree.allRecordFiles().count, 3, "every folder under log/ is looked in")
        XCTAssertEqual(Set(tree.logFolders()), [hex, "not-a-machine"])
    }

    func testTheStampIsOnlyForRegularFiles() throws {
        try put("abc", at: "log/file")
        XCTAssertEqual(tree.stamp("log/file")?.size, 3)
        XCTAssertNil(tree.stamp("log"))
        XCTAssertNil(tree.stamp("log/missing"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link").path, withDestinationPath: "log/file")
        XCTAssertNil(tree.stamp("link"), "a link is not followed")
    }

    func testAGitRemoteMayOnlyAddFilesOrDropPublishedHeaders() {
        XCTAssertNil(GitRemote.rewrite("A\tlog/ab/000000000001"))
        XCTAssertNil(GitRemote.rewrite("D\tkeys/ab-000000000001.sqlite"))
        XCTAssertEqual(
            GitRemote.rewrite("D\tlog/ab/000000000001"), .fileRewritten(status: "D", path: "log/ab/000000000001"))
        XCTAssertEqual(GitRemote.rewrite("M\tdiary-sync"), .fileRewritten(status: "M", path: "diary-sync"))
        XCTAssertEqual(GitRemote.rewrite("T\tlog/a\tb"), .fileRewritten(status: "T", path: "log/a\tb"))
    }
}
