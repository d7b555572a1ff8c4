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
            try interruptRekey(of: a, passphrase: net.passphrase, at: point)
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
            XCTAssertTrue(followed.stderr.contains("vault key was rotated on 'machine-0'"), "\(point): \(followed.stderr)")
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
        try a.ok(["rekey"])
        try a.ok(["new"], stdin: Data("written after the rotation".utf8))
        try net.sync(0)

        // B adopts A's key the way its sync would, and is cut short before the old key goes.
        let vault = try Vault.open(at: b.vault, passphrase: secret(net.passphrase))
        let published = try publishedHeader(in: net, store: "files")
        XCTAssertThrowsError(
            try vault.rotateKey(
                adopting: published, passphrase: secret(net.passphrase), beforeRetiring: { throw Interrupted() }))
        XCTAssertEqual(try Vault.inspect(at: b.vault).keyGenerations, [1, 2])

        let refused = try b.run(["sync"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a key rotation was interrupted"), refused.stderr)
        try b.ok(["rekey"])
        try net.sync(1)
        // B published the key it finished with: the same key and passphrase as A's, so A has
        // nothing to follow and says nothing about it.
        let quiet = try net.sync(0)
        XCTAssertFalse(quiet.stderr.contains("passphrase was changed"), quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("key was rotated"), quiet.stderr)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 2)
        try b.ok(["new"], stdin: Data("written on B after finishing".utf8))
        try net.sync(1)
        try net.sync(0)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.snapshot(0).count, 3)
        XCTAssertEqual(try a.run(["list"]).status, 0)
    }

    func testPasswdWaitsForAnInterruptedRotationToBeFinished() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        try interruptRekey(of: a, passphrase: net.passphrase, at: .beforeSyncWasTold)
        let refused = try a.run(["passwd", "--new-passphrase-file", try a.passphraseFile("a newer passphrase here")])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a key rotation was interrupted"), refused.stderr)
        // Nothing changed: the old passphrase opens both keys still.
        XCTAssertEqual(try Vault.inspect(at: a.vault).keyGenerations, [1, 2])
        XCTAssertNoThrow(try Vault.open(at: a.vault, passphrase: secret(net.passphrase)))
    }

    // MARK: Helpers

    /// Runs machine `machine`'s rotation in this process and stops it at `point`.
    private func interruptRekey(of machine: DiarySandbox, passphrase: String, at point: Point) throws {
        let vault = try Vault.open(at: machine.vault, passphrase: secret(passphrase))
        let retired = (key: vault.vaultKey, generation: vault.keyGeneration)
        XCTAssertThrowsError(
            try vault.rotateKey(passphrase: secret(passphrase), beforeRetiring: {
                guard point != .beforeSyncWasTold else { throw Interrupted() }
                let syncState = try self.syncStateFile(of: machine)
                let before = try Data(contentsOf: syncState)
                try SyncLifecycle.noteKeyRotation(
                    vault: vault, retiredKey: retired.key, retiredGeneration: retired.generation,
                    stateDirectory: self.stateDirectory(of: machine))
                if point == .whileSyncResealed { try before.write(to: syncState) }
                throw Interrupted()
            }))
    }

    /// `$XDG_STATE_HOME/diary` of a sandbox (its default, under its HOME).
    private func stateDirectory(of machine: DiarySandbox) -> URL {
        machine.root.appendingPathComponent("home/.local/state/diary", isDirectory: true)
    }

    /// The sealed `state` file of the one vault syncing on `machine`.
    private func syncStateFile(of machine: DiarySandbox) throws -> URL {
        let found = FileManager.default.enumerator(at: stateDirectory(of: machine).appendingPathComponent("sync"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.lastPathComponent == "state" } ?? []
        XCTAssertEqual(found.count, 1, "\(found)")
        return try XCTUnwrap(found.first)
    }

    /// The one header the git remote publishes for `store`.
    private func publishedHeader(in net: SyncMachines, store: String) throws -> [UInt8] {
        let gitDir = "--git-dir=\(net.remoteRepository.path)"
        let names = try SyncMachines.git([gitDir, "ls-tree", "--name-only", "main", "keys/"])
            .split(separator: "\n").filter { $0.hasSuffix(".\(store)") }
        XCTAssertEqual(names.count, 1, "\(names)")
        return Array(try SyncMachines.gitRaw([gitDir, "show", "main:\(names.first ?? "")"]))
    }

    private func secret(_ text: String) throws -> SecretBytes {
        var bytes = Array(text.utf8)
        return try SecretBytes(consuming: &bytes)
    }
}
