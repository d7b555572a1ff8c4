import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

extension ChainFollower {
    /// Makes the local vault use the key and header the chain puts in force. A key change of
    /// this machine's own, waiting to be stated, goes on top of the chain instead (the next
    /// step); a passphrase changed elsewhere is adopted only when the passphrase opens it.
    func follow(main: inout SyncMain, ring: inout SyncKeyRing, report: inout SyncReport) throws {
        guard let target = main.chain.headerStatement, let hash = target.headerHashes[vault.store] else { return }
        if BLAKE2b.hash(vault.encodedHeader) == hash {
            removeSupersededHeaders(before: target, chain: main.chain)
            return
        }
        let name = main.chain.member(target.author)?.name ?? RemoteLayout.placeholderName(target.author)
        if target.author == main.machine { return }
        if target.keyID != ring.current.id, main.pendingChange == nil, !main.isMember,
            vault.keyGeneration > (main.chain.keyStatement?.generation ?? 0)
        {
            // Joining again with a key rotated here since this vault last synced: it becomes
            // this machine's rotation, stated once a member admits it.
            let change = try passphrase.use(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) {
                try Vault.publishableHeaders(at: vault.directory, passphrase: $0)
            }
            main.pendingChange = PendingChange(kind: .rekey, headers: change.headers)
            return
        }
        if let pending = main.pendingChange {
            if pending.kind.changesKey {
                // Stated on top at this sync; only a key newer than every one stated can be.
                guard vault.keyGeneration > (main.chain.keyStatement?.generation ?? 0) || !fork.isEmpty else {
                    throw SyncError.concurrentRotation(machine: name)
                }
                return
            }
            if target.keyID == ring.current.id { return }
            // A new passphrase over a key another machine has since replaced: it cannot stand.
            main.pendingChange = nil
            report.notes.append(.ownPassphraseChangeLost(rotatedOn: name))
        }
        guard let header = try header(of: target) else {
            report.notes.append(.statementsWaiting(count: 1))
            return
        }
        guard vault.costsNoLess(header) else {
            throw SyncError.untrustedRemote([
                .headerCheaper(
                    path: RemoteLayout.headerPath(chainSeq: target.seq, author: target.author, store: vault.store))
            ])
        }
        if target.keyID != ring.current.id {
            try rotate(to: header, keyID: target.keyID, machine: name, ring: &ring)
            report.keyChanged = true
            report.notes.append(.keyRotationFollowed(machine: name))
        } else {
            let (headerBefore, recoveryBefore) = (vault.encodedHeader, vault.recoveryStatus)
            guard try adoptPassphraseChange(header, machine: name) else {
                report.notes.append(.passphraseChangeNotAdopted(machine: name))
                return
            }
            // Wrapped alike (one salt): the same passphrase, so only the recovery key changed.
            let keyOnly = Vault.wrapAlike(header, headerBefore) && vault.recoveryStatus != recoveryBefore
            report.notes.append(
                keyOnly ? .recoveryKeyChangeFollowed(machine: name) : .passphraseChangeFollowed(machine: name))
        }
        removeSupersededHeaders(before: target, chain: main.chain)
    }

    /// Re-seals the local vault under the key `header` wraps (the passphrase must open it, and
    /// its key must be the one the chain names). The sync state is resealed under it before the
    /// vault drops the old key: cut short anywhere, a rekey finishes both (docs/FORMAT.md §8).
    private func rotate(to header: [UInt8], keyID: [UInt8], machine: String, ring: inout SyncKeyRing) throws {
        let key = try passphrase.use(
            .followRotation(machine: machine, attempt: 1),
            onWrong: .passphraseChangedElsewhere(machine: machine, ownChangeLost: false)
        ) { given -> SyncKey in
            let unwrapped = try Vault.unwrapHeader(header, passphrase: given)
            let key = try SyncKey(vaultKey: unwrapped.key, generation: unwrapped.generation, vaultID: vault.id)
            guard key.id == keyID else { throw SyncError.untrustedRemote([.headerNotAuthentic(path: "keys/")]) }
            try refusingRolledBackRecovery(machine: machine) {
                _ = try vault.rotateKey(
                    adopting: header, passphrase: given,
                    beforeRetiring: { [vault, store] _ in
                        try store.resealOnDisk(
                            under: try SyncKey(
                                vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id))
                        try SyncFaults.point("follow.resealed")
                    })
            }
            return key
        }
        try ring.makeCurrent(key)
    }

    /// Takes `header` (same key, a passphrase set elsewhere) once the passphrase given opens it:
    /// false when none is at hand or it does not open.
    private func adoptPassphraseChange(_ header: [UInt8], machine: String) throws -> Bool {
        guard let given = try passphrase.keptOrAsk(.followRotation(machine: machine, attempt: 1)),
            let unwrapped = try? Vault.unwrapHeader(header, passphrase: given),
            unwrapped.generation == vault.keyGeneration,
            unwrapped.key.withUnsafeBytes({ a in vault.vaultKey.withUnsafeBytes { b in a.elementsEqual(b) } })
        else { return false }
        try refusingRolledBackRecovery(machine: machine) { try vault.adoptHeader(header) }
        return true
    }

    /// Runs an adoption of a published header. Its bytes are the ones `machine`'s signed
    /// statement names, so one whose recovery block is older than the one this vault records
    /// is that machine's change made before it took in a recovery change made here: refused,
    /// with the way out. One not made with the vault key is forged: the remote is not trusted.
    private func refusingRolledBackRecovery(machine: String, _ adopt: () throws -> Void) throws {
        do {
            try adopt()
        } catch VaultError.recoveryEpochRolledBack {
            throw SyncError.recoveryKeyChangeOverridden(machine: machine)
        } catch VaultError.recoveryKeyMismatch {
            throw SyncError.untrustedRemote([.headerNotAuthentic(path: RemoteLayout.keysDirectory)])
        }
    }

    /// Removes the published headers of statements before the one in force, once this machine
    /// has fully adopted it: an old passphrase then opens nothing on a folder remote (a git
    /// remote's history keeps them; docs/FORMAT.md §12).
    func removeSupersededHeaders(before target: AcceptedStatement, chain: ChainState) {
        for statement in chain.statements where statement.seq < target.seq && statement.kind != .admit {
            for kind in StoreKind.allCases {
                let path = RemoteLayout.headerPath(chainSeq: statement.seq, author: statement.author, store: kind)
                if tree.stamp(path) != nil { tree.remove(path) }
            }
        }
    }
}
