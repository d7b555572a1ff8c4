import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// One sync of a local vault with its remote (docs/FORMAT.md §12), run in steps by parts:
///
/// 1. find what changed in the local vault since the last sync (`LocalDiff`);
/// 2. fetch (git), check the marker, and read the membership chain (`ChainFollower`): the
///    local vault follows the key and header the chain puts in force;
/// 3. read every machine's new records (`RemoteTree`, `LogScanner`), each signed by its machine,
///    a member, and checked against what this machine saw: any contradiction stops the sync
///    before anything is written;
/// 4. admit machines that answer this machine's invites, state its own key change, and write
///    its changes as its next record, under the key in force (the attachment objects they
///    name uploaded first, and any object held here whose copy the remote lost);
/// 5. make the local vault show every entry's preferred head (`LocalDiff`);
/// 6. save the state, then push (git); if another machine pushed first, fetch and repeat 2–5;
/// 7. fetch the attachment objects entries here reference and the local store lacks.
///
/// The capture inboxes (a folder remote's, and the vault directory's through
/// `takeInVaultInbox`) are taken in after step 5, once the device records and revocations the
/// remote holds are in force here; what they brought is published at once, and the remote's
/// items are removed after step 6 (`SyncEngine+Inbox`).
public final class SyncEngine {
    /// How many times a push may lose to another machine's before the sync gives up.
    static let pushAttempts = 5

    let vault: Vault
    let setup: SyncSetup
    let tree: RemoteTree
    let git: GitRemote?
    let store: StateStore
    let chain: ChainFollower
    let diff: LocalDiff
    let progress: (SyncProgress) -> Void
    /// This machine's sync state and the keys it opens records with, as the sync changes them.
    var main: SyncMain
    var ring: SyncKeyRing
    /// Joining: the invite this machine answers with its first record.
    var invite: InviteCode?
    /// When false (sync told not to fetch attachments), attachment objects are not fetched: they
    /// stay pending until a later sync, or `fetchAttachments`. Uploads happen regardless: a
    /// record is never published before the objects it references.
    public var fetchesAttachments = true
    /// Takes the vault directory's own capture inbox in (the caller opened the vault without
    /// doing so): called when the remote's inbox is, after the remote was read.
    public var takeInVaultInbox: () throws -> Void = {}

    /// `passphrase` is asked when the passphrase is needed (see `PassphraseNeed`); it gives nil
    /// when none can be had.
    public init(
        vault: Vault, stateDirectory: URL, passphrase: @escaping (PassphraseNeed) throws -> SecretBytes? = { _ in nil },
        progress: @escaping (SyncProgress) -> Void = { _ in }
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
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        store = StateStore(directory: setup.directory, vaultID: vault.id, key: key)
        main = try store.readMain()
        ring = SyncKeyRing(current: key)
        for k in main.recordKeys where k.keyID != key.id {
            try ring.add(try SyncKey(recordKey: k.recordKey, generation: k.generation, vaultID: vault.id))
        }
        chain = ChainFollower(
            vault: vault, tree: tree, store: store, passphrase: SyncPassphrase(ask: passphrase), inFolder: git == nil)
        diff = LocalDiff(vault: vault, store: store, tree: tree)
        self.progress = progress
    }

    /// Runs one sync under this machine's sync lock.
    public func sync() throws -> SyncReport {
        try setup.lock.withLock(exclusive: true) {
            remoteAttachments.removeOwnTemporaries()
            try git?.cloneIfNeeded()
            var report = SyncReport()
            if let note = try chain.noteUnannouncedPassphraseChange(main: &main) { report.notes.append(note) }
            var local = try diff.localChanges(main: main, ring: ring)
            var published = false
            var takenIn: [RemoteInbox.Item] = []
            for attempt in 1...Self.pushAttempts {
                if let git { try fetch(git) }
                try checkMarker()
                let keyBefore = ring.current.id
                try savingTheChainOnRefusal { try chain.read(main: &main, ring: &ring, report: &report) }
                if ring.current.id != keyBefore {
                    // Following a rotation sealed every entry again: look at the rows anew, so
                    // that what sync knows of them names their new seals (same content).
                    let again = Array(
                        try diff.localChanges(main: main, ring: ring).dropFirst(main.pendingRevisions.count))
                    if attempt == 1 { local += again } else { main.pendingRevisions += again }
                }
                // Stated before the logs are read: a settle makes the fork's records readable.
                if main.isMember {
                    try savingTheChainOnRefusal {
                        try chain.publishPendingChange(main: &main, ring: &ring, report: &report)
                    }
                }
                try requestToJoin()
                let read = try readRemote(into: &report)
                var touched = read.touched
                if main.isMember { try chain.admit(read.joins, main: &main, ring: &ring, report: &report) }
                if attempt == 1 {
                    touched.formUnion(try publishOwn(local, into: &report))
                    published = main.pendingRevisions.isEmpty
                }
                if attempt == 1, main.isMember { try uploadMissingCopies(into: &report) }
                try SyncFaults.point("sync.published")
                try diff.apply(touched, main: &main, report: &report, progress: progress)
                if attempt == 1 { takenIn = try takeInInboxes(published: &published, into: &report) }
                try diff.saveState(main: &main)
                guard let git else { break }
                if try push(git) { break }
                if attempt == Self.pushAttempts {
                    throw SyncError.remoteUnusable(.otherMachinesPushedFirst(attempts: Self.pushAttempts))
                }
            }
            try? FileManager.default.removeItem(at: setup.recoveryOverriddenURL)
            removeTakenIn(takenIn, published: published, into: &report)
            try fetchPendingAttachments(into: &report)
            report.conflicts = main.conflicts.sorted { $0.uuidString < $1.uuidString }
            report.machines = main.logs.count
            if !main.isMember, main.chain.removal(of: main.machine) == nil { report.notes.append(.awaitingAdmission) }
            return report
        }
    }

    // MARK: The steps

    /// Runs `body`; when it refuses for a key change the user must make here (a rotation that
    /// met another, a fork), the chain read so far is saved first, so that the `rekey` asked for
    /// knows which generations it must go above.
    private func savingTheChainOnRefusal(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SyncError {
            switch error {
            case .concurrentRotation, .chainForked: try store.writeMain(main)
            case .recoveryKeyChangeOverridden(let machine):
                // Until it clears, a key or recovery change here would deepen the race.
                try? DurableFile.write(Array(machine.utf8), to: setup.recoveryOverriddenURL)
            default: break
            }
            throw error
        }
    }

    /// A machine joining with an invite: once the chain it read holds the statement the invite
    /// names, its first record asks to join, proving the invite's secret; nothing else is
    /// written until a member admits it.
    private func requestToJoin() throws {
        guard let invite, !main.isMember, (main.logs[main.machine]?.seen ?? 0) == 0 else { return }
        guard let named = main.chain.statements.first(where: { Array($0.hash.prefix(16)) == invite.head }),
            let head = main.chain.head
        else { throw SyncError.inviteNotForThisChain }
        let signing = try SigningKeyPair(secretKey: main.signingKey)
        let proof = try InviteCode.proof(
            secret: invite.secret, vaultID: vault.id, machine: main.machine, publicKey: signing.publicKey,
            name: main.machineName, head: named.hash)
        try tree.makeFolder(RemoteLayout.logDirectory + "/" + RemoteLayout.hex(main.machine))
        _ = try publish(
            [], epoch: head,
            join: JoinRequest(publicKey: signing.publicKey, inviteID: invite.inviteID, proof: proof))
    }

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
            if main.logs.values.contains(where: { $0.seen > 0 }) || !main.chain.statements.isEmpty {
                throw SyncError.untrustedRemote([.markerGone(file: RemoteLayout.marker)])
            }
            try tree.writeMarker(vaultID: vault.id)
        case .format1:
            throw SyncError.remoteOfFormat1
        case .unreadable:
            throw SyncError.remoteUnusable(.unknownMarker(path: tree.url(RemoteLayout.marker).path))
        case .vault(let id):
            guard id == vault.id else { throw SyncError.otherVault(id) }
        }
    }

    /// Reads every machine's new records and takes them in. Returns the entries they touched
    /// and the machines asking to join.
    private func readRemote(into report: inout SyncReport) throws -> (touched: Set<UUID>, joins: [LogScanner.Join]) {
        let scanner = LogScanner(tree: tree, vaultID: vault.id, me: main.machine, tidiesCopies: git == nil)
        let outcome = try scanner.scan(main: &main, ring: ring)
        guard outcome.findings.isEmpty else { throw SyncError.untrustedRemote(outcome.findings) }
        report.pending += outcome.pending
        report.notes += outcome.notes
        progress(.reading(records: outcome.records.count))
        var touched = Set<UUID>()
        for found in outcome.records { touched.formUnion(try ingest(found.record)) }
        return (touched, outcome.joins)
    }

    /// Takes one record's revisions into the heads. Returns the entries it touched.
    func ingest(_ record: SyncRecord) throws -> [UUID] {
        main.lamport = max(main.lamport, record.lamport)
        for revision in record.revisions {
            var heads = try store.entry(revision.entry) ?? EntryHeads()
            heads.add(revision, lamport: record.lamport, machine: record.machine)
            try store.setEntry(revision.entry, heads)
        }
        return record.revisions.map(\.entry)
    }
}
