import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// This machine's vault header is not the one the chain puts in force, and no change of its
/// own waits to be stated: another machine (`machine`) changed the passphrase or the recovery
/// key and this one has not taken it in. A key or recovery change made here now would seal to
/// a recovery key that may have been replaced, or publish a header the others refuse.
public struct HeaderNotInForce: Error, Equatable {
    public let machine: String
}

extension SyncLifecycle {
    /// Refuses (`HeaderNotInForce`) a change of the key, the passphrase or the recovery key
    /// on a machine whose header is behind the chain's (docs/FORMAT.md §12.7), or whose last
    /// sync was refused as `SyncError.recoveryKeyChangeOverridden` (thrown again). Nothing is
    /// checked when the vault does not sync here.
    public static func checkHeaderInForce(vault: Vault, stateDirectory: URL) throws {
        try checkHeaderInForce(
            vaultID: vault.id, vaultDirectory: vault.directory, store: vault.store, header: vault.encodedHeader,
            vaultKey: vault.vaultKey, generation: vault.keyGeneration, stateDirectory: stateDirectory)
    }

    /// The same, with the header and key a passphrase check gave (`passwd` opens no vault).
    public static func checkHeaderInForce(
        _ checked: CheckedPassphrase, vaultDirectory: URL, stateDirectory: URL
    ) throws {
        try checkHeaderInForce(
            vaultID: checked.info.id, vaultDirectory: vaultDirectory, store: checked.info.store,
            header: checked.encodedHeader, vaultKey: checked.vaultKey, generation: checked.generation,
            stateDirectory: stateDirectory)
    }

    private static func checkHeaderInForce(
        vaultID: UUID, vaultDirectory: URL, store: StoreKind, header: [UInt8], vaultKey: SecretBytes,
        generation: UInt32, stateDirectory: URL
    ) throws {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory)
        guard try setup.remote() != nil else { return }
        // The last sync here was refused for a header naming an older recovery key: a rekey or
        // a new key here would race the way out being taken on that machine.
        if let name = try? DurableFile.read(setup.recoveryOverriddenURL, limit: 1024) {
            throw SyncError.recoveryKeyChangeOverridden(machine: String(decoding: name, as: UTF8.self))
        }
        let key = try SyncKey(vaultKey: vaultKey, generation: generation, vaultID: vaultID)
        let main = try setup.lock.withLock(exclusive: true) {
            try StateStore(directory: setup.directory, vaultID: vaultID, key: key).readMain()
        }
        // A change of this machine's own waiting to be stated goes on top of the chain at the
        // next sync: its header is meant to differ.
        guard main.pendingChange == nil, let target = main.chain.headerStatement,
            target.author != main.machine, let hash = target.headerHashes[store],
            BLAKE2b.hash(header) != hash
        else { return }
        let name = main.chain.member(target.author)?.name ?? RemoteLayout.placeholderName(target.author)
        throw HeaderNotInForce(machine: name)
    }
}
