import DiaryCrypto
import DiaryVault
import Foundation

extension KeyFollower {
    /// The key of a record sealed under a key this machine lacks (`keyID`): another machine
    /// rotated the key. A key some later rotation retired is found in the records; otherwise
    /// a published header, opened with the passphrase, gives the new key. `ring` and `main`
    /// are as they were before the scan that met the record.
    func keyOfRecord(
        machine: UUID, seq: UInt64, keyID: [UInt8], machineName: String?, ring: SyncKeyRing, main: SyncMain
    ) throws -> SyncKey? {
        if let retired = try retiredKey(keyID, ring: ring) { return retired }
        // The header published with this very record first, then every other one, newest
        // first: a newer passphrase change may have replaced (and removed) the record's own.
        let own = RemoteLayout.headerPath(machine: machine, seq: seq, store: vault.store)
        let others = tree.publishedHeaders().filter { $0.store == vault.store && $0.path != own }.map(\.path)
        let headers = ([own] + others).compactMap { tree.readIfPossible($0, limit: RemoteTree.headerLimit) }
        guard !headers.isEmpty else { return nil }
        let shownName = machineName ?? RemoteLayout.placeholderName(machine)
        let need = PassphraseNeed.followRotation(machine: shownName, attempt: 1)
        return try passphrase.use(need, onWrong: passphraseLost(to: shownName, main: main)) { passphrase in
            var opened = false
            for header in headers {
                guard let unwrapped = try? Vault.unwrapHeader(header, passphrase: passphrase) else { continue }
                opened = true
                let key = try SyncKey(vaultKey: unwrapped.key, generation: unwrapped.generation, vaultID: vault.id)
                if key.id == keyID { return key }
            }
            if !opened { throw VaultError.wrongPassphrase }
            return nil
        }
    }

    /// A key some later key change retired. Format 2 records carry no key changes (the chain
    /// statements list retired keys, which the chain reader will take in), so no record can
    /// name one here.
    private func retiredKey(_ keyID: [UInt8], ring: SyncKeyRing) throws -> SyncKey? { nil }

    /// What to throw when no passphrase given opens another machine's newer key: when this
    /// machine's own passphrase change is among the changes it replaced, that change lost.
    private func passphraseLost(to machine: String, main: SyncMain) -> SyncError {
        let ownChangeLost =
            readIncludesChange(by: main.machine)
            || main.pendingKeyChange != nil || main.adoptedKeyChange?.machine == main.machine
        return SyncError.passphraseChangedElsewhere(machine: machine, ownChangeLost: ownChangeLost)
    }
}
