import DiaryCrypto
import DiarySync
import DiaryVault
import Foundation
import XCTest

/// A key rotation cut short on a synced machine, whether its own `diary rekey` or a sync
/// following another machine's: sync refuses until `diary rekey` finishes it, and then every
/// machine keeps working under one key.
///
/// The interruption is made in this process with the real rotation code: its `beforeRetiring`
/// step throws, which leaves the vault exactly as a kill at that point would (the header holds
/// both keys; every entry is under the new one).
final class SyncInterruptedRotationTests: XCTestCase {
    struct Interrupted: Error {}

    enum Point {
        case beforeSyncWasTold, afterSyncWasTold
        /// Every state file resealed under the new key except `state` itself (written last).
        case whileSyncResealed
    }

    func testARekeyInterruptedOnASyncedMachineIsFinishedByRekeyAndReachesTheOthers() throws {
        for point in [Point.beforeSyncWasTold, .afterSyncWasTold, .whileSyncResealed] {
            let net = try SyncMachines(.git)
            let a = try net.first(entries: ["written before the rotation"])
            try net.join()
            try net.sync(0)
            try interruptRekey(machine: 0, in: net, passphrase: net.passphrase, at: point)
            XCTAssertEqual(try Vault.inspect(at: a.vault).keyGenerations, [1, 2], "\(point)")

            // Sync refuses: there is no single key to seal under, nor a header to publish.
            let refused = try a.run(["sync"])
            XCTAssertEqual(refused.status, 1, "\(point): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("a key rotation was interrupted"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("diary rekey"), refused.stderr)

            let finished = try a.ok(["rekey"])
            XCTAssertTrue(finished.stderr.contains("finishing an interrupted key rotation"), finished.stderr)
            XCTAssertEqual(try Vault.inspect(at: a.vault).keyGenerations, [2], "\(point)")
            try a.ok(["new"], stdin: Data("written after the rotation".utf8))
            try net.sync(0)
            let followed = try net.sync(1)
            XCTAssertTrue(
                followed.stderr.contains("vault key was rotated on 'machine-0'"), "\(point): \(followed.stderr)")
            XCTAssertEqual(try net.snapshot(0), try net.snapshot(1), "\(point)")
            XCTAssertEqual(try net.snapshot(1).count, 2, "\(point)")
            try net[1].ok(["new"], stdin: Data("written on B under the new key".utf8))
            try net.sync(1)
            try net.sync(0)
            XCTAssertEqual(try net.snapshot(0), try net.snapshot(1), "\(point)")
            XCTAssertEqual(try net.snapshot(0).count, 3, "\(point)")
        }
    }

    func testASyncInterruptedWhileFollowingARekeyIsFinishedByRekey() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["written before the rotation"])
        let b = try net.join(store: "files")
        try net.join(store: "sqlite")
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("written after the rotation".utf8))
        try net.sync(0)

        // B's sync fetched A's records and adopted A's key, and was cut short before the old
        // key went.
        try SyncMachines.git([
            "-C", try net.syncStateItem(1, named: "git").path, "pull", "--quiet", "--no-rebase", "origin", "main",
        ])
        let vault = try Vault.open(at: b.vault, passphrase: secretBytes(net.passphrase))
        let published = try net.publishedHeader(store: "files")
        XCTAssertThrowsError(
            try vault.rotateKey(
                adopting: published, passphrase: secretBytes(net.passphrase),
                beforeRetiring: { _ in throw Interrupted() }))
        XCTAssertEqual(try Vault.inspect(at: b.vault).keyGenerations, [1, 2])

        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a key rotation was interrupted"), refused.stderr)
        // Meanwhile A changes the passphrase only (--no-rekey: the key stays A's); then B
        // finishes with `rekey`.
        let newPass = try a.passphraseFile("violet anchor meadow drift")
        try a.ok(["passwd", "--no-rekey", "--new-passphrase-file", newPass])
        a.environment["DIARY_PASSPHRASE_FILE"] = newPass
        try net.sync(0)
        try b.ok(["rekey"])

        // The key B finished with is A's: B publishes no key change of its own, so A's
        // passphrase stays, and nobody is told of a change on B. Given the new passphrase, B
        // takes it.
        let followed = try net.sync(1)
        XCTAssertFalse(followed.stderr.contains("published the new passphrase or key"), followed.stderr)
        XCTAssertTrue(followed.stderr.contains("passphrase was changed on 'machine-0'"), followed.stderr)
        try b.ok(["unlock"])
        let adopted = try net.sync(
            1, env: ["DIARY_PASSPHRASE_FILE": try b.passphraseFile("violet anchor meadow drift")])
        try b.ok(["lock"])
        XCTAssertTrue(
            adopted.stderr.contains("from now on this vault opens with the passphrase set there"), adopted.stderr)
        let quiet = try net.sync(0)
        XCTAssertFalse(quiet.stderr.contains("changed on"), quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("rotated on"), quiet.stderr)
        // C missed both: its vault opens with the old passphrase, A's key with the new one.
        try net[2].ok(["unlock"])
        let third = try net[2].ok(
            ["sync"], env: ["DIARY_PASSPHRASE_FILE": try net[2].passphraseFile("violet anchor meadow drift")])
        try net[2].ok(["lock"])
        XCTAssertTrue(third.stderr.contains("rotated on 'machine-0'"), third.stderr)
        XCTAssertFalse(third.stderr.contains("'machine-1'"), third.stderr)
        for n in 0...2 {
            let opens = try net[n].run(
                ["list"], env: ["DIARY_PASSPHRASE_FILE": try net[n].passphraseFile("violet anchor meadow drift")])
            XCTAssertEqual(opens.status, 0, "machine \(n): \(opens.stderr)")
        }
        b.environment["DIARY_PASSPHRASE_FILE"] = try b.passphraseFile("violet anchor meadow drift")
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 2)
        try b.ok(["new"], stdin: Data("written on B after finishing".utf8))
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 3)
    }

    func testASyncCutShortJustAfterFollowingARekeyLosesNothing() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["written before the rotation"])
        let b = try net.join(store: "files")
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("written with the rotation".utf8))
        try net.sync(0)

        // B's sync, in this process; what a kill leaves is copied just after the rotation,
        // as the fetched entries are about to be shown, and put back once it is done.
        let fm = FileManager.default
        let stateDirectory = net.stateDirectory(1)
        let killed = net.scratch.appendingPathComponent("killed-\(UUID().uuidString.prefix(6))")
        var copied = false
        let engine = try SyncEngine(
            vault: try Vault.open(at: b.vault, passphrase: secretBytes(net.passphrase)), stateDirectory: stateDirectory,
            passphrase: { [self] _ in try secretBytes(net.passphrase) },
            progress: { step in
                guard case .applying = step, !copied else { return }
                copied = true
                try? fm.createDirectory(at: killed, withIntermediateDirectories: true)
                try? fm.copyItem(at: b.vault, to: killed.appendingPathComponent("vault"))
                try? fm.copyItem(at: stateDirectory, to: killed.appendingPathComponent("state"))
            })
        _ = try engine.sync()
        XCTAssertTrue(copied)
        try fm.removeItem(at: b.vault)
        try fm.removeItem(at: stateDirectory)
        try fm.copyItem(at: killed.appendingPathComponent("vault"), to: b.vault)
        try fm.copyItem(at: killed.appendingPathComponent("state"), to: stateDirectory)

        let resumed = try net.sync(1)
        XCTAssertFalse(resumed.stderr.contains("publishing"), resumed.stderr)
        XCTAssertEqual(try net.snapshot(1), try net.snapshot(0))
        XCTAssertEqual(try net.snapshot(1).count, 2)
    }

    func testPasswdWaitsForAnInterruptedRotationToBeFinished() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        try interruptRekey(machine: 0, in: net, passphrase: net.passphrase, at: .beforeSyncWasTold)
        let refused = try a.run(["passwd", "--new-passphrase-file", try a.passphraseFile("a newer passphrase here")])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a key rotation was interrupted"), refused.stderr)
        // Nothing changed: the old passphrase opens both keys still.
        XCTAssertEqual(try Vault.inspect(at: a.vault).keyGenerations, [1, 2])
        XCTAssertNoThrow(try Vault.open(at: a.vault, passphrase: secretBytes(net.passphrase)))
    }

    // MARK: Helpers

    /// Runs machine `n`'s rotation in this process and stops it at `point`.
    private func interruptRekey(machine n: Int, in net: SyncMachines, passphrase: String, at point: Point) throws {
        let vault = try Vault.open(at: net[n].vault, passphrase: secretBytes(passphrase))
        let retired = (key: vault.vaultKey, generation: vault.keyGeneration)
        XCTAssertThrowsError(
            try vault.rotateKey(
                passphrase: secretBytes(passphrase),
                beforeRetiring: { headers in
                    guard point != .beforeSyncWasTold else { throw Interrupted() }
                    let syncState = try net.syncStateItem(n, named: "state")
                    let before = try Data(contentsOf: syncState)
                    try SyncLifecycle.noteKeyRotation(
                        vault: vault, headers: headers, retiredKey: retired.key, retiredGeneration: retired.generation,
                        stateDirectory: net.stateDirectory(n))
                    if point == .whileSyncResealed { try before.write(to: syncState) }
                    throw Interrupted()
                }))
    }
}
