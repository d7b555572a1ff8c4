import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The local vault's side of a sync: what changed in it since the last sync, showing each
/// entry's preferred head in it, and saving the state that says what sync last saw there.
///
/// An entry sync saw that is gone from the local vault is published as a deletion only when it
/// was deleted here on purpose (`SyncDeletions`); otherwise the vault went back in time (an
/// older copy put back) and the entry is fetched back. After an older state was accepted here
/// (`SyncOlderState`), a changed row is published beside the current version, not over it.
final class LocalDiff {
    let vault: Vault
    let store: StateStore
    let tree: RemoteTree
    /// The index page tags when the local vault was last looked at.
    private var detectedTags: [[UInt8]] = []
    /// Index pages this sync wrote rows to (or whose rows it left for the next sync to look at).
    var pagesWritten = Set<Int>()
    /// Digests of the entries changed locally since the last sync.
    private var changedHere: [UUID: [UInt8]] = [:]
    /// The deletion journal as this sync read it: emptied of these once the state is saved.
    private var journal: Set<UUID> = []
    /// An older state was accepted here since the last sync.
    private var acceptedOlder = false
    /// Entries gone from the local vault that nobody deleted here, their text at hand: `apply`
    /// shows them again.
    var fetchingBack = Set<UUID>()
    /// What this sync has to say about the local vault, given to the report by `apply`.
    var notes: [SyncNote] = []

    init(vault: Vault, store: StateStore, tree: RemoteTree) {
        self.vault = vault
        self.store = store
        self.tree = tree
    }

    /// True when `entry` was changed in the local vault since the last sync.
    func wasChangedHere(_ entry: UUID) -> Bool { changedHere[entry] != nil }

    /// Revisions for what changed in the local vault since the last sync, with their parents
    /// taken from the heads as they were then, after the revisions made here and not yet
    /// published (resolutions). Only index pages whose tag moved are read, and on them only
    /// rows whose seal tag moved are looked at: the cost follows the changes.
    /// `ring` opens the records a missing entry's text is fetched back from.
    func localChanges(main: SyncMain, ring: SyncKeyRing) throws -> [Revision] {
        let current = try vault.indexPageTags
        detectedTags = current
        journal = try store.deletions()
        acceptedOlder = SyncOlderState.isNoted(in: store.directory)
        let pages = (0..<current.count).filter {
            main.indexTags.count != current.count || main.indexTags[$0] != current[$0]
        }
        guard !pages.isEmpty else { return main.pendingRevisions }
        var byPage: [Int: [UUID: [UInt8]]] = [:]
        for (id, tag) in try vault.sealTags(onPages: pages) { byPage[Vault.indexPage(of: id), default: [:]][id] = tag }
        var revisions: [Revision] = []
        var missing: [UUID] = []
        var publishedBeside: [UUID] = []
        for number in pages {
            let now = byPage[number] ?? [:]
            let before = try store.seenRows(onIndexPage: number)
            for (id, tag) in now where before[id] != tag {
                guard let (revision, beside) = try revisionForRow(id, tag: tag) else { continue }
                revisions.append(revision)
                if beside { publishedBeside.append(id) }
            }
            for id in before.keys where now[id] == nil {
                // Not shown here (sync itself or a resolution removed it): nothing to publish.
                guard var gone = try store.entry(id), gone.sealTag != nil else { continue }
                guard journal.contains(id) else {
                    missing.append(id)
                    continue
                }
                revisions.append(
                    Revision(entry: id, id: SecureRandom.uuid(), parents: gone.parentsOfLocalChange, content: nil))
                changedHere[id] = Head.deletedDigest
                gone.sealTag = nil
                gone.shownDigest = Head.deletedDigest
                try store.setEntry(id, gone)
            }
            store.setSeenRows(now, onIndexPage: number)
        }
        try fetchBack(missing, main: main, ring: ring)
        try keepTextsOfNewerHeads(publishedBeside, main: main, ring: ring)
        if !publishedBeside.isEmpty { notes.append(.olderEntriesPublishedBeside(count: publishedBeside.count)) }
        return main.pendingRevisions + revisions
    }

    /// A row whose seal tag moved: a revision when its content changed, and whether it was
    /// published beside the heads rather than over them (an older state accepted here: the
    /// row may be an old copy, which must not undo newer versions).
    private func revisionForRow(_ id: UUID, tag: [UInt8]) throws -> (Revision, beside: Bool)? {
        var heads = try store.entry(id) ?? EntryHeads()
        if heads.sealTag == tag { return nil }
        guard let entry = try vault.storedEntry(id) else { return nil }
        let digest = Head.digest(of: entry)
        var revision: (Revision, beside: Bool)?
        // A new seal of the same content (a key rotation) is not a change, nor is a row new to
        // sync looked at again in the same sync (after following a rotation): published once.
        if digest != heads.shownDigest || (heads.heads.isEmpty && changedHere[id] != digest) {
            let beside = acceptedOlder && !heads.heads.isEmpty
            let parents = heads.heads.isEmpty || beside ? [] : heads.parentsOfLocalChange
            revision = (Revision(entry: id, id: SecureRandom.uuid(), parents: parents, content: entry), beside)
            changedHere[id] = digest
        }
        heads.sealTag = tag
        heads.shownDigest = digest
        try store.setEntry(id, heads)
        return revision
    }

    // MARK: Applying to the vault

    /// What showing the preferred heads asks of the local vault.
    private struct Plan {
        var puts: [Entry] = []
        var deletes: [UUID] = []
        var expected: [UUID: [UInt8]?] = [:]
        var heads: [UUID: EntryHeads] = [:]
    }

    /// Shows each touched entry's preferred head in the local vault.
    func apply(
        _ touched: Set<UUID>, main: inout SyncMain, report: inout SyncReport, progress: (SyncProgress) -> Void
    ) throws {
        var plan = Plan()
        report.notes += notes
        notes = []
        for id in touched.union(fetchingBack).sorted(by: { $0.uuidString < $1.uuidString }) {
            guard var heads = try store.entry(id), heads.preferred != nil else { continue }
            let wasConflict = main.conflicts.contains(id)
            if heads.isConflict {
                // A conflict needs every text; the one the local vault shows is there.
                for i in heads.heads.indices where heads.heads[i].content == nil && !heads.heads[i].deleted {
                    if heads.heads[i].digest == heads.shownDigest { heads.heads[i].content = try vault.storedEntry(id) }
                }
                mergeWithoutAsking(id, &heads, main: &main)
            }
            guard let preferred = heads.preferred else { continue }
            if heads.isConflict {
                main.conflicts.insert(id)
                if !wasConflict { report.newConflicts.append(id) }
            } else {
                main.conflicts.remove(id)
            }
            if preferred.digest == heads.shownDigest {
                heads.shown = preferred.revision
            } else if preferred.deleted {
                plan.deletes.append(id)
                plan.expected[id] = .some(heads.sealTag)
                report.deleted += 1
            } else if let content = preferred.content {
                plan.puts.append(content)
                plan.expected[id] = .some(heads.sealTag)
                // One fetched back is counted apart (a note), not as added.
                if !fetchingBack.contains(id) {
                    if heads.sealTag == nil { report.added += 1 } else { report.changed += 1 }
                }
            }
            plan.heads[id] = heads
        }
        if !plan.puts.isEmpty || !plan.deletes.isEmpty {
            let fetched = fetchingBack.intersection(try write(&plan, progress: progress))
            if !fetched.isEmpty { report.notes.append(.entriesFetchedBack(count: fetched.count)) }
        }
        fetchingBack = []
        for (id, var heads) in plan.heads {
            heads.compact()
            try store.setEntry(id, heads)
        }
    }

    /// A template whose heads differ only in their prompt memories (`PromptMemoryMerge`), or a
    /// capture device whose heads differ only in the counters taken in and the revocation
    /// (`CaptureDeviceMerge`), gets one merged version at once, written here now and published
    /// by the next sync, as a resolution is.
    private func mergeWithoutAsking(_ id: UUID, _ heads: inout EntryHeads, main: inout SyncMain) {
        guard let merged = PromptMemoryMerge.merged(heads.heads) ?? CaptureDeviceMerge.merged(heads.heads) else {
            return
        }
        let revision = Revision(
            entry: id, id: SecureRandom.uuid(), parents: heads.heads.map(\.revision), content: merged)
        heads.add(revision, lamport: main.lamport + 1, machine: main.machine)
        main.pendingRevisions.append(revision)
    }

    /// Writes the plan's entries to the local vault; each one written now shows its preferred
    /// head (one another command changed meanwhile is skipped, and found next time). Returns
    /// the entries written.
    private func write(_ plan: inout Plan, progress: (SyncProgress) -> Void) throws -> Set<UUID> {
        let total = plan.puts.count + plan.deletes.count
        progress(.applying(done: 0, total: total))
        let (tags, skipped) = try vault.applySynced(puts: plan.puts, deletes: plan.deletes, expected: plan.expected)
        let written = Set(plan.puts.map(\.id)).union(plan.deletes).subtracting(skipped)
        for id in written {
            guard var heads = plan.heads[id], let preferred = heads.preferred else { continue }
            heads.shown = preferred.revision
            heads.shownDigest = preferred.digest
            heads.sealTag = tags[id]
            plan.heads[id] = heads
            let page = Vault.indexPage(of: id)
            var seen = try store.seenRows(onIndexPage: page)
            seen[id] = tags[id]
            store.setSeenRows(seen, onIndexPage: page)
            pagesWritten.insert(page)
        }
        progress(.applying(done: total, total: total))
        return written
    }

    // MARK: Saving

    /// Saves the state. A written page's tag is recorded only when its rows are exactly what
    /// the state says they are: a write by another command during the sync is found next time.
    func saveState(main: inout SyncMain) throws {
        let now = try vault.indexPageTags
        if main.indexTags.count != now.count { main.indexTags = detectedTags }
        for number in 0..<now.count {
            if pagesWritten.contains(number) {
                let rows = try vault.sealTags(onPages: [number])
                main.indexTags[number] =
                    try rows == store.seenRows(onIndexPage: number) ? now[number] : StateCodec.unknownTag
            } else if now[number] == detectedTags[number] {
                main.indexTags[number] = now[number]
            }
        }
        pagesWritten = []
        detectedTags = now
        main.headerDigest = ChainFollower.digest(ofHeader: vault.encodedHeader)
        try store.flushPages()
        try store.writeMain(main)
        // The rows are saved as they are now: a journal id was published as a deletion, or its
        // entry is still here (a deletion that did not happen), or was never seen by sync.
        if !journal.isEmpty {
            try store.setDeletions(try store.deletions().subtracting(journal))
            journal = []
        }
        if acceptedOlder {
            try SyncOlderState.clear(in: store.directory)
            acceptedOlder = false
        }
    }
}
