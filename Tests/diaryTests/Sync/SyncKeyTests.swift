import Foundation
import XCTest

/// `diary passwd` and `diary rekey` on one machine reach the others at their next sync.
final class SyncKeyTests: XCTestCase {
    func testPasswdOnOneMachineReachesTheOther() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let net = try SyncMachines(kind)
            let a = try net.first(entries: ["one"])
            let b = try net.join(store: "files")
            let newPass = try a.passphraseFile("violet anchor meadow drift")
            try a.ok(["passwd", "--new-passphrase-file", newPass])
            a.environment["DIARY_PASSPHRASE_FILE"] = newPass
            try net.sync(0)
            let followed = try net.sync(1)
            XCTAssertTrue(followed.stderr.contains("passphrase was changed on 'machine-0'"), followed.stderr)
            // On B the old passphrase stops working and the new one opens.
            XCTAssertEqual(try b.run(["list"]).status, 77)
            let bNew = try b.passphraseFile("violet anchor meadow drift")
            XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
        }
    }

    func testConcurrentPasswdEndsWithOnePassphraseAndSaysSo() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        let passA = try a.passphraseFile("amber canyon whistle oak")
        let passB = try b.passphraseFile("cobalt river sparrow mint")
        try a.ok(["passwd", "--new-passphrase-file", passA])
        try b.ok(["passwd", "--new-passphrase-file", passB])
        a.environment["DIARY_PASSPHRASE_FILE"] = passA
        b.environment["DIARY_PASSPHRASE_FILE"] = passB
        try net.sync(0)
        // B saw A's change when it published its own: B's is the later one, on every machine.
        let second = try net.sync(1)
        XCTAssertFalse(second.stderr.contains("passphrase was changed"), second.stderr)
        let third = try net.sync(0)
        XCTAssertTrue(third.stderr.contains("passphrase was changed on 'machine-1'"), third.stderr)
        for machine in [a, b] {
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passB]).status, 0)
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passA]).status, 77)
        }
    }

    func testRekeyReachesTheOtherMachinesWhichKeepWorking() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["before the rotation"])
        let b = try net.join()
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("after the rotation".utf8))
        try net.sync(0)
        // B follows with the passphrase (from its file here; a prompt on a terminal).
        let followed = try net.sync(1)
        XCTAssertTrue(followed.stderr.contains("vault key was rotated on 'machine-0'"), followed.stderr)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        try b.ok(["new"], stdin: Data("from B under the new key".utf8))
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 3)
        // A machine joining now reads records sealed under both keys.
        _ = try net.join()
        XCTAssertEqual(try net.snapshot(2), try net.snapshot(0))
        // B's vault now has the new key: it is rotated, not merely readable.
        let verify = try b.ok(["verify"])
        XCTAssertEqual(verify.status, 0)
    }

    func testFollowingARekeyWithoutAPassphraseSaysWhatIsNeeded() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["x"])
        let b = try net.join()
        try a.ok(["rekey"])
        try net.sync(0)
        // An agent-held key and no passphrase file: nothing can be asked.
        try b.ok(["unlock"])
        let stuck = try b.run(["sync"], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(stuck.status, 75, stuck.stderr)
        XCTAssertTrue(stuck.stderr.contains("rotated on 'machine-0'"), stuck.stderr)
        try b.ok(["sync"])
        XCTAssertEqual(try b.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": ""]).status, 0)
    }
}

/// Key changes that stack up while a machine is away, or before a machine joins.
final class SyncKeyHistoryTests: XCTestCase {
    func testAMachineAwayDuringARekeyAndAPasswdNeedsTheNewPassphrase() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["before"])
        let b = try net.join()
        try a.ok(["rekey"])
        try net.sync(0)
        let newPass = try a.passphraseFile("violet anchor meadow drift")
        try a.ok(["passwd", "--new-passphrase-file", newPass])
        a.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try a.ok(["new"], stdin: Data("after both".utf8))
        try net.sync(0)
        // The passwd removed the headers it replaced: the old passphrase opens nothing on the
        // remote any more, and B is told where the passphrase changed.
        let keys = try FileManager.default.contentsOfDirectory(
            atPath: net.folder(1).appendingPathComponent("keys").path)
        XCTAssertEqual(keys.count, 2, "one header per store kind, of the newest key change: \(keys)")
        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changed on 'machine-0'"), refused.stderr)
        try b.ok(["unlock"])
        let bNew = try b.passphraseFile("violet anchor meadow drift")
        let caughtUp = try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": bNew])
        XCTAssertTrue(caughtUp.stderr.contains("vault key was rotated"), caughtUp.stderr)
        try b.ok(["lock"])
        XCTAssertEqual(try net.snapshot(1, env: ["DIARY_PASSPHRASE_FILE": bNew]), try net.snapshot(0))
        XCTAssertEqual(try b.run(["list"]).status, 77)
    }

    func testARekeyAndPasswdPublishedTogetherNeedTheNewPassphraseElsewhere() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["before"])
        let b = try net.join()
        try a.ok(["rekey"])
        let newPass = try a.passphraseFile("violet anchor meadow drift")
        try a.ok(["passwd", "--new-passphrase-file", newPass])
        a.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try net.sync(0)
        // Only the new passphrase opens the new key: the old one is refused, naming the machine.
        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changed on 'machine-0'"), refused.stderr)
        // Unlocked with the old passphrase, the sync takes the new one to follow.
        try b.ok(["unlock"])
        let bNew = try b.passphraseFile("violet anchor meadow drift")
        try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": bNew])
        try b.ok(["lock"])
        XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
        XCTAssertEqual(try b.run(["list"]).status, 77)
    }

    func testAMachineJoiningAfterARekeyAndAPasswdReadsEverything() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["before"])
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("between".utf8))
        let newPass = try a.passphraseFile("violet anchor meadow drift")
        try a.ok(["passwd", "--new-passphrase-file", newPass])
        a.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try a.ok(["new"], stdin: Data("after both".utf8))
        try net.sync(0)
        let c = try DiarySandbox(name: "late")
        let file = try c.passphraseFile("violet anchor meadow drift")
        c.environment["DIARY_PASSPHRASE_FILE"] = file
        try c.ok(["sync", "join", net.remoteRepository.path, "--to", c.vault.path, "--name", "late"])
        let texts = try c.ok(["show", "-n", "10", "--raw", "--no-pager"]).stdout
        for text in ["before", "between", "after both"] { XCTAssertTrue(texts.contains(text), texts) }
        // The old passphrase does not join.
        let d = try DiarySandbox(name: "old")
        let old = try d.passphraseFile(net.passphrase)
        let refused = try d.run(
            ["sync", "join", net.remoteRepository.path, "--to", d.vault.path], env: ["DIARY_PASSPHRASE_FILE": old])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue([65, 77].contains(refused.status), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.vault.path), "a failed join leaves nothing")
    }

    func testASyncthingShareWithItsOwnFilesCanBeTheRemote() throws {
        let net = try SyncMachines(.folder)
        try FileManager.default.createDirectory(at: net.folder(0), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: net.folder(0).appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        try Data("// ignore\n".utf8).write(to: net.folder(0).appendingPathComponent(".stignore"))
        try net.first(entries: ["one"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: net.folder(0).appendingPathComponent("diary-sync").path))
    }
}

/// Two machines rotating the key before seeing each other's rotation.
final class SyncConcurrentRotationTests: XCTestCase {
    func testConcurrentRekeysAreRefusedWithoutHarmAndARekeySettlesThem() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["shared"])
        let b = try net.join()
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("A under its key".utf8))
        try b.ok(["rekey"])
        try b.ok(["new"], stdin: Data("B under its key".utf8))
        try net.sync(0)
        try net.sync(1)
        // B's rotation is the later one: A is told, and its vault still opens.
        let clash = try a.run(["sync"])
        XCTAssertEqual(clash.status, 1, clash.stderr)
        XCTAssertTrue(clash.stderr.contains("at the same time"), clash.stderr)
        XCTAssertEqual(try a.ok(["list"]).stdout.contains("A under its key"), true)
        try a.ok(["rekey"])
        try net.sync(0)
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        let texts = try net.snapshot(0).joined()
        XCTAssertTrue(texts.contains("A under its key") && texts.contains("B under its key"), texts)
    }
}
