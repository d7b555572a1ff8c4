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

/// Entries to import, given one at a time: `forEach` calls its body with each in order, and
/// may be called more than once (an import reads the entries twice: once to check them all,
/// with nothing written, then to store them), giving the same entries each time.
public typealias ImportSource = (_ body: (Entry) throws -> Void) throws -> Void

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
        try importEntries(from: { body in try entries.forEach(body) }, progress: progress)
    }

    /// `importEntries`, with the entries read from `source` twice: first each is checked
    /// (nothing written; the first invalid one refuses the import, as above), then each is
    /// sealed and stored a batch at a time into the one atomic change. Memory holds a batch of
    /// entries, not all of them. With no entries at all nothing is written. An error `source`
    /// throws refuses the import, in either reading.
    public func importEntries(
        from source: ImportSource, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        var count = 0
        try source { entry in
            count += 1
            try Self.validateImported(entry, position: count)
        }
        if count == 0 { return ImportOutcome(imported: [], duplicates: 0) }
        // Sources are compared against every entry, so every page takes part.
        return try writeInParts { index, store in
            var batch = ImportBatchWriter(index: index, total: count, progress: progress)
            try withoutActuallyEscaping(store) { put in
                try source { entry in try batch.add(entry, vault: self, index: &index, put: put) }
                try batch.flush(vault: self, index: &index, put: put)
            }
            progress?(batch.outcome.imported.count, batch.outcome.imported.count)
            return (StoreChange(), batch.outcome)
        }
    }

    /// Refuses an entry the format cannot hold, naming its position (counted from 1).
    static func validateImported(_ entry: Entry, position: Int) throws {
        do {
            try validate(text: entry.text, tags: entry.tags, source: entry.source)
        } catch let error as VaultError {
            throw VaultError.importRefused(position: position, detail: error.description)
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

/// The second reading of an import: each entry normalised, duplicates skipped, and the rest
/// sealed on every core a batch at a time and handed to the store.
private struct ImportBatchWriter {
    var outcome = ImportOutcome(imported: [], duplicates: 0)
    private var knownSources: Set<String>
    private var seen = Set<UUID>()
    private var pending: [Entry] = []
    private var position = 0
    private let total: Int
    private let progress: ((Int, Int) -> Void)?

    init(index: PagedIndex, total: Int, progress: ((Int, Int) -> Void)?) {
        knownSources = Set(index.allRows().compactMap(\.summary.source))
        self.total = total
        self.progress = progress
    }

    mutating func add(
        _ original: Entry, vault: Vault, index: inout PagedIndex, put: ([UUID: [UInt8]]) throws -> Void
    ) throws {
        // Checked again: the source is read anew, and a file may have changed since.
        position += 1
        try Vault.validateImported(original, position: position)
        var entry = original
        if entry.source?.isEmpty == true { entry.source = nil }  // empty means none
        entry.tags = EntryText.normalizedTags(entry.tags)
        entry.date = CalendarDay.normalized(entry.date, isDay: entry.isCalendarDay)
        entry.created = Vault.truncated(entry.created)
        entry.modified = Vault.truncated(entry.modified)
        let sourceSeen = entry.source.map { !knownSources.insert($0).inserted } ?? false
        if index[entry.id] != nil || seen.contains(entry.id) || sourceSeen {
            outcome.duplicates += 1
            return
        }
        seen.insert(entry.id)
        pending.append(entry)
        if pending.count == ParallelBatch.size * 4 { try flush(vault: vault, index: &index, put: put) }
    }

    /// Seals the pending entries (nearly all of an import's work, each entry independent: on
    /// every core) and hands them to the store.
    mutating func flush(vault: Vault, index: inout PagedIndex, put: ([UUID: [UInt8]]) throws -> Void) throws {
        guard !pending.isEmpty else { return }
        var puts: [UUID: [UInt8]] = [:]
        puts.reserveCapacity(pending.count)
        for (entry, sealed) in zip(pending, try vault.sealInParallel(pending)) {
            puts[entry.id] = sealed.bytes
            index[entry.id] = sealed.row
            outcome.imported.append(entry.id)
        }
        pending = []
        try put(puts)
        progress?(outcome.imported.count, total - outcome.duplicates)
    }
}
