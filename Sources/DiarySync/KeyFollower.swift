import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// A key change read from a machine's record: a passphrase change or a key rotation.
struct PublishedKeyChange {
    /// Its place in the order every machine gives key changes.
    var id: KeyChangeID
    var change: KeyChange
    /// The name the machine that made it gave itself.
    var machineName: String
    /// The key its record was sealed under (the key its headers wrap, but for a rotation).
    var keyID: [UInt8]
}

/// Follows another machine's passphrase change or key rotation (docs/FORMAT.md §12.4), and
/// finds the keys of records sealed under a key this machine does not have yet.
final class KeyFollower {
    let vault: Vault
    let tree: RemoteTree
    let store: StateStore
    let passphrase: SyncPassphrase
    /// Joining: a passphrase change found must open with the passphrase given, or the join
    /// stops (the user typed an old one).
    let joining: Bool
    /// The key changes read in this round of the sync, not yet followed.
    private var read: [PublishedKeyChange] = []

    init(vault: Vault, tree: RemoteTree, store: StateStore, passphrase: SyncPassphrase, joining: Bool) {
        self.vault = vault
        self.tree = tree
        self.store = store
        self.passphrase = passphrase
        self.joining = joining
    }

    /// True when a key change `machine` made was read in this round and not followed yet.
    func readIncludesChange(by machine: UUID) -> Bool { read.contains { $0.id.machine == machine } }

    static func digest(ofHeader header: [UInt8]) -> [UInt8] { BLAKE2b.hash(header, outputCount: 16) }

    /// Takes in the key change of `record`: the keys it retired join the ring, the change
    /// waits to be followed.
    func take(_ change: KeyChange, of record: SyncRecord, main: inout SyncMain, ring: inout SyncKeyRing) throws {
        for retired in change.retired {
            let key = try SyncKey(vaultKey: retired.key, generation: retired.generation, vaultID: vault.id)
            if ring[key.id] == nil {
                try ring.add(key)
                main.keys.append((retired.generation, retired.key))
            }
        }
        let generations = Set(change.headers.values.compactMap { try? Vault.describeHeader($0).generation })
        guard generations.count == 1, let generation = generations.first else {
            throw SyncError.untrustedRemote([.keyChangeHeadersDisagree(machine: record.machineName, seq: record.seq)])
        }
        read.append(
            PublishedKeyChange(
                id: KeyChangeID(
                    generation: generation, lamport: record.lamport, machine: record.machine, seq: record.seq),
                change: change, machineName: record.machineName,
                keyID: record.keyID.isEmpty ? ring.current.id : record.keyID))
    }

    /// A passphrase change made here that a cut-short passphrase change never told sync about:
    /// the header's digest differs from the one kept at the last sync, and no key change waits.
    /// Queues it for publishing (its other-store variants need the passphrase, which also proves
    /// the header).
    func publishUnannouncedPassphraseChange(main: inout SyncMain) throws -> SyncNote? {
        guard !main.headerDigest.isEmpty, main.headerDigest != Self.digest(ofHeader: vault.encodedHeader) else {
            return nil
        }
        // Changed, but known: the change waiting to be published, or a header already on the
        // remote (one a sync cut short had adopted). Same salt and cost, same passphrase.
        if let waiting = main.pendingKeyChange?.headers[vault.store], vault.wrapsLike(waiting) { return nil }
        let published = tree.publishedHeaders().filter { $0.store == vault.store }
            .compactMap { tree.readIfPossible($0.path, limit: RemoteTree.headerLimit) }
        if published.contains(where: vault.wrapsLike) { return nil }
        let change = try passphrase.use(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) {
            try Vault.publishableHeaders(at: vault.directory, passphrase: $0)
        }
        guard change.generation == vault.keyGeneration else { return nil }
        main.pendingKeyChange = KeyChange(headers: change.headers, retired: main.pendingKeyChange?.retired ?? [])
        return .unannouncedPassphraseChangePublished
    }

    // MARK: Following the newest change

    /// Follows the newest key change (`KeyChangeID` order: the same on every machine, no
    /// clock): its header for this machine's store becomes the local header. When it carries a
    /// newer key, the local vault is rotated to that key, which takes the passphrase; if the
    /// passphrase only opens an intermediate rotation (the passphrase was changed after it),
    /// that one is followed first.
    func follow(main: inout SyncMain, ring: inout SyncKeyRing, report: inout SyncReport) throws {
        let adopted = main.adoptedKeyChange
        let newer = read.filter { change in adopted.map { change.id > $0 } ?? true }.sorted { $0.id < $1.id }
        read = []
        guard let best = newer.last else { return }
        main.adoptedKeyChange = best.id
        defer { removeSupersededHeaders(keeping: best.id, logs: main.logs) }
        // This machine's own change is the newest: its header is already the local one. A
        // passphrase set elsewhere meanwhile, under an older key, lost to a rotation made here.
        guard best.id.machine != main.machine else {
            for lost in newer where lost.id.machine != main.machine && lost.id.generation < best.id.generation {
                report.notes.append(.passphraseChangeLostToRotationHere(machine: lost.machineName))
            }
            return
        }
        let target = try header(of: best)
        if target == vault.encodedHeader { return }
        if best.id.generation > vault.keyGeneration {
            let ownChangeLost = newer.contains { $0.id.machine == main.machine } || adopted?.machine == main.machine
            let steps = newer.filter { $0.id.generation > vault.keyGeneration && $0.id.machine != main.machine }
            let lost = SyncError.passphraseChangedElsewhere(machine: best.machineName, ownChangeLost: ownChangeLost)
            let key = try passphrase.use(.followRotation(machine: best.machineName, attempt: 1), onWrong: lost) {
                try rotate(toFirstOpenable: steps.reversed(), passphrase: $0)
            }
            try ring.makeCurrent(key)
            if let vaultKey = key.vaultKey, !main.keys.contains(where: { $0.generation == key.generation }) {
                main.keys.append((key.generation, vaultKey))
            }
            if ownChangeLost { report.notes.append(.ownPassphraseChangeLost(rotatedOn: best.machineName)) }
            report.keyChanged = true
            report.notes.append(.keyRotationFollowed(machine: best.machineName))
        }
        guard try header(of: best) != vault.encodedHeader else { return }
        if try adoptPassphraseChange(best, header: target, ring: ring) {
            report.notes.append(.passphraseChangeFollowed(machine: best.machineName))
        }
    }

    /// Rotates the local vault to the first of `steps` whose header the passphrase opens, and
    /// returns the new key. The sync state is resealed under it before the vault drops the old
    /// key: cut short anywhere, a rekey finishes both (docs/FORMAT.md §8).
    private func rotate(toFirstOpenable steps: [PublishedKeyChange], passphrase: SecretBytes) throws -> SyncKey {
        for step in steps {
            do {
                _ = try vault.rotateKey(
                    adopting: try header(of: step), passphrase: passphrase,
                    beforeRetiring: { [vault, store] _ in
                        try store.resealOnDisk(
                            under: try SyncKey(
                                vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id))
                    })
                return try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
            } catch VaultError.wrongPassphrase {
                continue
            }
        }
        throw VaultError.wrongPassphrase
    }

    /// Takes `header`, of the same key generation, as the local header: a passphrase changed
    /// elsewhere. False when the local header already wraps the key the same way.
    private func adoptPassphraseChange(_ change: PublishedKeyChange, header: [UInt8], ring: SyncKeyRing) throws -> Bool
    {
        guard Vault.describeHeaderGeneration(header) == vault.keyGeneration else {
            throw SyncError.passphraseChangedElsewhere(machine: change.machineName, ownChangeLost: false)
        }
        // Same generation, another key: both machines rotated before seeing each other's
        // rotation. Adopting that header would leave this vault's entries under a key its
        // header no longer wraps; a new rotation here (a higher generation) settles it.
        guard change.keyID == ring.current.id else { throw SyncError.concurrentRotation(machine: change.machineName) }
        if vault.wrapsLike(header) { return false }
        if joining, let given = try passphrase.keptOrAsk(.followRotation(machine: change.machineName, attempt: 1)),
            (try? Vault.unwrapHeader(header, passphrase: given)) == nil
        {
            throw SyncError.passphraseChangedElsewhere(machine: change.machineName, ownChangeLost: false)
        }
        try vault.adoptHeader(header)
        return true
    }

    /// Removes the published headers of key changes the newest one replaced, so that an old
    /// passphrase no longer opens anything a joining machine reads from a folder remote. (A
    /// git remote's history keeps them; docs/FORMAT.md §12.4.) Only headers of records this
    /// machine has read go: one still on its way may be a newer change.
    private func removeSupersededHeaders(keeping best: KeyChangeID, logs: [UUID: LogState]) {
        for published in tree.publishedHeaders()
        where (published.machine != best.machine || published.seq != best.seq)
            && published.seq <= logs[published.machine]?.seen ?? 0
        {
            tree.remove(published.path)
        }
    }

    /// The header a key change published for this machine's store, checked to name this vault.
    private func header(of change: PublishedKeyChange) throws -> [UInt8] {
        guard let header = change.change.headers[vault.store] else {
            throw SyncError.untrustedRemote([.keyChangeWithoutHeader(machine: change.machineName, store: vault.store)])
        }
        let described = try Vault.describeHeader(header)
        guard described.vaultID == vault.id else { throw SyncError.otherVault(described.vaultID) }
        return header
    }
}
