import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Machines syncing one vault through a folder remote, in process: the first starts the
/// chain, the others join with an invite and are admitted, as `diary sync` does it.
final class SyncTestMachines {
    let test: VaultTestCase
    let remote: RemoteLocation
    private(set) var vaults: [String: Vault] = [:]
    /// The passphrase each machine's vault opens with now.
    private(set) var passphrases: [String: String] = [:]
    let passphrase: String

    /// `remote`: a folder remote by default.
    init(_ test: VaultTestCase, passphrase: String = "correct horse", remote: RemoteLocation? = nil) {
        self.test = test
        self.passphrase = passphrase
        self.remote = remote ?? .folder(test.path("remote").path)
    }

    /// Machines syncing through a bare git repository made for them.
    static func throughGit(_ test: VaultTestCase) throws -> SyncTestMachines {
        let bare = test.path("remote.git").path
        try GitRemote.run(["init", "--quiet", "--bare", bare], in: nil)
        return SyncTestMachines(test, remote: .git(bare))
    }

    var remoteRoot: URL { test.path("remote") }
    func state(_ name: String) -> URL { test.path("state-\(name)") }
    subscript(name: String) -> Vault { vaults[name]! }

    /// The first machine: a vault with `entries`, syncing with the empty remote.
    @discardableResult
    func start(_ name: String, entries: [String] = [], store: StoreKind = .sqlite) throws -> [UUID] {
        let vault = try test.makeVault(store, name: name, passphrase: passphrase)
        let ids = try entries.map { try vault.add(text: $0).id }
        _ = try SyncLifecycle.initialize(
            vault: vault, remote: remote, machineName: name, passphrase: test.secret(passphrase),
            stateDirectory: state(name))
        vaults[name] = vault
        passphrases[name] = passphrase
        return ids
    }

    /// A machine joining with an invite from `inviter`, admitted at the inviter's next sync
    /// and then synced once. Returns the join's report.
    @discardableResult
    func join(_ name: String, invitedBy inviter: String, store: StoreKind = .files, passphrase given: String? = nil)
        throws -> SyncReport
    {
        let code = try SyncMembership.invite(vault: self[inviter], stateDirectory: state(inviter), name: name)
        let (vault, report) = try SyncLifecycle.join(
            remote: remote, to: test.path(name), store: store, machineName: name,
            passphrase: test.secret(given ?? passphrase), invite: try InviteCode(text: code),
            stateDirectory: state(name))
        vaults[name] = vault
        passphrases[name] = given ?? passphrase
        _ = try sync(inviter)
        _ = try sync(name)
        return report
    }

    @discardableResult
    func sync(_ name: String, passphrase given: String? = nil, fetchingAttachments: Bool = true) throws -> SyncReport {
        let answer = given.map { test.secret($0) }
        let engine = try SyncEngine(
            vault: self[name], stateDirectory: state(name), passphrase: { $0.attempt == 1 ? answer : nil })
        engine.fetchesAttachments = fetchingAttachments
        return try engine.sync()
    }

    /// This machine's sync state as it is on disk.
    func main(_ name: String) throws -> SyncMain {
        let vault = self[name]
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        let setup = SyncSetup(stateDirectory: state(name), vaultID: vault.id, vaultDirectory: vault.directory)
        return try StateStore(directory: setup.directory, vaultID: vault.id, key: key).readMain()
    }

    /// `diary rekey` on a synced vault: the rotation, and sync told before the old key goes.
    func rekey(_ name: String) throws {
        let vault = self[name]
        let retired = (vault.vaultKey, vault.keyGeneration)
        _ = try vault.rotateKey(
            passphrase: test.secret(passphrases[name]!),
            beforeRetiring: { headers in
                try SyncLifecycle.noteKeyRotation(
                    vault: vault, headers: headers, retiredKey: retired.0, retiredGeneration: retired.1,
                    stateDirectory: self.state(name), finishing: false)
            })
    }

    /// `diary passwd --no-rekey` on a synced vault.
    func changePassphrase(_ name: String, to new: String, kdf: KDFParameters? = nil) throws {
        let vault = self[name]
        let current = test.secret(passphrases[name]!)
        let checked = try Vault.checkPassphrase(at: vault.directory, passphrase: current)
        let change = try Vault.changePassphrase(
            at: vault.directory, checked: checked, current: current, new: test.secret(new), kdf: kdf)
        try SyncLifecycle.notePassphraseChange(change, vaultDirectory: vault.directory, stateDirectory: state(name))
        vaults[name] = try Vault.open(at: vault.directory, passphrase: test.secret(new))
        passphrases[name] = new
    }

    /// `diary reset-passphrase` with the recovery key on a synced vault (the old passphrase
    /// forgotten): sync is told as after `passwd`.
    func resetPassphrase(_ name: String, key: RecoveryKey, to new: String) throws {
        let directory = self[name].directory
        let change = try Vault.resetPassphrase(at: directory, recoveryKey: key, new: test.secret(new))
        try SyncLifecycle.notePassphraseChange(change, vaultDirectory: directory, stateDirectory: state(name))
        vaults[name] = try Vault.open(at: directory, passphrase: test.secret(new))
        passphrases[name] = new
    }

    /// The machine's vault took in a passphrase set elsewhere (a sync followed it).
    func adopted(_ name: String, passphrase: String) { passphrases[name] = passphrase }

    /// The texts of the entries a vault shows, sorted.
    func texts(_ name: String) throws -> [String] {
        let vault = self[name]
        return try vault.list().map { try vault.entry($0.id).text }.sorted()
    }
}
