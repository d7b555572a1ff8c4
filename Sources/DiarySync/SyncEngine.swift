import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// One sync of a local vault with its remote (docs/FORMAT.md §12.8), run in steps by parts:
///
/// 1. find what changed in the local vault since the last sync (`LocalDiff`);
/// 2. fetch (git) and read every machine's new records from the remote tree (`RemoteTree`,
///    `LogScanner`), checking them against what this machine saw: any contradiction stops the
///    sync before anything is written;
/// 3. write this machine's changes as its next record;
/// 4. follow the newest key change, a passphrase or a key another machine set (`KeyFollower`);
/// 5. make the local vault show every entry's preferred head (`LocalDiff`);
/// 6. save the state, then push (git); if another machine pushed first, fetch and repeat 2–5.
public final class SyncEngine {
    /// How many times a push may lose to another machine's before the sync gives up.
    static let pushAttempts = 5

    let vault: Vault
    let setup: SyncSetup
    let tree: RemoteTree
    let git: GitRemote?
    let store: StateStore
    let keys: KeyFollower
    let diff: LocalDiff
    let progress: (SyncProgress) -> Void
    /// This machine's sync state and the keys it opens records with, as the sync changes them.
    var main: SyncMain
    var ring: SyncKeyRing

    /// `passphrase` is asked when the passphrase is needed (see `PassphraseNeed`); it gives nil
    /// when none can be had.
    public convenience init(
        vault: Vault, stateDirectory: URL, passphrase: @escaping (PassphraseNeed) throws -> SecretBytes? = { _ in nil },
        progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws {
        try self.init(
            vault: vault, stateDirectory: stateDirectory, passphrase: passphrase, progress: progress, joining: false)
    }

    /// `joining`: a passphrase change found must open with the passphrase given.
    init(
        vault: Vault, stateDirectory: URL, passphrase: @escaping (PassphraseNeed) throws -> SecretBytes?,
        progress: @escaping (SyncProgress) -> Void, joining: Bool
    ) throws {
        self.vault = vault
        setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { throw SyncError.notSetUp }
        tree = RemoteTree(root: setup.tree(for: remote))
        if case .git(let url) = remote { git = GitRemote(url: url, tree: setup.gitTree) } else { git = nil }
        // An unfinished rotation (local, or adopting another machine's key) is finished by a
        // rekey, which also tells sync about the key; until then there is neither one key to
        // seal records under nor a header fit to publish.
        guard !vault.rotationInterrupted else { throw VaultError.rotationInterrupted }
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration)
        store = StateStore(directory: setup.directory, vaultID: vault.id, key: key)
        main = try store.readMain()
        ring = SyncKeyRing(current: key)
        for k in main.keys { ring.add(try SyncKey(vaultKey: k.key, generation: k.generation)) }
        keys = KeyFollower(
            vault: vault, tree: tree, store: store, passphrase: SyncPassphrase(ask: passphrase), joining: joining)
        diff = LocalDiff(vault: vault, store: store, tree: tree)
        self.progress = progress
    }

    /// Runs one sync under this machine's sync lock.
    public func sync() throws -> SyncReport {
        try setup.lock.withLock(exclusive: true) {
            try git?.cloneIfNeeded()
            var report = SyncReport()
            if let note = try keys.publishUnannouncedPassphraseChange(main: &main) { report.notes.append(note) }
            let local = try diff.localChanges(main: main, ring: ring)
            for attempt in 1...Self.pushAttempts {
                if let git { try fetch(git) }
                try checkMarker()
                var touched = try readRemote(into: &report)
                if attempt == 1 { touched.formUnion(try publishOwn(local, into: &report)) }
                try keys.follow(main: &main, ring: &ring, report: &report)
                try diff.apply(touched, main: &main, report: &report, progress: progress)
                try diff.saveState(main: &main)
                guard let git else { break }
                if try push(git) { break }
                if attempt == Self.pushAttempts {
                    throw SyncError.remoteUnusable(.otherMachinesPushedFirst(attempts: Self.pushAttempts))
                }
            }
            report.conflicts = main.conflicts.sorted { $0.uuidString < $1.uuidString }
            report.machines = main.logs.count
            return report
        }
    }

    // MARK: The steps

    private func fetch(_ git: GitRemote) throws {
        let (findings, head) = try git.fetchAndMerge(last: main.remoteCommit)
        guard findings.isEmpty else { throw SyncError.untrustedRemote(findings) }
        // From now on the remote must contain what was fetched, pushed or not.
        if let head { main.remoteCommit = head }
    }

    /// Pushes what this sync wrote; false when another machine pushed first.
    private func push(_ git: GitRemote) throws -> Bool {
        progress(.publishing)
        guard let pushed = try git.commitAndPush() else { return false }
        main.remoteCommit = pushed
        try store.writeMain(main)
        return true
    }

    /// The remote names this vault; a first sync writes the marker.
    private func checkMarker() throws {
        switch try tree.marker() {
        case .absent:
            if main.logs.values.contains(where: { $0.seen > 0 }) {
                throw SyncError.untrustedRemote([.markerGone(file: RemoteLayout.marker)])
            }
            try tree.writeMarker(vaultID: vault.id)
        case .unreadable:
            throw SyncError.remoteUnusable(.unknownMarker(path: tree.url(RemoteLayout.marker).path))
        case .vault(let id):
            guard id == vault.id else { throw SyncError.otherVault(id) }
        }
    }

    /// Reads every machine's new records and takes them in. Returns the entries they touched.
    private func readRemote(into report: inout SyncReport) throws -> Set<UUID> {
        let scanner = LogScanner(tree: tree, vaultID: vault.id, tidiesCopies: git == nil)
        // The scan works on copies of the state and the ring: a key it needs is looked for
        // with them as they were, and the keys learnt so are added after it.
        let (mainBefore, ringBefore) = (main, ring)
        let names = main.logs.mapValues(\.name)
        var learnt: [SyncKey] = []
        var scanned = main
        var scannedRing = ring
        let outcome = try scanner.scan(main: &scanned, ring: &scannedRing) { [keys] machine, seq, keyID in
            let key = try keys.keyOfRecord(
                machine: machine, seq: seq, keyID: keyID, machineName: names[machine], ring: ringBefore,
                main: mainBefore)
            if let key { learnt.append(key) }
            return key
        }
        main = scanned
        ring = scannedRing
        for key in learnt where !main.keys.contains(where: { $0.generation == key.generation }) {
            main.keys.append((key.generation, key.vaultKey))
        }
        guard outcome.findings.isEmpty else { throw SyncError.untrustedRemote(outcome.findings) }
        report.pending += outcome.pending
        report.notes += outcome.notes
        progress(.reading(records: outcome.records.count))
        var touched = Set<UUID>()
        for found in outcome.records { touched.formUnion(try ingest(found.record)) }
        return touched
    }

    /// Takes one record's revisions into the heads, and its key change into the key follower.
    /// Returns the entries it touched.
    func ingest(_ record: SyncRecord) throws -> [UUID] {
        main.lamport = max(main.lamport, record.lamport)
        for revision in record.revisions {
            var heads = try store.entry(revision.entry) ?? EntryHeads()
            heads.add(revision, lamport: record.lamport, machine: record.machine)
            try store.setEntry(revision.entry, heads)
        }
        if let change = record.keyChange { try keys.take(change, of: record, main: &main, ring: &ring) }
        return record.revisions.map(\.entry)
    }
}
