import Foundation
import XCTest

/// What is wrong is said before anything is asked (issue 22's review): a vault that does not
/// sync is said to before a passphrase or a confirmation; an invite code that is not one, or a
/// folder that does not exist, gets its own error. Run on a pseudo-terminal with no passphrase
/// file, so a question would show.
final class SyncRefusalOrderCLITests: XCTestCase {
    private let noFile = ["DIARY_PASSPHRASE_FILE": ""]

    func testEverySyncCommandOfAVaultThatDoesNotSyncRefusesBeforeAsking() throws {
        let box = try DiarySandbox()
        try box.initVault()
        let commands: [[String]] = [
            ["sync"], ["sync", "now"], ["sync", "invite"], ["sync", "members"], ["sync", "status"], ["sync", "stop"],
            ["sync", "remove", "laptop"], ["sync", "upgrade"],
        ]
        for command in commands {
            let run = try box.runOnTerminal(command, env: noFile)
            let what = command.joined(separator: " ")
            XCTAssertEqual(run.status, 1, "\(what): \(run.shown)")
            XCTAssertFalse(run.shown.contains("Passphrase"), "\(what) asked for a passphrase first: \(run.shown)")
            XCTAssertFalse(run.shown.contains("[y/N]"), "\(what) asked for confirmation first: \(run.shown)")
            XCTAssertTrue(
                run.shown.contains("diary: error: this vault does not sync on this machine"), "\(what): \(run.shown)")
        }
    }

    /// A git remote that holds another vault: cloned before the question (the start clones it
    /// anyway), so its marker is read first; the clone is not left behind.
    func testSyncInitOfAGitRemoteOfAnotherVaultRefusesBeforeAsking() throws {
        let other = try SyncMachines(.git, name: "other")
        try other.first(entries: ["someone else's"])
        let box = try DiarySandbox()
        try box.initVault()
        let run = try box.runOnTerminal(["sync", "init", other.remoteRepository.path], env: noFile)
        XCTAssertEqual(run.status, 65, run.shown)
        XCTAssertFalse(run.shown.contains("Passphrase"), "asked before refusing: \(run.shown)")
        XCTAssertTrue(run.shown.contains("diary: error: the remote holds another vault"), run.shown)
        let state = box.root.appendingPathComponent("home/.local/state/diary/sync")
        let left = FileManager.default.enumerator(atPath: state.path)?.allObjects as? [String] ?? []
        XCTAssertFalse(left.contains { $0.hasSuffix("/git") || $0.hasSuffix("config") }, "\(left)")
    }

    func testAMalformedInviteCodeIsSaidWithoutTheTopLevelUsage() throws {
        let box = try DiarySandbox()
        try box.initVault()
        let folder = box.root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for command in [["sync", "join", "--folder", folder.path], ["sync", "init", "--folder", folder.path]] {
            let run = try box.run(command + ["--invite", "AAAA"])
            XCTAssertEqual(run.status, 64, run.stderr)
            XCTAssertTrue(run.stderr.contains("diary: error: that is not an invite code"), run.stderr)
            XCTAssertTrue(run.stderr.contains("diary: hint: `diary sync invite`"), run.stderr)
            XCTAssertFalse(run.stderr.contains("Usage: diary [--vault"), run.stderr)
        }
    }

    func testAFolderThatDoesNotExistIsRefusedByJoinAndInit() throws {
        let box = try DiarySandbox()
        let missing = box.root.appendingPathComponent("nonexistent")
        let join = try box.runOnTerminal(
            ["sync", "join", "--folder", missing.path, "--invite", try Self.someInvite()], env: noFile)
        XCTAssertEqual(join.status, 1, join.shown)
        XCTAssertFalse(join.shown.contains("Passphrase"), join.shown)
        XCTAssertTrue(join.shown.contains("diary: error: no such folder: \(missing.path)"), join.shown)
        XCTAssertFalse(join.shown.contains("no diary vault syncs there"), join.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path), "nothing was created")

        try box.initVault()
        let typo = box.root.appendingPathComponent("typo")
        let start = try box.run(["sync", "init", "--folder", typo.path])
        XCTAssertEqual(start.status, 1, start.stderr)
        XCTAssertTrue(start.stderr.contains("diary: error: no such folder: \(typo.path)"), start.stderr)
        XCTAssertTrue(start.stderr.contains("create the folder first"), start.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: typo.path), "the folder was made")
        XCTAssertTrue(try box.ok(["sync", "init", "--help"]).stdout.contains("does not exist"))
        XCTAssertEqual(try box.run(["sync"]).status, 1, "nothing was set up")
    }

    /// A well-formed invite code, for a join that must fail before the code matters.
    private static func someInvite() throws -> String {
        let net = try SyncMachines(.folder, name: "invite")
        try net.first()
        return try net.invite(from: 0)
    }
}
