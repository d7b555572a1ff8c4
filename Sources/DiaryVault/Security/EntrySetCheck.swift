import DiaryStore
import Foundation

/// What comparing a vault with this machine's witness of it (`IndexWitness`) found.
public struct EntrySetReport: Sendable, Equatable {
    /// The vault's index is missing or damaged (its rows were rebuilt in memory from the
    /// entries). It is damage until `reindex`, and no other write proceeds meanwhile.
    public var indexDamaged = false
    /// This machine has no usable record of the vault: nothing deleted or rolled back before
    /// now can be detected. Only reported when it matters (the index is damaged).
    public var noRecord = false
    /// The index is authentic but older than the one this machine last saw.
    public var olderIndex: (found: UInt64, seen: UInt64)?
    /// Entries this machine saw that are gone (as the witness recorded them).
    public var missing: [EntrySummary] = []
    /// Entries whose stored copy is older than the one this machine saw (as stored now).
    public var older: [EntrySummary] = []
    /// When the witness was last brought up to date.
    public var seenOn: Date?
    /// The newest index generation this machine saw (when a full comparison ran): a repair
    /// continues above it, so the counter never goes back.
    public var seenGeneration: UInt64?

    /// True when entries or their newer versions are gone, or the whole index went back:
    /// every command refuses until the user acts (`reindex --accept-older`, or a restore).
    public var isLoss: Bool { !missing.isEmpty || !older.isEmpty || olderIndex != nil }

    /// A report of nothing found.
    public init() {}

    init(indexDamaged: Bool, seenOn: Date?) {
        self.indexDamaged = indexDamaged
        self.seenOn = seenOn
    }

    public static func == (a: EntrySetReport, b: EntrySetReport) -> Bool {
        a.indexDamaged == b.indexDamaged && a.noRecord == b.noRecord && a.olderIndex?.found == b.olderIndex?.found
            && a.olderIndex?.seen == b.olderIndex?.seen && a.missing == b.missing && a.older == b.older
            && a.seenOn == b.seenOn && a.seenGeneration == b.seenGeneration
    }
}

extension Vault {
    /// Keeps `witness` up to date with every write of this vault from now on.
    public func attach(_ witness: IndexWitness) { sealedIndex.witness = witness }

    /// Why the last write could not update the witness, if it could not.
    public var witnessFailure: Error? { sealedIndex.witnessFailure }

    /// Compares the vault's entry set with the attached witness's.
    ///
    /// The cheap case costs one small read: the vault's index is intact and at least as new as
    /// the witness. A witness that is missing (first sight) or behind (another writer, or a
    /// write interrupted before the witness was updated) is brought up to date under the write
    /// lock. Only when the vault looks older, or its index is damaged, are both read in full;
    /// an older look is first checked again under the lock, where no writer can be halfway,
    /// so that concurrent writers never raise a false alarm.
    public func checkEntrySet() throws -> EntrySetReport {
        guard let witness = sealedIndex.witness else { return EntrySetReport() }
        if let report = try quickCheck(witness) { return report }
        return try storeCall {
            try backend.withWriteLock {
                try sealedIndex.load()
                if let report = try quickCheck(witness) { return report }
                return try fullCheck(witness)
            }
        }
    }

    /// Nil when a full comparison is needed.
    private func quickCheck(_ witness: IndexWitness) throws -> EntrySetReport? {
        guard sealedIndex.state == .ok else { return nil }
        guard let seen = try openWitness(witness) else {
            try storeCall { try backend.withWriteLock { try sealedIndex.copyIndex(to: witness) } }
            return EntrySetReport()
        }
        guard sealedIndex.index.generation >= seen.index.generation else { return nil }
        if sealedIndex.index.generation > seen.index.generation {
            try storeCall { try backend.withWriteLock { try sealedIndex.copyIndex(to: witness) } }
        }
        return EntrySetReport()
    }

    private func fullCheck(_ witness: IndexWitness) throws -> EntrySetReport {
        var report = EntrySetReport(indexDamaged: sealedIndex.state != .ok, seenOn: witness.seenDate())
        guard let seen = try openWitness(witness) else {
            report.noRecord = true
            return report
        }
        report.seenGeneration = seen.index.generation
        if !report.indexDamaged, sealedIndex.index.generation < seen.index.generation {
            report.olderIndex = (sealedIndex.index.generation, seen.index.generation)
        }
        try seen.ensureAllPages()
        try sealedIndex.ensureAllPages()
        guard seen.state == .ok else {
            report.noRecord = true
            return report
        }
        let now = sealedIndex.index
        for row in seen.index.allRows() {
            let id = row.summary.id
            guard let current = now.pages[IndexLayout.page(of: id)]?.row(id) else {
                report.missing.append(row.summary)
                continue
            }
            // Only someone holding the key can make a newer copy; an older one is what a
            // copy put back looks like. Equal times with another seal are a re-seal (rekey).
            if current.sealTag != row.sealTag, current.summary.modified < row.summary.modified {
                report.older.append(current.summary)
            }
        }
        report.missing.sort(by: EntrySummary.newestFirst)
        report.older.sort(by: EntrySummary.newestFirst)
        return report
    }

    /// The witness's index, opened with this vault's keys; nil when there is none, or it
    /// cannot be read (then it says nothing, and is replaced by the next write).
    private func openWitness(_ witness: IndexWitness) throws -> SealedIndex? {
        guard let store = try? witness.open(),
              let seen = try? SealedIndex(backend: store, vaultID: id, keyRing: keyRing), seen.state == .ok
        else { return nil }
        return seen
    }
}
