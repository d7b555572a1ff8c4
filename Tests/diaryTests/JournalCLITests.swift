import Foundation
import XCTest

/// Named journals: `diary journal`, `-j NAME` before or after any command, and where `-j`
/// stands among `--vault`, `$DIARY_VAULT` and the default journal.
final class JournalCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var work: URL!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "journal")
        box.environment["XDG_CONFIG_HOME"] = box.root.appendingPathComponent("cfg").path
        try box.initVault()  // the sandbox's own, at $DIARY_VAULT
        try box.ok(["new", "A personal day"])
        work = box.root.appendingPathComponent("work")
    }

    override func tearDown() { box = nil }

    private func titles(_ args: [String], env: [String: String] = [:]) throws -> String {
        try box.ok(args + ["list"], env: env).stdout
    }

    func testInitRegistersAJournalAndDashJChoosesItBeforeOrAfterTheCommand() throws {
        let made = try box.ok([
            "init", "-j", "work", "--vault", work.path, "--new-passphrase-file", box.passphraseFile("correct horse"),
        ])
        XCTAssertTrue(made.stderr.contains("registered it as the journal 'work'"), made.stderr)
        try box.ok(["-j", "work", "new", "A meeting"])
        try box.ok(["new", "--journal", "work", "Another meeting"])
        try box.ok(["-jwork", "new", "A joined meeting"])
        let listed = try box.ok(["list", "-j", "work"]).stdout
        XCTAssertTrue(listed.contains("A meeting") && listed.contains("Another meeting"), listed)
        XCTAssertEqual(try box.ok(["list", "-jwork"]).stdout, listed)
        XCTAssertFalse(listed.contains("A personal day"), "-j wins over $DIARY_VAULT: \(listed)")
        XCTAssertFalse(try titles([]).contains("meeting"), "$DIARY_VAULT without -j")

        XCTAssertEqual(try box.ok(["journal", "list"]).stdout, "  work  \(work.path)\n")
        let both = try box.run(["-j", "work", "--vault", work.path, "list"])
        XCTAssertEqual(both.status, 64, both.stderr)
        let unknown = try box.run(["list", "-j", "wrok"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no journal named 'wrok' (known: work)"), unknown.stderr)
    }

    func testTheDefaultJournalComesAfterDiaryVaultAndRemoveKeepsTheVault() throws {
        try box.ok(["journal", "add", "work", work.path])
        try box.ok(["init", "-j", "work", "--new-passphrase-file", box.passphraseFile("correct horse")])
        try box.ok(["-j", "work", "new", "A meeting"])
        try box.ok(["journal", "default", "work"])
        XCTAssertEqual(try box.ok(["journal", "list"]).stdout, "* work  \(work.path)\n")
        XCTAssertEqual(try box.ok(["config", "get", "journal"]).stdout, "work\n")
        XCTAssertFalse(try titles([]).contains("A meeting"), "$DIARY_VAULT wins over the default journal")
        XCTAssertTrue(try titles([], env: ["DIARY_VAULT": ""]).contains("A meeting"), "no $DIARY_VAULT: the default")
        let status = try box.ok(["status"], env: ["DIARY_VAULT": ""]).stdout
        XCTAssertTrue(status.contains("\(work.path) [work]"), status)

        let removed = try box.ok(["journal", "remove", "work"])
        XCTAssertTrue(removed.stderr.contains("there is no default now"), removed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: work.appendingPathComponent("vault.sqlite").path))
        XCTAssertEqual(try box.ok(["journal", "list"]).stdout, "")
        XCTAssertEqual(try box.run(["-j", "work", "list"]).status, 64)
    }

    /// `status` names a registered vault beside its path, also when another shell's agent holds it.
    func testStatusNamesAnUnlockedJournalAmongTheOthers() throws {
        try box.ok([
            "init", "-j", "work", "--vault", work.path, "--new-passphrase-file", box.passphraseFile("correct horse"),
        ])
        try box.ok(["-j", "work", "unlock"])
        let status = try box.ok(["status"]).stdout
        XCTAssertTrue(status.hasPrefix("* locked \(box.vault.path) (sqlite)\n"), "the sandbox's vault: \(status)")
        XCTAssertTrue(status.contains("  unlocked \(work.path) [work]: locks in"), status)
        try box.ok(["-j", "work", "lock"])
    }

    /// The shell completes `-j` with the registered names.
    func testTheJournalOptionCompletesRegisteredNames() throws {
        try box.ok(["journal", "add", "work", work.path])
        try box.ok(["journal", "add", "home", box.vault.path])
        let words = ["diary", "list", "-j", "w"]
        let completed = try box.ok(
            ["---completion", "list", "--", "--journal", "3", "1"] + words, env: ["SAP_SHELL": "bash"])
        XCTAssertEqual(completed.stdout.split(separator: "\n"), ["work"])
    }

    func testJournalNamesAndDuplicatesAreRefused() throws {
        try box.ok(["journal", "add", "work", work.path])
        let again = try box.run(["journal", "add", "work", "/elsewhere"])
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("already registered"), again.stderr)
        XCTAssertEqual(try box.run(["journal", "add", "my.work", work.path]).status, 64)
        XCTAssertEqual(try box.run(["journal", "default", "home"]).status, 64)
        XCTAssertEqual(try box.run(["journal", "remove", "home"]).status, 64)
    }

    /// `sync join -j NAME` registers the vault it builds, at --to, and -j then reaches it.
    func testSyncJoinRegistersTheVaultItMakes() throws {
        let net = try SyncMachines(.git)
        try net.first(entries: ["From the first machine"])
        let code = try net.invite(from: 0)
        let pass = try box.passphraseFile(net.passphrase)
        let joined = try box.ok(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", work.path, "-j", "shared"],
            env: ["DIARY_PASSPHRASE_FILE": pass])
        XCTAssertTrue(joined.stderr.contains("registered it as the journal 'shared'"), joined.stderr)
        XCTAssertEqual(try box.ok(["journal", "list"]).stdout, "  shared  \(work.path)\n")
        XCTAssertTrue(
            try box.ok(["-j", "shared", "list"], env: ["DIARY_PASSPHRASE_FILE": pass]).stdout.contains(
                "From the first machine"))
    }
}
