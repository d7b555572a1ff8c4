import DiaryCrypto
import DiaryStore
import Foundation

/// What `importEntries` did.
public struct ImportOutcome: Sendable, Equatable {
    /// Entries added.
    public var imported: [UUID]
    /// Entries skipped because one with the same id or the same `source` is already there.
    public var duplicates: Int
}

extension Vault {
    /// Adds many entries in one atomic change: all of them are stored, or none.
    ///
    /// Each entry keeps its id, dates, star, tags and source exactly (so a lossless export
    /// comes back identical). An entry whose id, or whose non-nil `source`, is already in the
    /// vault (or earlier in `entries`) is a duplicate and skipped, which makes a second
    /// import of the same file add nothing. Invalid text (blank, too large) refuses the whole
    /// import, naming the entry's position.
    public func importEntries(
        _ entries: [Entry], progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        for (n, entry) in entries.enumerated() {
            do {
                try Self.validate(text: entry.text, tags: entry.tags, source: entry.source)
            } catch let error as VaultError {
                throw VaultError.importRefused(position: n + 1, detail: error.description)
            }
        }
        // Sources are compared against every entry, so every page takes part.
        return try write(allPages: true) { index in
            var knownSources = Set(index.allRows().compactMap(\.summary.source))
            var accepted: [Entry] = []
            var seen = Set<UUID>()
            var outcome = ImportOutcome(imported: [], duplicates: 0)
            for original in entries {
                var entry = original
                if entry.source?.isEmpty == true { entry.source = nil }  // empty means none
                entry.tags = EntryText.normalizedTags(entry.tags)
                entry.date = CalendarDay.normalized(entry.date, isDay: entry.isCalendarDay)
                entry.created = Self.truncated(entry.created)
                entry.modified = Self.truncated(entry.modified)
                let sourceSeen = entry.source.map { !knownSources.insert($0).inserted } ?? false
                if index[entry.id] != nil || seen.contains(entry.id) || sourceSeen {
                    outcome.duplicates += 1
                    continue
                }
                seen.insert(entry.id)
                accepted.append(entry)
            }
            var puts: [UUID: [UInt8]] = [:]
            puts.reserveCapacity(accepted.count)
            for start in stride(from: 0, to: accepted.count, by: ParallelBatch.size * 4) {
                let batch = Array(accepted[start..<min(start + ParallelBatch.size * 4, accepted.count)])
                // Sealing (and the summary's title) is nearly all of an import's work, and each
                // entry is independent: a batch at a time on every core.
                for (entry, sealed) in zip(batch, try sealInParallel(batch)) {
                    puts[entry.id] = sealed.bytes
                    index[entry.id] = sealed.row
                    outcome.imported.append(entry.id)
                }
                progress?(start + batch.count, accepted.count)
            }
            progress?(accepted.count, accepted.count)
            return (StoreChange(putEntries: puts), outcome)
        }
    }

    /// Each entry sealed under the current key, with its index row.
    func sealInParallel(_ batch: [Entry]) throws -> [(bytes: [UInt8], row: IndexRow)] {
        let (vaultID, keys) = (header.vaultID, keyRing.current)
        return try ParallelBatch.map(batch) { entry in
            Result {
                let sealed = try SealedEntry.seal(entry, vaultID: vaultID, keys: keys)
                return (sealed, IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed)))
            }
        }.map { try $0.get() }
    }
}
