import Foundation
import XCTest

/// `diary passwd` and `diary rekey` on one machine reach the others at their next sync.
final class SyncKeyTests: XCTestCase {
    /// `passwd` on a synced vault rotates the key too: another machine follows with the new
    /// passphrase (its own vault still opens with the old one until then) and is told where.
    func testPasswdOnOneMachineRotatesTheKeyAndReachesTheOther() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let net = try SyncMachines(kind)
            let a = try net.first(entries: ["one"])
            let b = try net.join(store: "files")
            let newPass = try a.passphraseFile("violet anchor meadow drift")
            let changed = try a.ok(["passwd", "--new-passphrase-file", newPass])
            XCTAssertTrue(changed.stderr.contains("the vault key was rotated too"), changed.stderr)
            a.environment["DIARY_PASSPHRASE_FILE"] = newPass
            try net.sync(0)
            // The old passphrase opens B's vault but not the new key: told where it changed.
            let refused = try b.run(["sync"])
            XCTAssertEqual(refused.status, 77, "\(kind): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("it was changed on 'machine-0'"), refused.stderr)
            try b.ok(["unlock"])
            let bNew = try b.passphraseFile("violet anchor meadow drift")
            let followed = try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": bNew])
            XCTAssertTrue(followed.stderr.contains("vault key was rotated on 'machine-0'"), followed.stderr)
            try b.ok(["lock"])
            // On B the old passphrase stops working and the new one opens.
            XCTAssertEqual(try b.run(["list"]).status, 77)
            XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
        }
    }

    /// `passwd --no-rekey` keeps the key: a machine without the new passphrase keeps syncing
    /// and is told; given the new passphrase, `diary sync` adopts it.
    func testPasswdWithoutRekeyIsAdoptedOnlyWithTheNewPassphrase() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join(store: "files")
        let newPass = try a.passphraseFile("violet anchor meadow drift")
        let changed = try a.ok(["passwd", "--no-rekey", "--new-passphrase-file", newPass])
        XCTAssertFalse(changed.stderr.contains("rotated"), changed.stderr)
        a.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try a.ok(["new"], stdin: Data("after the change".utf8))
        try net.sync(0)
        let noted = try net.sync(1)
        XCTAssertTrue(
            noted.stderr.contains(
                "the passphrase was changed on 'machine-0': this vault opens with its old passphrase"),
            noted.stderr)
        XCTAssertEqual(try net.snapshot(1), try net.snapshot(0), "the key is the same: records still arrive")
        XCTAssertEqual(try b.run(["list"]).status, 0, "the old passphrase still opens B")
        try b.ok(["unlock"])
        let bNew = try b.passphraseFile("violet anchor meadow drift")
        let adopted = try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": bNew])
        XCTAssertTrue(
            adopted.stderr.contains("the passphrase was changed on 'machine-0': from now on this vault opens"),
            adopted.stderr)
        try b.ok(["lock"])
        XCTAssertEqual(try b.run(["list"]).status, 77)
        XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
    }

    /// Two `passwd` (each rotating) before either machine saw the other's: the one that syncs
    /// second is told and changes nothing; `rekey` there, then syncs, end with one key and its
    /// passphrase on every machine.
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
        // B's passphrase does not open A's key; given A's, B sees that both changed the key.
        let missing = try b.run(["sync"])
        XCTAssertEqual(missing.status, 77, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("changed on 'machine-0'"), missing.stderr)
        try b.ok(["unlock"])
        let passAOnB = try b.passphraseFile("amber canyon whistle oak")
        let told = try b.run(["sync"], env: ["DIARY_PASSPHRASE_FILE": passAOnB])
        XCTAssertEqual(told.status, 1, told.stderr)
        XCTAssertTrue(told.stderr.contains("rotated on 'machine-0' and on this machine at the same time"), told.stderr)
        try b.ok(["lock"])
        XCTAssertEqual(try b.run(["list"]).status, 0, "nothing changed on B: its own passphrase opens it")

        // B rotates again on top of A's change: B's passphrase is the one left everywhere.
        try b.ok(["rekey"])
        try b.ok(["unlock"])
        try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": passAOnB])
        try b.ok(["lock"])
        let refused = try a.run(["sync"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changed on 'machine-1'"), refused.stderr)
        try a.ok(["unlock"])
        let passBOnA = try a.passphraseFile("cobalt river sparrow mint")
        let followed = try a.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": passBOnA])
        XCTAssertTrue(followed.stderr.contains("rotated on 'machine-1'"), followed.stderr)
        try a.ok(["lock"])
        for (machine, passB, passA) in [(a, passBOnA, passA), (b, passB, passAOnB)] {
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passB]).status, 0)
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": passA]).status, 77)
        }
        XCTAssertEqual(
            try net.snapshot(0, env: ["DIARY_PASSPHRASE_FILE": passBOnA]),
            try net.snapshot(1, env: ["DIARY_PASSPHRASE_FILE": passB]))
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
        // B is told where the passphrase changed (passwd rotated the key a second time).
        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("changed on 'machine-0'"), refused.stderr)
        try b.ok(["unlock"])
        let bNew = try b.passphraseFile("violet anchor meadow drift")
        let caughtUp = try net.sync(1, env: ["DIARY_PASSPHRASE_FILE": bNew])
        XCTAssertTrue(caughtUp.stderr.contains("vault key was rotated"), caughtUp.stderr)
        try b.ok(["lock"])
        XCTAssertEqual(try net.snapshot(1, env: ["DIARY_PASSPHRASE_FILE": bNew]), try net.snapshot(0))
        XCTAssertEqual(try b.run(["list"]).status, 77)
        // Once followed, the headers the key changes replaced are gone from the folder: the old
        // passphrase opens nothing there any more.
        try net.sync(0)
        let keys = try FileManager.default.contentsOfDirectory(
            atPath: net.folder(1).appendingPathComponent("keys").path)
        XCTAssertEqual(keys.count, 2, "one header per store kind, of the newest key change: \(keys)")
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
        let code = try net.invite(from: 0, name: "late")
        try c.ok(["sync", "join", net.remoteRepository.path, "--invite", code, "--to", c.vault.path, "--name", "late"])
        let texts = try c.ok(["show", "-n", "10", "--raw", "--no-pager"]).stdout
        for text in ["before", "between", "after both"] { XCTAssertTrue(texts.contains(text), texts) }
        // The old passphrase does not join.
        let d = try DiarySandbox(name: "old")
        let old = try d.passphraseFile(net.passphrase)
        let refused = try d.run(
            ["sync", "join", net.remoteRepository.path, "--invite", try net.invite(from: 0), "--to", d.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": old])
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
    /// The second to sync sees the other's rotation before stating its own: it is told, and
    /// changes nothing; `rekey` there states a newer key on top of the other's.
    func testARotationThatMeetsAnotherAtSyncIsToldAndARekeySettlesIt() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["shared"])
        let b = try net.join()
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("A under its key".utf8))
        try b.ok(["rekey"])
        try b.ok(["new"], stdin: Data("B under its key".utf8))
        try net.sync(0)
        let clash = try b.run(["sync"])
        XCTAssertEqual(clash.status, 1, clash.stderr)
        XCTAssertTrue(
            clash.stderr.contains("rotated on 'machine-0' and on this machine at the same time"), clash.stderr)
        XCTAssertTrue(clash.stderr.contains("diary rekey"), clash.stderr)
        XCTAssertEqual(try b.ok(["list"]).stdout.contains("B under its key"), true)
        try b.ok(["rekey"])
        try net.sync(1)
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        let texts = try net.snapshot(0).joined()
        XCTAssertTrue(texts.contains("A under its key") && texts.contains("B under its key"), texts)
    }

    /// A synced folder delivers both rotations: a fork. Every machine stops (65) naming both,
    /// local commands keep working, and `rekey` on one of them, then syncs, settles it.
    func testRotationsThatBothReachAFolderAreAForkThatARekeySettles() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["shared"])
        let b = try net.join()
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("A under its key".utf8))
        try b.ok(["rekey"])
        try b.ok(["new"], stdin: Data("B under its key".utf8))
        // Each publishes into its own copy before the sync tool carries anything.
        try a.ok(["sync"])
        try b.ok(["sync"])
        try net.spread(from: 0)
        try net.spread(from: 1)
        for (n, machine) in [a, b].enumerated() {
            let fork = try machine.run(["sync"])
            XCTAssertEqual(fork.status, 65, "machine \(n): \(fork.stderr)")
            XCTAssertTrue(
                fork.stderr.contains("changed at the same time on 'machine-0' and 'machine-1'")
                    || fork.stderr.contains("changed at the same time on 'machine-1' and 'machine-0'"),
                fork.stderr)
            XCTAssertTrue(fork.stderr.contains("diary rekey"), fork.stderr)
            XCTAssertEqual(try machine.ok(["list"]).stdout.contains(n == 0 ? "A under" : "B under"), true)
        }
        try a.ok(["rekey"])
        try net.sync(0)
        let settled = try net.sync(1)
        XCTAssertTrue(settled.stderr.contains("were settled"), settled.stderr)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        let texts = try net.snapshot(0).joined()
        XCTAssertTrue(texts.contains("A under its key") && texts.contains("B under its key"), texts)
        // A machine joining after the fork reads both branches' records.
        try net.join()
        XCTAssertEqual(try net.snapshot(2), try net.snapshot(0))
    }
}
