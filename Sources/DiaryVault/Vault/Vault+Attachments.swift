import DiaryCrypto
import DiaryStore
import Foundation

/// Reads the next bytes of a file into the start of `buffer` (at most `buffer.count`) and
/// returns how many it wrote; 0 at the end of the file.
public typealias AttachmentSource = (_ buffer: inout [UInt8]) throws -> Int

/// A file to attach, as the caller will read it: the vault seals what `read` returns.
public struct AttachmentInput {
    /// The attachment's name in the entry (`AttachmentName.isValid`).
    public var name: String
    /// `type/subtype` (`AttachmentName.isValidMediaType`).
    public var mediaType: String
    /// When true, a file identical to one already stored (same dedup hash under the current
    /// key generation) is stored once and referenced twice.
    public var dedup: Bool
    /// When the file was attached; nil: now. An import gives the exported time, so that a
    /// lossless export comes back identical.
    public var added: Date?
    public var read: AttachmentSource

    public init(
        name: String, mediaType: String, dedup: Bool = true, added: Date? = nil, read: @escaping AttachmentSource
    ) {
        self.name = name
        self.mediaType = mediaType
        self.dedup = dedup
        self.added = added
        self.read = read
    }
}

extension Vault {
    /// Seals each file and adds it to entry `id`, in one atomic change; returns the entry as
    /// stored. A name the entry already has (up to letter case), a bad name, an empty file or
    /// one past 4 GiB is refused and nothing is stored: the objects sealed so far are removed.
    @discardableResult
    public func attach(_ inputs: [AttachmentInput], to id: UUID) throws -> Entry {
        try withSealedAttachments(inputs) { records in
            try write(ids: [id], allPages: true) { index in
                guard index[id] != nil else { throw VaultError.unknownID(id.uuidString.lowercased()) }
                var entry = try storedObject(id)
                guard entry.isEntry else { throw VaultError.unknownID(id.uuidString.lowercased()) }
                let (kept, duplicates) = try deduplicated(records, in: index)
                entry.attachments = try Self.merged(entry.attachments, kept)
                entry.modified = Self.now()
                let sealed = try sealEntry(entry)
                index[id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
                let leftovers = try unreferencedObjects(in: index, besides: records)
                return (StoreChange(putEntries: [id: sealed], deleteAttachments: duplicates.union(leftovers)), entry)
            }
        }
    }

    /// Adds an entry with attachments, in one atomic change (see `add` and `attach`).
    public func add(
        text: String, date: Date? = nil, dateIsDay: Bool = false, starred: Bool = false, tags: [String] = [],
        attachments inputs: [AttachmentInput]
    ) throws -> Entry {
        try Self.validate(text: text, tags: tags)
        return try withSealedAttachments(inputs) { records in
            var entry = Self.newEntry(text: text, date: date, dateIsDay: dateIsDay, starred: starred, tags: tags)
            return try write(ids: [entry.id], allPages: !records.isEmpty) { index in
                let (kept, duplicates) = try deduplicated(records, in: index)
                entry.attachments = try Self.merged([], kept)
                let sealed = try sealEntry(entry)
                index[entry.id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
                let leftovers = try unreferencedObjects(in: index, besides: records)
                return (
                    StoreChange(putEntries: [entry.id: sealed], deleteAttachments: duplicates.union(leftovers)), entry
                )
            }
        }
    }

    /// Removes the attachment `name` (matched up to letter case) from entry `id`; its object
    /// goes too unless another entry references it. Returns the entry as stored.
    @discardableResult
    public func detach(_ name: String, from id: UUID) throws -> Entry {
        try write(ids: [id], allPages: true) { index in
            guard index[id] != nil else { throw VaultError.unknownID(id.uuidString.lowercased()) }
            var entry = try storedObject(id)
            let key = AttachmentName.key(name)
            guard entry.isEntry,
                let position = entry.attachments.firstIndex(where: { AttachmentName.key($0.name) == key })
            else { throw VaultError.unknownAttachment(name) }
            let removed = entry.attachments.remove(at: position)
            entry.modified = Self.now()
            let sealed = try sealEntry(entry)
            index[id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            let orphaned = try unreferencedObjects(in: index, besides: [])
            return (StoreChange(putEntries: [id: sealed], deleteAttachments: orphaned), entry)
        }
    }

    /// Streams the plaintext of `record`'s object to `body`, chunk by chunk, checking every
    /// chunk. Throws `VaultError.attachmentMissing` when the object is not stored and
    /// `AttachmentError.damaged` when it fails a check: `body` may then have received part of
    /// it, so a caller writes what it receives out of sight and publishes it only once this
    /// returns.
    public func readAttachment(_ record: AttachmentRecord, to body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try storeCall {
            try backend.withSnapshot { reader in
                guard let stored = try reader.attachmentLength(record.objectID) else {
                    throw VaultError.attachmentMissing(record.objectID)
                }
                let opener = try AttachmentOpener(record: record, vaultID: id, storedLength: UInt64(stored))
                let found = try reader.readAttachment(record.objectID) { try opener.feed($0, emit: body) }
                guard found else { throw VaultError.attachmentMissing(record.objectID) }
                try opener.finish()
            }
        }
    }

    /// Objects in the store that no index row references: left by an attach a crash cut short
    /// (harmless: nothing can open them without a record). None while the store holds an entry
    /// the index lacks (one that does not open may reference any object).
    public func unreferencedAttachments() throws -> [UUID] {
        try storeCall {
            try sealedIndex.ensureAllPages()
            guard try unindexedEntries(of: sealedIndex.index).isEmpty else { return [] }
            let referenced = Self.referencedObjects(in: sealedIndex.index)
            return try backend.attachmentIDs().filter { !referenced.contains($0) }.sorted { $0.sortKey < $1.sortKey }
        }
    }

    /// Removes the objects `unreferencedAttachments` finds, under the write lock; returns how
    /// many (none while an entry does not open: see `sweepUnreferencedAttachments`).
    @discardableResult
    public func removeUnreferencedAttachments() throws -> Int {
        try sweepUnreferencedAttachments().removed
    }

    /// Removes the objects no index row references, under the write lock, unless the store
    /// holds an entry the index lacks (one that does not open: `reindex` leaves it out). Such
    /// an entry may reference any object, so nothing is removed and the entries are named.
    public func sweepUnreferencedAttachments() throws -> AttachmentSweep {
        try write(allPages: true) { index in
            let unindexed = try unindexedEntries(of: index)
            guard unindexed.isEmpty else { return (StoreChange(), AttachmentSweep(removed: 0, unopened: unindexed)) }
            let referenced = Self.referencedObjects(in: index)
            let orphans = Set(try backend.attachmentIDs().filter { !referenced.contains($0) })
            return (StoreChange(deleteAttachments: orphans), AttachmentSweep(removed: orphans.count, unopened: []))
        }
    }

    /// How many attachments (by entry and name) the index rows reference whose object the store
    /// does not hold: pending on a vault that syncs, lost on one that does not. No object is read.
    public func absentAttachmentCount() throws -> Int {
        try storeCall {
            try sealedIndex.ensureAllPages()
            let stored = Set(try backend.attachmentIDs())
            return sealedIndex.index.allRows().reduce(0) { count, row in
                count + row.summary.attachments.filter { !stored.contains($0.objectID) }.count
            }
        }
    }

    /// The entries the store holds that no row of `index` (every page read) names.
    func unindexedEntries(of index: PagedIndex) throws -> [UUID] {
        let indexed = Set(index.allRows().map(\.summary.id))
        return try backend.entryIDs().filter { !indexed.contains($0) }
            .sorted { $0.sortKey < $1.sortKey }
    }
}

extension Vault {
    /// Runs `body` with the records of `inputs` sealed into the store, all under the write
    /// lock (so no other writer can remove an object before the entry referencing it is
    /// committed); when `body` throws, the objects are removed again.
    func withSealedAttachments<T>(_ inputs: [AttachmentInput], _ body: ([AttachmentRecord]) throws -> T) throws -> T {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                var records: [AttachmentRecord] = []
                do {
                    for input in inputs { records.append(try sealAttachment(input)) }
                    return try body(records)
                } catch {
                    let written = Set(records.map(\.objectID))
                    if !written.isEmpty { try? backend.apply(StoreChange(deleteAttachments: written)) }
                    throw error
                }
            }
        }
    }

    /// Seals one file into a new object in the store and returns its record.
    func sealAttachment(_ input: AttachmentInput) throws -> AttachmentRecord {
        guard AttachmentName.isValid(input.name) else { throw VaultError.invalidAttachmentName(input.name) }
        guard AttachmentName.isValidMediaType(input.mediaType) else {
            throw VaultError.invalidAttachmentName(input.mediaType)
        }
        let keys = keyRing.current
        let objectID = SecureRandom.uuid()
        let key = try SecretStream.keygen()
        let sealer = try AttachmentSealer(
            vaultID: id, objectID: objectID, key: key, dedupKey: input.dedup ? keys.dedupKey : nil)
        var sealed: AttachmentSealer.Sealed?
        var buffer = [UInt8](repeating: 0, count: AttachmentLimits.chunkLength)
        defer { secureZero(&buffer) }
        try backend.putAttachment(objectID) { chunk in
            while true {
                let count = try input.read(&buffer)
                guard count > 0 else { break }
                try buffer.withUnsafeBytes {
                    try sealer.push(UnsafeRawBufferPointer(rebasing: $0[..<count]), emit: chunk)
                }
            }
            sealed = try sealer.finish(emit: chunk)
        }
        guard let sealed else { throw AttachmentError.empty }
        return AttachmentRecord(
            objectID: objectID, streamKey: key, length: sealed.length, storedHash: sealed.storedHash,
            generation: keys.generation, dedupHash: sealed.dedupHash,
            added: input.added.map(Self.truncated) ?? Self.now(),
            name: input.name,
            mediaType: input.mediaType)
    }

    /// `records` with each file identical to one already stored under the current generation
    /// pointing at the stored object instead (its key read from an entry that references it),
    /// and the objects made redundant by that.
    func deduplicated(_ records: [AttachmentRecord], in index: PagedIndex) throws -> ([AttachmentRecord], Set<UUID>) {
        let dedupable = records.filter(\.isDedupable)
        guard !dedupable.isEmpty else { return (records, []) }
        var stored: [[UInt8]: (entry: UUID, object: UUID)] = [:]
        for row in index.allRows() {
            for summary in row.summary.attachments where summary.dedupHash.contains(where: { $0 != 0 }) {
                guard summary.generation == keyRing.current.generation else { continue }
                stored[summary.dedupHash] = (row.summary.id, summary.objectID)
            }
        }
        var result: [AttachmentRecord] = []
        var redundant: Set<UUID> = []
        // Files sealed in this same change, so two identical ones in one call are stored once.
        var fresh: [[UInt8]: AttachmentRecord] = [:]
        for record in records {
            let original: AttachmentRecord?
            if !record.isDedupable {
                original = nil
            } else if let match = stored[record.dedupHash] {
                // A damaged or missing copy is not reused: the file just sealed replaces it
                // for this entry (attaching it again is how a user repairs one).
                original = try storedRecord(of: match.object, in: match.entry).flatMap {
                    try storedIntact($0) ? $0 : nil
                }
            } else {
                original = fresh[record.dedupHash]
            }
            guard let original else {
                if record.isDedupable { fresh[record.dedupHash] = record }
                result.append(record)
                continue
            }
            redundant.insert(record.objectID)
            result.append(
                AttachmentRecord(
                    objectID: original.objectID, streamKey: original.streamKey, length: original.length,
                    storedHash: original.storedHash, generation: original.generation, dedupHash: original.dedupHash,
                    added: record.added, name: record.name, mediaType: record.mediaType))
        }
        return (result, redundant)
    }

    /// The record of object `object` in entry `entry`, when the entry opens and holds it.
    private func storedRecord(of object: UUID, in entry: UUID) throws -> AttachmentRecord? {
        guard let sealed = try backend.readEntry(entry), let opened = try? openEntry(sealed, id: entry) else {
            return nil
        }
        return opened.attachments.first { $0.objectID == object }
    }

    /// True when `record`'s object is stored whole, as sealed: its stored bytes hash to the
    /// record's stored hash (read once; no decryption needed for that).
    private func storedIntact(_ record: AttachmentRecord) throws -> Bool {
        guard let length = try backend.attachmentLength(record.objectID),
            UInt64(length) == AttachmentObject.storedLength(for: record.length)
        else { return false }
        let hasher = BLAKE2b.Hasher()
        guard (try? backend.readAttachment(record.objectID) { hasher.update($0) }) == true else { return false }
        return constantTimeEquals(hasher.finish(), record.storedHash)
    }

    /// The objects in the store that no row of `index` references, but for those of
    /// `records` (being written): objects a killed attach left. Empty unless every page is
    /// read (only then are all references known) and every stored entry is in the index (one
    /// that does not open may reference any object). Called under the write lock, which every
    /// attach holds from its first sealed byte, so no object still being written is taken.
    func unreferencedObjects(in index: PagedIndex, besides records: [AttachmentRecord]) throws -> Set<UUID> {
        guard index.allPagesLoaded, try unindexedEntries(of: index).isEmpty else { return [] }
        var referenced = Self.referencedObjects(in: index)
        referenced.formUnion(records.map(\.objectID))
        return Set(try backend.attachmentIDs().filter { !referenced.contains($0) })
    }

    /// `existing` followed by `added`, refusing a name twice (up to letter case) or more
    /// attachments than an entry holds.
    static func merged(_ existing: [AttachmentRecord], _ added: [AttachmentRecord]) throws -> [AttachmentRecord] {
        // By key, the name as the entry has it: the error names the attachment already there.
        var names: [String: String] = [:]
        for record in existing { names[AttachmentName.key(record.name)] = record.name }
        for record in added {
            let key = AttachmentName.key(record.name)
            if let there = names[key] { throw VaultError.duplicateAttachment(there) }
            names[key] = record.name
        }
        let all = existing + added
        guard all.count <= AttachmentLimits.maximumPerEntry else {
            throw VaultError.tooManyAttachments(limit: AttachmentLimits.maximumPerEntry)
        }
        return all
    }

    /// Every object id some row of `index` references.
    static func referencedObjects(in index: PagedIndex) -> Set<UUID> {
        Set(index.allRows().flatMap { $0.summary.attachments.map(\.objectID) })
    }

    /// The objects of `candidates` no row of `index` (as changed) references any more.
    static func unreferenced(_ candidates: some Sequence<UUID>, in index: PagedIndex) -> Set<UUID> {
        let referenced = referencedObjects(in: index)
        return Set(candidates.filter { !referenced.contains($0) })
    }
}
