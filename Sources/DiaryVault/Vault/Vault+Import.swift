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
            var puts: [UUID: [UInt8]] = [:]
            var outcome = ImportOutcome(imported: [], duplicates: 0)
            for (n, original) in entries.enumerated() {
                var entry = original
                if entry.source?.isEmpty == true { entry.source = nil }  // empty means none
                entry.tags = EntryText.normalizedTags(entry.tags)
                entry.date = CalendarDay.normalized(entry.date, isDay: entry.isCalendarDay)
                entry.created = Self.truncated(entry.created)
                entry.modified = Self.truncated(entry.modified)
                let sourceSeen = entry.source.map { !knownSources.insert($0).inserted } ?? false
                if index[entry.id] != nil || puts[entry.id] != nil || sourceSeen {
                    outcome.duplicates += 1
                    continue
                }
                let sealed = try sealEntry(entry)
                puts[entry.id] = sealed
                index[entry.id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
                outcome.imported.append(entry.id)
                if (n + 1) % 256 == 0 { progress?(n + 1, entries.count) }
            }
            progress?(entries.count, entries.count)
            return (StoreChange(putEntries: puts), outcome)
        }
    }
}
