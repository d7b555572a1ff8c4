import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// Passphrase changes that sync hears of late, or that cross a key rotation.
final class SyncPassphraseRaceTests: XCTestCase {
    let newPassphrase = "violet anchor meadow drift"

    func testAPasswdCutShortBeforeSyncHeardOfItIsPublishedAtTheNextSync() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        // What `diary passwd` killed after writing the header leaves: a new header, and a
        // sync state that knows nothing of it (the library call does not tell sync).
        try Vault.changePassphrase(at: a.vault, current: secretBytes(net.passphrase), new: secretBytes(newPassphrase))
        let aNew = try a.passphraseFile(newPassphrase)
        a.environment["DIARY_PASSPHRASE_FILE"] = aNew
        let published = try net.sync(0)
        XCTAssertTrue(published.stderr.contains("publishing it now"), published.stderr)
        // B, with only the old passphrase, is told; given the new one, it takes it.
        let noted = try net.sync(1)
        XCTAssertTrue(noted.stderr.contains("passphrase was changed on 'machine-0'"), noted.stderr)
        let bNew = try b.passphraseFile(newPassphrase)
        try b.ok(["unlock"])
        let followed = try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": bNew])
        XCTAssertTrue(
            followed.stderr.contains("from now on this vault opens with the passphrase set there"), followed.stderr)
        try b.ok(["lock"])
        XCTAssertEqual(try b.run(["list"]).status, 77, "the old passphrase stopped working")
        XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 0)
        // A machine joining now opens with the new passphrase.
        let c = try DiarySandbox(name: "m2")
        let joined = try c.run(
            [
                "sync", "join", net.remoteRepository.path, "--invite", try net.invite(from: 0), "--to", c.vault.path,
                "--name", "machine-2",
            ],
            env: ["DIARY_PASSPHRASE_FILE": try c.passphraseFile(newPassphrase)])
        XCTAssertEqual(joined.status, 0, joined.stderr)
        // Published once: the next sync says nothing of it.
        XCTAssertFalse(try net.sync(0).stderr.contains("publishing"))
    }

    func testASecondPasswdCutShortWhileTheFirstWaitsIsPublishedInstead() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        // A passphrase-only change waits for the next sync; a second one, cut short, is
        // published in its place.
        try a.ok(["passwd", "--no-rekey", "--new-passphrase-file", try a.passphraseFile(newPassphrase)])
        let third = "copper lantern river seven"
        try Vault.changePassphrase(at: a.vault, current: secretBytes(newPassphrase), new: secretBytes(third))
        a.environment["DIARY_PASSPHRASE_FILE"] = try a.passphraseFile(third)
        let published = try net.sync(0)
        XCTAssertTrue(published.stderr.contains("publishing it now"), published.stderr)
        try b.ok(["unlock"])
        try b.ok(["sync"], env: ["DIARY_PASSPHRASE_FILE": try b.passphraseFile(third)])
        try b.ok(["lock"])
        XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": try b.passphraseFile(third)]).status, 0)
        XCTAssertEqual(
            try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": try b.passphraseFile(newPassphrase)]).status, 77)
    }

    func testASyncCutShortAfterTakingInAPasswdDoesNotPublishItAgain() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join(store: "files")
        try net.join(store: "files")
        try a.ok(["passwd", "--no-rekey", "--new-passphrase-file", try a.passphraseFile(newPassphrase)])
        a.environment["DIARY_PASSPHRASE_FILE"] = try a.passphraseFile(newPassphrase)
        try net.sync(0)
        // B's sync adopted A's header and was cut short before saving what it read.
        try SyncMachines.git([
            "-C", try net.syncStateItem(1, named: "git").path, "pull", "--quiet", "--no-rebase", "origin", "main",
        ])
        let vault = try Vault.open(at: b.vault, passphrase: secretBytes(net.passphrase))
        try vault.adoptHeader(try net.publishedHeader(store: "files"))
        b.environment["DIARY_PASSPHRASE_FILE"] = try b.passphraseFile(newPassphrase)
        let again = try net.sync(1)
        XCTAssertFalse(again.stderr.contains("publishing"), again.stderr)
        let third = try net.sync(2)
        XCTAssertTrue(third.stderr.contains("passphrase was changed on 'machine-0'"), third.stderr)
        XCTAssertEqual(try net.snapshot(1), try net.snapshot(0))
    }

    /// A passphrase-only change that reached the remote, then a rotation made elsewhere by a
    /// machine that had not fetched it yet: publishing it would bring the old passphrase back,
    /// so sync refuses and says to set the new one; done, every machine opens with it. (Once
    /// the machine has fetched the change, `rekey` itself refuses: SyncRecoveryKeyTests.)
    func testARotationMadeUnderAReplacedPassphraseIsHeldUntilThePassphraseIsSet() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        let bNew = try b.passphraseFile(newPassphrase)
        try b.ok(["passwd", "--no-rekey", "--new-passphrase-file", bNew])
        b.environment["DIARY_PASSPHRASE_FILE"] = bNew
        try net.sync(1)
        try a.ok(["rekey"])
        let held = try a.run(["sync"])
        XCTAssertEqual(held.status, 1, held.stderr)
        XCTAssertTrue(
            held.stderr.contains(
                "the passphrase in force changed after this machine's key rotation (the current key, from 'machine-1',"),
            held.stderr)
        XCTAssertTrue(held.stderr.contains("run `diary passwd` here"), held.stderr)
        let aNew = try a.passphraseFile(newPassphrase)
        try a.ok(["passwd", "--new-passphrase-file", aNew])
        a.environment["DIARY_PASSPHRASE_FILE"] = aNew
        try net.sync(0)
        let followed = try net.sync(1)
        XCTAssertTrue(followed.stderr.contains("vault key was rotated on 'machine-0'"), followed.stderr)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        for machine in [a, b] {
            let old = try machine.passphraseFile(net.passphrase)
            XCTAssertEqual(try machine.run(["list"], env: ["DIARY_PASSPHRASE_FILE": old]).status, 77)
            XCTAssertEqual(try machine.run(["list"]).status, 0)
        }
    }

    /// A passphrase-only change not yet published when a rotation made elsewhere arrives: it
    /// cannot stand (it wraps the replaced key). On a terminal the machine asks for its own
    /// passphrase, then the one set where the key was rotated, and says what was lost.
    func testAPasswdCrossingARekeyLosesAndTheMachineCatchesUpWithThePassphraseSetThere() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let b = try net.join()
        try a.ok(["rekey"])
        let bNew = try b.passphraseFile(newPassphrase)
        try b.ok(["passwd", "--no-rekey", "--new-passphrase-file", bNew])
        b.environment["DIARY_PASSPHRASE_FILE"] = bNew
        try net.sync(0)

        // B's own passphrase opens B's vault but not A's rotated key: told what happened.
        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 77, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("it was changed on 'machine-0'"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("on a terminal"), refused.stderr)

        // On a terminal: B's passphrase for B's vault, then a wrong answer, then A's.
        let shown = try b.runOnTerminal(
            ["sync"],
            answers: [
                ("Passphrase for", newPassphrase), ("Passphrase set on 'machine-0'", newPassphrase),
                ("Passphrase set on 'machine-0'", net.passphrase),
            ],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(shown.status, 0, shown.shown)
        XCTAssertTrue(shown.shown.contains("does not open the header published on 'machine-0'"), shown.shown)
        XCTAssertTrue(shown.shown.contains("lost to the key rotation on 'machine-0'"), shown.shown)
        b.environment["DIARY_PASSPHRASE_FILE"] = try b.passphraseFile(net.passphrase)
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try b.run(["list"], env: ["DIARY_PASSPHRASE_FILE": bNew]).status, 77)
    }
}
