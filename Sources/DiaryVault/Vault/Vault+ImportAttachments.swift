import DiaryCrypto
import DiaryStore
import Foundation

/// A file an imported entry brings: its name (checked before anything is stored) and how to
/// open it, called only when the entry is imported (not a duplicate), once.
public struct ImportFile {
    public var name: String
    public var open: () throws -> AttachmentInput

    public init(name: String, open: @escaping () throws -> AttachmentInput) {
        self.name = name
        self.open = open
    }
}

/// One entry to import and the files it brings.
public struct ImportItem {
    public var entry: Entry
    public var attachments: [ImportFile]

    public init(entry: Entry, attachments: [ImportFile] = []) {
        self.entry = entry
        self.attachments = attachments
    }
}

/// Items to import, given one at a time, the same each time it is called (see `ImportSource`).
public typealias ImportItemSource = (_ body: (ImportItem) throws -> Void) throws -> Void

/// The objects an import sealed before its entries' change, and the records of each entry.
struct ImportSealedFiles {
    var records: [UUID: [AttachmentRecord]] = [:]
    /// Every object written, kept or not, so that a failure removes them all.
    var objects: Set<UUID> = []
}

/// Which imported entries are duplicates: an id already in the vault or earlier in the import,
/// or a `source` already seen. Both readings that decide it (the sealing of files and the
/// storing of entries) use this, so they agree on every entry.
struct ImportDuplicates {
    private var knownSources: Set<String>
    private var seen = Set<UUID>()

    init(index: PagedIndex) {
        knownSources = Set(index.allRows().compactMap(\.summary.source))
    }

    /// The entry as it is stored: an empty source is none, tags and dates normalised.
    static func normalized(_ original: Entry) -> Entry {
        var entry = original
        if entry.source?.isEmpty == true { entry.source = nil }
        entry.tags = EntryText.normalizedTags(entry.tags)
        entry.date = CalendarDay.normalized(entry.date, isDay: entry.isCalendarDay)
        entry.created = Vault.truncated(entry.created)
        entry.modified = Vault.truncated(entry.modified)
        return entry
    }

    /// True for a duplicate; otherwise remembers the entry, so a later copy is one.
    mutating func isDuplicate(_ entry: Entry, in index: PagedIndex) -> Bool {
        let sourceSeen = entry.source.map { !knownSources.insert($0).inserted } ?? false
        if index[entry.id] != nil || seen.contains(entry.id) || sourceSeen { return true }
        seen.insert(entry.id)
        return false
    }
}

extension Vault {
    /// Refuses files an entry cannot hold (a bad or repeated name, too many), naming the
    /// entry's position, before anything is stored.
    static func validateImportedFiles(_ files: [ImportFile], position: Int) throws {
        guard files.count <= AttachmentLimits.maximumPerEntry else {
            let error = VaultError.tooManyAttachments(limit: AttachmentLimits.maximumPerEntry)
            throw VaultError.importRefused(position: position, detail: error.description)
        }
        var names = Set<String>()
        for file in files {
            let error: VaultError?
            if !AttachmentName.isValid(file.name) {
                error = .invalidAttachmentName(file.name)
            } else if !names.insert(AttachmentName.key(file.name)).inserted {
                error = .duplicateAttachment(file.name)
            } else {
                error = nil
            }
            if let error { throw VaultError.importRefused(position: position, detail: error.description) }
        }
    }

    /// Seals the files of every entry the import will store (duplicates decided first, so a
    /// second import reads and seals nothing), each object written before the entries'
    /// change. A file identical to one stored (under the current generation), or to one sealed
    /// earlier in this import, is stored once. Runs under the write lock.
    func sealImportedFiles(_ source: ImportItemSource, into sealed: inout ImportSealedFiles) throws {
        try sealedIndex.refreshUnderLock()
        guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
        try sealedIndex.ensureAllPages()
        let index = sealedIndex.index
        var duplicates = ImportDuplicates(index: index)
        var earlier: [[UInt8]: AttachmentRecord] = [:]
        try source { item in
            let entry = ImportDuplicates.normalized(item.entry)
            guard !duplicates.isDuplicate(entry, in: index), !item.attachments.isEmpty else { return }
            var records: [AttachmentRecord] = []
            for file in item.attachments {
                let record = try sealAttachment(try file.open())
                sealed.objects.insert(record.objectID)
                records.append(record)
            }
            let (deduplicated, _) = try deduplicated(records, in: index)
            sealed.records[entry.id] = deduplicated.map { record in
                guard record.isDedupable, sealed.objects.contains(record.objectID) else { return record }
                guard let first = earlier[record.dedupHash] else {
                    earlier[record.dedupHash] = record
                    return record
                }
                return Self.sharing(first, as: record)
            }
        }
    }

    /// `record` (its name, type and time) pointing at `stored`'s object.
    static func sharing(_ stored: AttachmentRecord, as record: AttachmentRecord) -> AttachmentRecord {
        AttachmentRecord(
            objectID: stored.objectID, streamKey: stored.streamKey, length: stored.length,
            storedHash: stored.storedHash, generation: stored.generation, dedupHash: stored.dedupHash,
            added: record.added, name: record.name, mediaType: record.mediaType)
    }
}
