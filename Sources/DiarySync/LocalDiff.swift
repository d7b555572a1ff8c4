import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The local vault's side of a sync: what changed in it since the last sync, showing each
/// entry's preferred head in it, and saving the state that says what sync last saw there.
final class LocalDiff {
    let vault: Vault
    let store: StateStore
    /// The index page tags when the local vault was last looked at.
    private var detectedTags: [[UInt8]] = []
    /// Index pages this sync wrote rows to.
    private var pagesWritten = Set<Int>()
    /// Digests of the entries changed locally since the last sync.
    private var changedHere: [UUID: [UInt8]] = [:]

    init(vault: Vault, store: StateStore) {
        self.vault = vault
        self.store = store
    }

    /// True when `entry` was changed in the local vault since the last sync.
    func wasChangedHere(_ entry: UUID) -> Bool { changedHere[entry] != nil }

    /// Revisions for what changed in the local vault since the last sync, with their parents
    /// taken from the heads as they were then, after the revisions made here and not yet
    /// published (resolutions). Only index pages whose tag moved are read, and on them only
    /// rows whose seal tag moved are looked at: the cost follows the changes.
    func localChanges(main: SyncMain) throws -> [Revision] {
        let current = vault.indexPageTags
        detectedTags = current
        let pages = (0..<current.count).filter {
            main.indexTags.count != current.count || main.indexTags[$0] != current[$0]
        }
        guard !pages.isEmpty else { return main.pendingRevisions }
        var byPage: [Int: [UUID: [UInt8]]] = [:]
        for (id, tag) in try vault.sealTags(onPages: pages) { byPage[Vault.indexPage(of: id), default: [:]][id] = tag }
        var revisions: [Revision] = []
        for number in pages {
            let now = byPage[number] ?? [:]
            let before = try store.seenRows(onIndexPage: number)
            for (id, tag) in now where before[id] != tag {
                if let revision = try revisionForRow(id, tag: tag) { revisions.append(revision) }
            }
            for id in before.keys where now[id] == nil {
                guard var gone = try store.entry(id), gone.sealTag != nil else { continue }
                revisions.append(
                    Revision(entry: id, id: SecureRandom.uuid(), parents: gone.parentsOfLocalChange, content: nil))
                changedHere[id] = Head.deletedDigest
                gone.sealTag = nil
                gone.shownDigest = Head.deletedDigest
                try store.setEntry(id, gone)
            }
            store.setSeenRows(now, onIndexPage: number)
        }
        return main.pendingRevisions + revisions
    }

    /// A row whose seal tag moved: a revision when its content changed.
    private func revisionForRow(_ id: UUID, tag: [UInt8]) throws -> Revision? {
        var heads = try store.entry(id) ?? EntryHeads()
        if heads.sealTag == tag { return nil }
        guard let entry = try vault.storedEntry(id) else { return nil }
        let digest = Head.digest(of: entry)
        var revision: Revision?
        // A new seal of the same content (a key rotation) is not a change.
        if digest != heads.shownDigest || heads.heads.isEmpty {
            let parents = heads.heads.isEmpty ? [] : heads.parentsOfLocalChange
            revision = Revision(entry: id, id: SecureRandom.uuid(), parents: parents, content: entry)
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
        for id in touched.sorted(by: { $0.uuidString < $1.uuidString }) {
            guard var heads = try store.entry(id), let preferred = heads.preferred else { continue }
            let wasConflict = main.conflicts.contains(id)
            if heads.isConflict {
                // A conflict needs every text; the one the local vault shows is there.
                for i in heads.heads.indices where heads.heads[i].content == nil && !heads.heads[i].deleted {
                    if heads.heads[i].digest == heads.shownDigest { heads.heads[i].content = try vault.storedEntry(id) }
                }
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
                if heads.sealTag == nil { report.added += 1 } else { report.changed += 1 }
            }
            plan.heads[id] = heads
        }
        if !plan.puts.isEmpty || !plan.deletes.isEmpty { try write(&plan, progress: progress) }
        for (id, var heads) in plan.heads {
            heads.compact()
            try store.setEntry(id, heads)
        }
    }

    /// Writes the plan's entries to the local vault; each one written now shows its preferred
    /// head (one another command changed meanwhile is skipped, and found next time).
    private func write(_ plan: inout Plan, progress: (SyncProgress) -> Void) throws {
        let total = plan.puts.count + plan.deletes.count
        progress(.applying(done: 0, total: total))
        let (tags, skipped) = try vault.applySynced(puts: plan.puts, deletes: plan.deletes, expected: plan.expected)
        for id in Set(plan.puts.map(\.id)).union(plan.deletes) where !skipped.contains(id) {
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
    }

    // MARK: Saving

    /// Saves the state. A written page's tag is recorded only when its rows are exactly what
    /// the state says they are: a write by another command during the sync is found next time.
    func saveState(main: inout SyncMain) throws {
        let now = vault.indexPageTags
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
    }
}
