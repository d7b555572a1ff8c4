import Foundation
import XCTest

/// Setting up sync: bad input gets a clear error and changes nothing.
final class SyncSetupCLITests: XCTestCase {
    func testSyncBeforeInitSaysHowToStart() throws {
        let box = try DiarySandbox()
        try box.initVault()
        let result = try box.run(["sync"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("does not sync on this machine"), result.stderr)
        XCTAssertTrue(result.stderr.contains("diary sync init"), result.stderr)
        XCTAssertEqual(try box.run(["conflicts"]).status, 1)
    }

    func testInitNeedsExactlyOneRemoteAndRefusesASecondTime() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["one"])
        XCTAssertEqual(try a.run(["sync", "init"]).status, 64)
        XCTAssertEqual(try a.run(["sync", "init", "/x.git", "--folder", "/y"]).status, 64)
        let again = try a.run(["sync", "init", "--folder", net.folder(5).path])
        XCTAssertEqual(again.status, 73, again.stderr)
        XCTAssertTrue(again.stderr.contains("already syncs"), again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: net.folder(5).path))
    }

    func testAFolderWithOtherFilesOrAnotherVaultIsRefused() throws {
        let box = try DiarySandbox()
        try box.initVault()
        let busy = box.root.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: busy.appendingPathComponent("notes.txt"))
        let mixed = try box.run(["sync", "init", "--folder", busy.path])
        XCTAssertEqual(mixed.status, 1, mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("not empty"), mixed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: busy.path), ["notes.txt"])
        XCTAssertEqual(try box.run(["sync"]).status, 1, "nothing was set up")

        let other = try SyncMachines(.folder, name: "other")
        try other.first(entries: ["someone else's"])
        let foreign = try box.run(["sync", "init", "--folder", other.folder(0).path])
        XCTAssertEqual(foreign.status, 65, foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("another vault"), foreign.stderr)
    }

    func testAGitRemoteOfAnotherVaultLeavesNothingBehindForTheNextTry() throws {
        let other = try SyncMachines(.git, name: "other")
        try other.first(entries: ["someone else's"])
        let box = try DiarySandbox()
        try box.initVault()
        let foreign = try box.run(["sync", "init", other.remoteRepository.path])
        XCTAssertEqual(foreign.status, 65, foreign.stderr)
        XCTAssertTrue(foreign.stderr.contains("another vault"), foreign.stderr)
        let state = box.root.appendingPathComponent("home/.local/state/diary/sync")
        let left = FileManager.default.enumerator(atPath: state.path)?.allObjects as? [String] ?? []
        XCTAssertFalse(left.contains { $0.hasSuffix("/git") || $0.hasSuffix("config") }, "\(left)")
        // A right remote afterwards is not confused with the clone of the wrong one.
        let mine = box.root.appendingPathComponent("mine.git")
        _ = try SyncMachines.git(["init", "--quiet", "--bare", mine.path])
        try box.ok(["sync", "init", mine.path])
        try box.ok(["sync"])
    }

    func testInitOnARemoteHoldingThisVaultUnderAnOlderKeyUsesThePassphraseGiven() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        try net.join()
        try a.ok(["sync", "stop", "--yes"])
        try a.ok(["rekey"])
        // Back on a remote that holds this vault: an invite from a member is needed, and then
        // the passphrase given opens the remote's (older) key.
        let bare = try a.run(["sync", "init", net.remoteRepository.path])
        XCTAssertEqual(bare.status, 64, bare.stderr)
        XCTAssertTrue(bare.stderr.contains("diary sync invite"), bare.stderr)
        let code = try net.invite(from: 1, name: "machine-0 again")
        let again = try a.run(["sync", "init", net.remoteRepository.path, "--invite", code])
        XCTAssertEqual(again.status, 0, again.stderr)
        try a.ok(["new"], stdin: Data("two".utf8))
        try net.sync(1)
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0).count, 2)
        XCTAssertEqual(try net.snapshot(1), try net.snapshot(0))
        // A machine joining now reads every key's records.
        try net.join(inviter: 1)
        XCTAssertEqual(try net.snapshot(2), try net.snapshot(0))
    }

    func testAGitKilledDuringASyncLeavesNoLockThatStopsTheNext() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let clone = try XCTUnwrap(
            (FileManager.default.enumerator(
                at: a.root.appendingPathComponent("home/.local/state/diary/sync"), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.first { $0.lastPathComponent == "git" }))
        // What a git killed mid-fetch or mid-merge leaves.
        for lock in [".git/index.lock", ".git/HEAD.lock", ".git/refs/remotes/origin/main.lock"] {
            let url = clone.appendingPathComponent(lock)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data().write(to: url)
        }
        try a.ok(["new"], stdin: Data("two".utf8))
        try net.sync(0)
        try net.join()
        XCTAssertEqual(try net.snapshot(1).count, 2)
    }

    func testAGitMergeKilledMidWayLeavesNoFilesThatStopTheNext() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        try b.ok(["new"], stdin: Data("from B".utf8))
        try net.sync(1)
        // What a merge killed after writing the fetched files leaves: B's record in A's
        // clone, not committed, and a merge in progress.
        let clone = try net.syncStateItem(0, named: "git")
        try SyncMachines.git(["-C", clone.path, "fetch", "--quiet", "origin"])
        let head = try SyncMachines.git(["-C", clone.path, "rev-parse", "origin/main"])
        let archive = net.scratch.appendingPathComponent("fetched.tar")
        try SyncMachines.git(["-C", clone.path, "archive", "-o", archive.path, "origin/main"])
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tar.arguments = ["tar", "-xf", archive.path, "-C", clone.path]
        try tar.run()
        tar.waitUntilExit()
        try Data((head + "\n").utf8).write(to: clone.appendingPathComponent(".git/MERGE_HEAD"))
        try a.ok(["new"], stdin: Data("from A".utf8))
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 3)
    }

    func testJoinRefusesATargetThatIsNotEmptyAndAWrongPassphraseLeavesNothing() throws {
        let net = try SyncMachines(.git)
        try net.first(entries: ["one"])
        let code = try net.invite(from: 0)
        let box = try DiarySandbox(name: "j")
        let pass = try box.passphraseFile(net.passphrase)
        try FileManager.default.createDirectory(at: box.vault, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: box.vault.appendingPathComponent("keep"))
        let full = try box.run(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", box.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": pass])
        XCTAssertEqual(full.status, 73, full.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: box.vault.path), ["keep"])

        let target = box.root.appendingPathComponent("fresh")
        let wrong = try box.passphraseFile("not the right one at all")
        let refused = try box.run(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", target.path],
            env: ["DIARY_PASSPHRASE_FILE": wrong])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        let stateRoot = box.root.appendingPathComponent("home/.local/state/diary/sync")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: stateRoot.path)) ?? []
        XCTAssertEqual(left, [], "a failed join leaves no sync state")
        // The invite was not used up by the failures: the right passphrase joins with it.
        try box.ok(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", target.path],
            env: ["DIARY_PASSPHRASE_FILE": pass])
    }

    func testHelpExplainsTheSyncCommands() throws {
        let box = try DiarySandbox()
        let flat = { (text: String) in text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let help = flat(try box.ok(["sync", "--help"]).stdout)
        for words in ["sync init", "sync join", "sync invite", "--invite", "sync members", "status 65"] {
            XCTAssertTrue(help.contains(words), "\(words) missing from: \(help)")
        }
        for command in ["init", "join"] {
            XCTAssertTrue(try box.ok(["sync", command, "--help"]).stdout.contains("--folder"), command)
        }
        XCTAssertTrue(try box.ok(["resolve", "--help"]).stdout.contains("--keep"))
    }
}

/// `diary sync stop`, and moving to a new remote.
final class SyncStopCLITests: XCTestCase {
    func testStopForgetsTheRemoteAndANewRemoteCarriesTheSameDiary() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        XCTAssertEqual(try a.run(["sync", "stop"]).status, 64, "no terminal and no --yes")
        try a.ok(["sync"])
        let stopped = try a.ok(["sync", "stop", "--yes"])
        XCTAssertTrue(stopped.stderr.contains("no longer syncs"), stopped.stderr)
        XCTAssertEqual(try a.run(["sync"]).status, 1)
        XCTAssertEqual(try a.ok(["list"]).stdout.contains("one"), true)
        XCTAssertEqual(try a.run(["sync", "stop", "--yes"]).status, 1)

        // Both machines move to a new folder; the entries they share are not doubled.
        let fresh = net.scratch.appendingPathComponent("fresh")
        try a.ok(["new"], stdin: Data("two".utf8))
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        try a.ok(["sync", "init", "--folder", fresh.path])
        try b.ok(["sync", "stop", "--yes"])
        // The new folder holds this vault now: B comes in with an invite from A, is admitted
        // at A's next sync, and publishes its entries at its own.
        let plain = try b.run(["sync", "init", "--folder", fresh.path])
        XCTAssertEqual(plain.status, 64, plain.stderr)
        let code = try a.ok(["sync", "invite"]).out
        try b.ok(["sync", "init", "--folder", fresh.path, "--invite", code])
        try a.ok(["sync"])
        try b.ok(["sync"])
        try a.ok(["sync"])
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 2)
        XCTAssertTrue(try net.conflicts(0).isEmpty)
    }
}
