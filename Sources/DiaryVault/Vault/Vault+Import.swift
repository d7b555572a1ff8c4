import DiaryCrypto
import DiaryStore
import Foundation

/// What `importEntries` did.
public struct ImportOutcome: Sendable, Equatable {
    /// Entries added.
    public var imported: [UUID]
    /// Entries skipped because one with the same id or the same `source` is already there.
    public var duplicates: Int
    /// Attachments stored with the imported entries.
    public var attachments = 0
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
        try withoutActuallyEscaping(source) { source in
            try importEntries(items: { body in try source { try body(ImportItem(entry: $0)) } }, progress: progress)
        }
    }

    /// `importEntries(from:)` for entries that may bring files (`ImportItem`), read from
    /// `source` three times when any does: checked (names too), then, under the write lock,
    /// the files of the entries that are not duplicates are sealed into objects (before the
    /// entries' change, as `attach` does), then the entries are stored with them in one
    /// atomic change. If anything fails, the objects sealed are removed again.
    public func importEntries(
        items source: ImportItemSource, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ImportOutcome {
        var count = 0
        var withFiles = false
        try source { item in
            count += 1
            try Self.validateImported(item.entry, position: count)
            try Self.validateImportedFiles(item.attachments, position: count)
            withFiles = withFiles || !item.attachments.isEmpty
        }
        if count == 0 { return ImportOutcome(imported: [], duplicates: 0) }
        guard withFiles else { return try storeImported(source, sealed: ImportSealedFiles(), total: count, progress) }
        return try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                var sealed = ImportSealedFiles()
                do {
                    try sealImportedFiles(source, into: &sealed)
                    return try storeImported(source, sealed: sealed, total: count, progress)
                } catch {
                    if !sealed.objects.isEmpty { try? backend.apply(StoreChange(deleteAttachments: sealed.objects)) }
                    throw error
                }
            }
        }
    }

    /// The second (or third) reading: every entry stored, with the records `sealed` holds for
    /// it; the objects none of them ends up referencing are removed in the same change.
    private func storeImported(
        _ source: ImportItemSource, sealed: ImportSealedFiles, total: Int, _ progress: ((Int, Int) -> Void)?
    ) throws -> ImportOutcome {
        // Sources are compared against every entry, so every page takes part.
        try writeInParts { index, store in
            var batch = ImportBatchWriter(index: index, total: total, records: sealed.records, progress: progress)
            try withoutActuallyEscaping(store) { put in
                try source { item in try batch.add(item.entry, vault: self, index: &index, put: put) }
                try batch.flush(vault: self, index: &index, put: put)
            }
            progress?(batch.outcome.imported.count, batch.outcome.imported.count)
            let unused = sealed.objects.subtracting(Self.referencedObjects(in: index))
            return (StoreChange(deleteAttachments: unused), batch.outcome)
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
    private var duplicates: ImportDuplicates
    private var pending: [Entry] = []
    private var position = 0
    private let total: Int
    private let records: [UUID: [AttachmentRecord]]
    private let progress: ((Int, Int) -> Void)?

    init(index: PagedIndex, total: Int, records: [UUID: [AttachmentRecord]], progress: ((Int, Int) -> Void)?) {
        duplicates = ImportDuplicates(index: index)
        self.total = total
        self.records = records
        self.progress = progress
    }

    mutating func add(
        _ original: Entry, vault: Vault, index: inout PagedIndex, put: ([UUID: [UInt8]]) throws -> Void
    ) throws {
        // Checked again: the source is read anew, and a file may have changed since.
        position += 1
        try Vault.validateImported(original, position: position)
        var entry = ImportDuplicates.normalized(original)
        if duplicates.isDuplicate(entry, in: index) {
            outcome.duplicates += 1
            return
        }
        entry.attachments = records[entry.id] ?? []
        outcome.attachments += entry.attachments.count
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
