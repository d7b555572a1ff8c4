import Foundation
import XCTest

/// `sync init` and `sync join` say what is wrong before they ask for the passphrase (issue 22):
/// each question costs a person's typing and an Argon2id derivation. Run on a pseudo-terminal
/// with no passphrase file, so a question would show. And a joined vault elsewhere than the
/// default place says how to use it.
final class SyncCheapChecksCLITests: XCTestCase {
    private let noFile = ["DIARY_PASSPHRASE_FILE": ""]

    func testSyncInitOnAVaultThatAlreadySyncsRefusesBeforeAskingAndNamesSyncStop() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["one"])
        let again = try a.runOnTerminal(["sync", "init", "--folder", net.folder(5).path], env: noFile)
        XCTAssertEqual(again.status, 73, again.shown)
        XCTAssertFalse(again.shown.contains("Passphrase"), "asked before refusing: \(again.shown)")
        XCTAssertTrue(again.shown.contains("diary: error: this vault already syncs with"), again.shown)
        XCTAssertTrue(
            again.shown.contains("diary: hint: to sync with another remote, `diary sync stop` first"), again.shown)
    }

    func testSyncInitWithAMissingGitRepositoryRefusesBeforeAskingEvenWhileUnlocked() throws {
        let box = try DiarySandbox()
        try box.initVault()
        try box.ok(["unlock"])
        let missing = box.root.appendingPathComponent("nowhere.git").path
        let result = try box.runOnTerminal(["sync", "init", missing], env: noFile)
        XCTAssertEqual(result.status, 1, result.shown)
        XCTAssertFalse(result.shown.contains("Passphrase"), "asked before refusing: \(result.shown)")
        XCTAssertTrue(result.shown.contains("diary: error: cannot use the remote: git ls-remote failed:"), result.shown)
        // Git's lines, one per line, indented under the error.
        let gitLines = result.lines.filter { $0.hasPrefix("  fatal: ") }
        XCTAssertGreaterThanOrEqual(gitLines.count, 2, result.shown)
        XCTAssertFalse(result.shown.contains("; fatal"), result.shown)
        XCTAssertEqual(try box.run(["sync"]).status, 1, "nothing was set up")
    }

    func testSyncInitOnAFolderOfAnotherVaultRefusesBeforeAsking() throws {
        let other = try SyncMachines(.folder, name: "other")
        try other.first(entries: ["someone else's"])
        let box = try DiarySandbox()
        try box.initVault()
        let result = try box.runOnTerminal(["sync", "init", "--folder", other.folder(0).path], env: noFile)
        XCTAssertEqual(result.status, 65, result.shown)
        XCTAssertFalse(result.shown.contains("Passphrase"), result.shown)
        XCTAssertTrue(result.shown.contains("another vault"), result.shown)
    }

    func testSyncJoinOfAMissingRepositoryRefusesBeforeAsking() throws {
        let box = try DiarySandbox()
        let missing = box.root.appendingPathComponent("nowhere.git").path
        let result = try box.runOnTerminal(
            ["sync", "join", missing, "--invite", try SyncCheapChecksCLITests.someInvite()], env: noFile)
        XCTAssertEqual(result.status, 1, result.shown)
        XCTAssertFalse(result.shown.contains("Passphrase"), "asked before refusing: \(result.shown)")
        XCTAssertTrue(result.shown.contains("diary: error: cannot use the remote: git clone"), result.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path), "nothing was created")
    }

    func testSyncJoinAsksAgainAfterAWrongPassphraseAndSaysHowToUseAVaultElsewhere() throws {
        let net = try SyncMachines(.git)
        try net.first(entries: ["one"])
        let code = try net.invite(from: 0, name: "laptop")
        let box = try DiarySandbox(name: "joiner")
        let target = box.root.appendingPathComponent("diary")
        let run = try box.runOnTerminal(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", target.path],
            answers: [
                ("Passphrase of the synced vault", "not it"), ("Passphrase of the synced vault", net.passphrase),
            ],
            env: noFile)
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertEqual(run.shown.components(separatedBy: "Passphrase of the synced vault").count - 1, 2, run.shown)
        XCTAssertTrue(run.shown.contains("created a sqlite vault at \(target.path)"), run.shown)
        XCTAssertTrue(
            run.shown.contains(
                "diary looks for the vault at \(box.vault.path); to use this one, pass --vault \(target.path)"),
            run.shown)
        XCTAssertTrue(run.shown.contains("export DIARY_VAULT=\(target.path)"), run.shown)
        let pass = try box.passphraseFile(net.passphrase)
        try box.ok(["list", "--vault", target.path, "--passphrase-file", pass])
        try box.ok(["list"], env: ["DIARY_VAULT": target.path, "DIARY_PASSPHRASE_FILE": pass])
    }

    /// A well-formed invite code, for a join that must fail before the code matters.
    private static func someInvite() throws -> String {
        let net = try SyncMachines(.folder, name: "invite")
        try net.first()
        return try net.invite(from: 0)
    }
}
