import DiaryStore
import Foundation

/// An index generation found, and the one this machine saw.
public struct GenerationPair: Sendable, Equatable {
    public var found: UInt64
    public var seen: UInt64
}

/// What comparing a vault with this machine's witness of it (`IndexWitness`) found.
public struct EntrySetReport: Sendable, Equatable {
    /// The vault's index is missing or damaged (its rows were rebuilt in memory from the
    /// entries). It is damage until `reindex`, and no other write proceeds meanwhile.
    public var indexDamaged = false
    /// This machine has no usable record of the vault: nothing deleted or rolled back before
    /// now can be detected. Only reported when it matters (the index is damaged).
    public var noRecord = false
    /// The index is authentic but older than the one this machine last saw.
    public var olderIndex: GenerationPair?
    /// The vault's key is older than the one this machine's record is sealed under: a copy
    /// from before a `rekey` was put back.
    public var olderKey = false
    /// Entries this machine saw that are gone (as the witness recorded them).
    public var missing: [EntrySummary] = []
    /// Entries whose stored copy is older than the one this machine saw (as stored now).
    public var older: [EntrySummary] = []
    /// When the witness was last brought up to date.
    public var seenOn: Date?
    /// This machine's record could not be read (damaged, or not a file we wrote): it said
    /// nothing, and was started again from the vault when the vault lost nothing.
    public var recordUnreadable = false
    /// The newest index generation this machine saw (when a full comparison ran): a repair
    /// continues above it, so the counter never goes back.
    public var seenGeneration: UInt64?

    /// A report of nothing found.
    public init() {}

    /// True when entries or their newer versions are gone, or the key went back: every command
    /// refuses until the user acts (`reindex --accept-older`, or a restore). An older index
    /// with every witnessed entry still there as it was loses nothing.
    public var isLoss: Bool { !missing.isEmpty || !older.isEmpty || olderKey }
}

/// The witness as found: absent, present but not readable with this vault's keys, or open.
private enum Witnessed {
    case none
    /// The key generation its root is sealed under (nil when not even that parses).
    case unreadable(keyGeneration: UInt32?)
    case index(SealedIndex, root: [UInt8])
}

extension Vault {
    /// Keeps `witness` up to date with every write of this vault from now on. `updated` is
    /// told after each attempt: nil when the witness followed, else why it could not (the
    /// write itself stood), so the owner of the witness hears of a failure when it happens.
    public func attach(_ witness: IndexWitness, updated: @escaping (Error?) -> Void = { _ in }) {
        sealedIndex.witness = witness
        sealedIndex.witnessUpdated = updated
    }

    /// Compares the vault's entry set with the attached witness's.
    ///
    /// The cheap case costs two small reads: the vault's index is intact and its root is the
    /// one the witness holds. A vault newer than the witness is compared on the pages that
    /// differ before the witness catches up, so a newer index cannot hide a loss. Anything
    /// else (an older index, a damaged one, another key) is compared in full under the write
    /// lock, where no writer is halfway, so concurrent writers never raise a false alarm;
    /// without the lock (read-only media) the comparison still runs, never silently skipped.
    public func checkEntrySet() throws -> EntrySetReport {
        guard let witness = sealedIndex.witness else { return EntrySetReport() }
        if let report = try quickCheck(witness) { return report }
        let locked: EntrySetReport
        do {
            locked = try storeCall {
                try backend.withWriteLock {
                    // Read again only what may have moved; a page found damaged since the root
                    // was read stays damaged (its pages are all checked again).
                    let wasDamaged = sealedIndex.state != .ok
                    let root = try backend.readIndex()
                    if sealedIndex.sealedRoot != root { try sealedIndex.load() }
                    if wasDamaged { try sealedIndex.ensureAllPages() }
                    if let report = try quickCheck(witness, locked: true) { return report }
                    return try fullCheck(witness)
                }
            }
        } catch {
            return try fullCheck(witness)
        }
        return locked
    }

    /// Nil when a full comparison is needed. Under the lock, a witness behind the vault (with
    /// nothing lost on the pages that differ) is brought up to date.
    private func quickCheck(_ witness: IndexWitness, locked: Bool = false) throws -> EntrySetReport? {
        guard sealedIndex.state == .ok else { return nil }
        // The common case, byte for byte, before opening the witness's root (a root grows with
        // the number of index pages: about 200 KiB at a million entries).
        if let root = sealedIndex.sealedRoot, sameBytes(try? witness.root(), root) { return EntrySetReport() }
        switch try witnessed(witness) {
        case .unreadable:
            return nil
        case .none:
            if locked { refresh(witness) }
            return locked ? EntrySetReport() : nil
        case .index(let seen, let seenRoot):
            if sameBytes(seenRoot, sealedIndex.sealedRoot) { return EntrySetReport() }
            guard sealedIndex.index.generation > seen.index.generation else { return nil }
            try sealedIndex.ensureAllDirectories()
            guard sealedIndex.state == .ok else { return nil }
            let current = sealedIndex.index.records
            let differing = seen.index.records.filter { current[$0.key]?.tag != $0.value.tag }.map(\.key)
            guard try compare(seen, pages: differing).isEmpty else { return nil }
            if locked { refresh(witness) }
            return locked ? EntrySetReport() : nil
        }
    }

    private func fullCheck(_ witness: IndexWitness) throws -> EntrySetReport {
        var report = EntrySetReport()
        try sealedIndex.ensureAllDirectories()
        report.indexDamaged = sealedIndex.state != .ok
        report.seenOn = witness.seenDate()
        switch try witnessed(witness) {
        case .none:
            report.noRecord = true
        case .unreadable(let keyGeneration):
            if let keyGeneration, keyGeneration > self.keyGeneration {
                report.olderKey = true
            } else {
                report.noRecord = true
                report.recordUnreadable = true
            }
        case .index(let seen, _):
            report.seenGeneration = seen.index.generation
            if !report.indexDamaged, sealedIndex.index.generation < seen.index.generation {
                report.olderIndex = GenerationPair(found: sealedIndex.index.generation, seen: seen.index.generation)
            }
            let (missing, older) = try compare(seen, pages: seen.index.records.keys).split()
            report.missing = missing.sorted(by: EntrySummary.newestFirst)
            report.older = older.sorted(by: EntrySummary.newestFirst)
        }
        // An older index that lost nothing (every witnessed entry there as it was) is only an
        // older counter: the witness follows the vault, so the next open is cheap again.
        if !report.indexDamaged, !report.isLoss, report.olderIndex != nil || report.noRecord {
            refresh(witness)
        }
        return report
    }

    /// What the witness records on its pages `pages` that the vault lost: rows with no entry
    /// now (missing), and rows whose entry is now an older copy. Only someone holding the key
    /// can make a newer copy; an older one is what a copy put back looks like. Equal times with
    /// another seal are a re-seal (`rekey`). The vault's pages that cover the same ids are
    /// read, whatever their layout (the witness may hold an index of the old version, or one
    /// whose pages were split since).
    private func compare(_ seen: SealedIndex, pages: some Sequence<Int>) throws -> [Lost] {
        let pages = Array(pages)
        try seen.ensurePages(pages)
        guard seen.state == .ok else { return [] }
        let heads = pages.map { IndexLayout.heads(ofPage: $0, version: seen.index.version) }
        let index = sealedIndex.index
        try sealedIndex.ensurePages(IndexLayout.pages(index.records.keys, version: index.version, overlapping: heads))
        let current = sealedIndex.index
        var lost: [Lost] = []
        for number in pages {
            guard let witnessed = seen.index.pages[number] else { continue }
            for i in 0..<witnessed.count {
                let row = witnessed.row(at: i)
                guard let page = current.pages[current.pageNumber(of: row.summary.id)] else { continue }
                guard let now = page.row(row.summary.id) else {
                    lost.append(.missing(row.summary))
                    continue
                }
                if now.sealTag != row.sealTag, now.summary.modified < row.summary.modified {
                    lost.append(.older(now.summary))
                }
            }
        }
        return lost
    }

    private func witnessed(_ witness: IndexWitness) throws -> Witnessed {
        // The record is this machine's, not the vault's: one that cannot be read (a file that
        // is not ours, too large, a FIFO) says nothing, and the report says so.
        let found: (store: any VaultStore, root: [UInt8]?)?
        do {
            found = try witness.open().map { store in (store, try storeCall { try store.readIndex() }) }
        } catch {
            return .unreadable(keyGeneration: nil)
        }
        guard let (store, root) = found, let root else { return .none }
        let unreadable = Witnessed.unreadable(keyGeneration: try? Envelope.peek(root, expecting: .index).generation)
        guard let seen = try? SealedIndex(backend: store, vaultID: id, keyRing: keyRing), seen.state == .ok else {
            return unreadable
        }
        // Every directory read at once: one that is damaged makes the record unreadable, and
        // one that cannot be read is an error, as a page that cannot be read is (never a
        // record of nothing, which would hide a loss).
        try seen.ensureAllDirectories()
        return seen.state == .ok ? .index(seen, root: root) : unreadable
    }

    /// Brings the witness up to date with the vault (the caller holds the write lock, or the
    /// vault was just found to have lost nothing). A failure is told to the witness's owner.
    private func refresh(_ witness: IndexWitness) {
        do {
            try sealedIndex.copyIndex(to: witness)
        } catch {
            sealedIndex.witnessUpdated(error)
        }
    }
}

private enum Lost {
    case missing(EntrySummary)
    case older(EntrySummary)
}

extension [Lost] {
    fileprivate func split() -> (missing: [EntrySummary], older: [EntrySummary]) {
        var missing: [EntrySummary] = []
        var older: [EntrySummary] = []
        for lost in self {
            switch lost {
            case .missing(let summary): missing.append(summary)
            case .older(let summary): older.append(summary)
            }
        }
        return (missing, older)
    }
}
