import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// The recovery key across synced machines (FORMAT.md §12): made on one, it reaches the others
/// as a passphrase change; a rotation elsewhere seals the new key to it; a header of an older
/// recovery epoch is refused.
final class SyncRecoveryKeyTests: VaultTestCase {
    private var machines: SyncTestMachines!

    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
    }

    /// `recovery-key create` as DiaryApp runs it on a synced vault.
    private func createKey(on name: String, replace: Bool = false) throws -> RecoveryKey {
        let key = try RecoveryKey.generate()
        let vault = machines[name]
        let change = try vault.setRecoveryKey(
            publicKeyOf: key, replace: replace, passphrase: secret(machines.passphrases[name]!))
        try SyncLifecycle.notePassphraseChange(
            change, vaultDirectory: vault.directory, stateDirectory: machines.state(name))
        return key
    }

    func testAKeyMadeOnOneMachineOutlivesARotationOnAnotherAndResetsThePassphrase() throws {
        try machines.start("laptop", entries: ["one", "two"])
        try machines.join("desktop", invitedBy: "laptop")
        let key = try createKey(on: "laptop")
        try machines.sync("laptop")
        let followed = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(followed.notes.contains(.recoveryKeyChangeFollowed(machine: "laptop")), "\(followed.notes)")
        XCTAssertEqual(machines["desktop"].recoveryStatus, machines["laptop"].recoveryStatus)
        // The desktop's header and index root were written together: it opens as it is.
        let reopened = try Vault.open(at: machines["desktop"].directory, passphrase: secret("correct horse"))
        XCTAssertEqual(reopened.recoveryStatus, machines["laptop"].recoveryStatus)

        // A rotation on the desktop seals the new key to the recovery key it took in.
        try machines.rekey("desktop")
        try machines["desktop"].add(text: "three")
        try machines.sync("desktop")
        let rotated = try machines.sync("laptop", passphrase: "correct horse")
        XCTAssertTrue(rotated.keyChanged)
        XCTAssertEqual(machines["laptop"].keyGeneration, machines["desktop"].keyGeneration)

        _ = try Vault.resetPassphrase(at: machines["laptop"].directory, recoveryKey: key, new: secret("reset horse"))
        let reset = try Vault.open(at: machines["laptop"].directory, passphrase: secret("reset horse"))
        XCTAssertEqual(try reset.list().map { try reset.entry($0.id).text }.sorted(), ["one", "three", "two"])
    }

    func testAHeaderOfAnOlderRecoveryEpochIsRefused() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        _ = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        let older = machines["desktop"].encodedHeader
        _ = try createKey(on: "laptop", replace: true)
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        guard case .active(epoch: 2, _) = machines["desktop"].recoveryStatus else {
            return XCTFail("\(machines["desktop"].recoveryStatus)")
        }
        XCTAssertThrowsVaultError(
            .recoveryEpochRolledBack(found: 1, known: 2), try machines["desktop"].adoptHeader(older))
        XCTAssertNotEqual(machines["desktop"].encodedHeader, older)
    }

    /// The independent reader opens a remote whose published headers carry a recovery block.
    func testThePythonReaderReadsARemoteWithARecoveryBlock() throws {
        try PythonReader.requireSecretstream()
        try machines.start("laptop", entries: ["one"])
        _ = try createKey(on: "laptop")
        try machines["laptop"].add(text: "two")
        try machines.sync("laptop")
        let result = try PythonReader.run([PythonReader.script.path, machines.remoteRoot.path, "correct horse"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("two"), result.output)
    }

    func testAJoiningMachineTakesTheKeyWithTheHeader() throws {
        try machines.start("laptop", entries: ["one"])
        let key = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.join("phone", invitedBy: "laptop", store: .files)
        XCTAssertEqual(machines["phone"].recoveryStatus, machines["laptop"].recoveryStatus)
        _ = try Vault.resetPassphrase(at: machines["phone"].directory, recoveryKey: key, new: secret("phone horse"))
        XCTAssertEqual(
            try Vault.open(at: machines["phone"].directory, passphrase: secret("phone horse")).list().count, 1)
    }

    /// A reset on one machine, the old passphrase forgotten everywhere: the other machines take
    /// it by a reset with the same key there too (GUIDE: "The recovery key"); both then sync
    /// without a conflict and open with the new passphrase only.
    func testAResetReachesAnotherMachineByAResetThereWithTheSameKey() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        let key = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")

        try machines.resetPassphrase("laptop", key: key, to: "reset horse")
        try machines["laptop"].add(text: "after the reset")
        try machines.sync("laptop")
        let waiting = try machines.sync("desktop")
        XCTAssertTrue(waiting.notes.contains(.passphraseChangeNotAdopted(machine: "laptop")), "\(waiting.notes)")

        try machines.resetPassphrase("desktop", key: key, to: "reset horse")
        try machines["desktop"].add(text: "written on the desktop")
        let published = try machines.sync("desktop")
        XCTAssertEqual(published.conflicts, [])
        let followed = try machines.sync("laptop", passphrase: "reset horse")
        XCTAssertEqual(followed.conflicts, [])
        try machines.sync("desktop")
        for name in ["laptop", "desktop"] {
            XCTAssertEqual(try machines.texts(name), ["after the reset", "one", "written on the desktop"], name)
            let directory = machines[name].directory
            XCTAssertNoThrow(try Vault.open(at: directory, passphrase: secret("reset horse")), name)
            XCTAssertThrowsVaultError(
                .wrongPassphrase, try Vault.open(at: directory, passphrase: secret("correct horse")))
        }
        XCTAssertEqual(machines["laptop"].recoveryStatus, machines["desktop"].recoveryStatus)
    }

    /// The key replaced and the passphrase changed on the desktop; the laptop, syncing with its
    /// old passphrase, keeps its header and so the replaced key: it must refuse to change the
    /// key or the passphrase (a rekey would seal to the replaced key) until it takes the new
    /// header in; then it may.
    func testAMachineBehindTheHeaderInForceRefusesKeyChangesUntilItAdoptsIt() throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        _ = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertNoThrow(
            try SyncLifecycle.checkHeaderInForce(vault: machines["laptop"], stateDirectory: machines.state("laptop")))

        _ = try createKey(on: "desktop", replace: true)
        try machines.changePassphrase("desktop", to: "desktop horse")
        try machines.sync("desktop")
        let behind = try machines.sync("laptop")
        XCTAssertTrue(behind.notes.contains(.passphraseChangeNotAdopted(machine: "desktop")), "\(behind.notes)")
        XCTAssertThrowsError(
            try SyncLifecycle.checkHeaderInForce(vault: machines["laptop"], stateDirectory: machines.state("laptop"))
        ) { XCTAssertEqual($0 as? HeaderNotInForce, HeaderNotInForce(machine: "desktop")) }
        let checked = try Vault.checkPassphrase(at: machines["laptop"].directory, passphrase: secret("correct horse"))
        XCTAssertThrowsError(
            try SyncLifecycle.checkHeaderInForce(
                checked, vaultDirectory: machines["laptop"].directory, stateDirectory: machines.state("laptop")))
        // The desktop, whose header is in force, may.
        XCTAssertNoThrow(
            try SyncLifecycle.checkHeaderInForce(vault: machines["desktop"], stateDirectory: machines.state("desktop")))

        let adopted = try machines.sync("laptop", passphrase: "desktop horse")
        XCTAssertTrue(adopted.notes.contains(.passphraseChangeFollowed(machine: "desktop")), "\(adopted.notes)")
        machines.adopted("laptop", passphrase: "desktop horse")
        XCTAssertEqual(machines["laptop"].recoveryStatus, machines["desktop"].recoveryStatus)
        XCTAssertNoThrow(
            try SyncLifecycle.checkHeaderInForce(vault: machines["laptop"], stateDirectory: machines.state("laptop")))
    }

    /// The race: a rotation on the laptop, not yet synced, while the desktop replaces the
    /// recovery key and publishes first. The laptop's rotation, stated on top, names a header
    /// with the replaced key: the desktop refuses it (never the replaced key back), names the
    /// machine and the way out, and after it (a newer recovery key set on the laptop) both
    /// converge on the newest key.
    func testARotationRacingAKeyReplacementIsRefusedWithTheWayOutAndThenConverges() throws {
        try raceARotationWithAKeyReplacement(rotationFirst: false)
    }

    /// The same race, the rotation published first: the desktop's replacement, not yet
    /// published, cannot stand over it, and the rotation's header is refused the same way.
    func testARotationPublishedBeforeAKeyReplacementIsRefusedTheSameWay() throws {
        try raceARotationWithAKeyReplacement(rotationFirst: true)
    }

    private func raceARotationWithAKeyReplacement(rotationFirst: Bool) throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        _ = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")

        try machines.rekey("laptop")
        let desktopsKey = try createKey(on: "desktop", replace: true)
        guard rotationFirst else {
            // The replacement is in force: the laptop takes it before it publishes its
            // rotation, which is then sealed to the desktop's key, never to the replaced one.
            try machines.sync("desktop")
            try assertPublishesNoOlderKey(on: "laptop", epoch: 2)
            try assertConverged(on: desktopsKey)
            return
        }
        try machines.sync("laptop")
        let overridden = SyncError.recoveryKeyChangeOverridden(machine: "laptop")
        XCTAssertThrowsError(try machines.sync("desktop", passphrase: "correct horse")) {
            XCTAssertEqual($0 as? SyncError, overridden)
        }
        // Until that clears, the desktop makes no key or recovery change of its own.
        XCTAssertThrowsError(
            try SyncLifecycle.checkHeaderInForce(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        ) { XCTAssertEqual($0 as? SyncError, overridden) }
        // The way out half taken (the key removed on the laptop, same epoch as the desktop's
        // replacement): still the race, named, not a remote tampered with.
        try removeKey(on: "laptop")
        try machines.sync("laptop")
        XCTAssertThrowsError(try machines.sync("desktop", passphrase: "correct horse")) {
            XCTAssertEqual($0 as? SyncError, overridden)
        }

        let key = try createKey(on: "laptop")
        try machines.sync("laptop")
        let followed = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertTrue(followed.keyChanged)
        XCTAssertEqual(machines["desktop"].recoveryStatus, machines["laptop"].recoveryStatus)
        XCTAssertEqual(machines["desktop"].keyGeneration, machines["laptop"].keyGeneration)
        XCTAssertNoThrow(
            try SyncLifecycle.checkHeaderInForce(vault: machines["desktop"], stateDirectory: machines.state("desktop")))
        _ = try Vault.resetPassphrase(at: machines["desktop"].directory, recoveryKey: key, new: secret("reset horse"))
        XCTAssertNoThrow(try Vault.open(at: machines["desktop"].directory, passphrase: secret("reset horse")))
    }

    /// `recovery-key remove` as DiaryApp runs it on a synced vault.
    private func removeKey(on name: String) throws {
        let vault = machines[name]
        let removal = try vault.removeRecoveryKey(passphrase: secret(machines.passphrases[name]!))
        try SyncLifecycle.notePassphraseChange(
            removal, vaultDirectory: vault.directory, stateDirectory: machines.state(name))
    }

    /// `name`'s sync publishes its change, and every header it adds to the remote names
    /// recovery epoch `epoch` (the one in force): none is sealed to a replaced key.
    private func assertPublishesNoOlderKey(on name: String, epoch: UInt32, line: UInt = #line) throws {
        let keys = machines.remoteRoot.appendingPathComponent("keys")
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: keys.path))
        let report = try machines.sync(name, passphrase: machines.passphrases[name]!)
        XCTAssertTrue(report.keyChangePublished, line: line)
        let added = Set(try FileManager.default.contentsOfDirectory(atPath: keys.path)).subtracting(before)
        XCTAssertFalse(added.isEmpty, line: line)
        for file in added {
            let bytes = [UInt8](try Data(contentsOf: keys.appendingPathComponent(file)))
            XCTAssertEqual(Vault.recoveryStatus(ofHeader: bytes)?.epoch, epoch, "\(file)", line: line)
        }
    }

    /// Both machines synced, on one key generation and on `key`, which resets either.
    private func assertConverged(on key: RecoveryKey, line: UInt = #line) throws {
        try machines.sync("laptop", passphrase: machines.passphrases["desktop"]!)
        try machines.sync("desktop", passphrase: machines.passphrases["laptop"]!)
        XCTAssertEqual(machines["laptop"].recoveryStatus, machines["desktop"].recoveryStatus, line: line)
        XCTAssertEqual(machines["laptop"].keyGeneration, machines["desktop"].keyGeneration, line: line)
        for name in ["laptop", "desktop"] {
            XCTAssertTrue(try Vault.recoveryKeyMatches(at: machines[name].directory, key), name, line: line)
            _ = try Vault.resetPassphrase(at: machines[name].directory, recoveryKey: key, new: secret("reset horse"))
            XCTAssertNoThrow(
                try Vault.open(at: machines[name].directory, passphrase: secret("reset horse")), line: line)
        }
    }

    /// The key replaced on the laptop and published; the desktop, not yet synced, rotates the
    /// key or changes the passphrase (it cannot know). Its sync must not publish a header
    /// sealed to the replaced key: it takes the laptop's key first, and both converge on it.
    func testAKeyChangeMadeBeforeTakingInAReplacementIsNotPublishedOverIt() throws {
        try raceAReplacement { try self.machines.rekey("desktop") }
    }

    func testAPassphraseChangeMadeBeforeTakingInAReplacementIsNotPublishedOverIt() throws {
        try raceAReplacement { try self.machines.changePassphrase("desktop", to: "desktop horse") }
    }

    private func raceAReplacement(_ changeOnDesktop: () throws -> Void) throws {
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        _ = try createKey(on: "laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "correct horse")
        let laptopsKey = try createKey(on: "laptop", replace: true)
        try machines.sync("laptop")

        try changeOnDesktop()
        try assertPublishesNoOlderKey(on: "desktop", epoch: 2)
        try assertConverged(on: laptopsKey)
    }
}
