import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    // MARK: Reading

    /// The entry with this id, decrypted.
    ///
    /// Its sealed bytes must also hash to what the index recorded: an older sealed copy of
    /// the same entry put back in place authenticates (same id, same key), and only the
    /// index can tell it from the current one.
    public func entry(_ id: UUID) throws -> Entry {
        let entry = try storedObject(id)
        // A template or a device record is not an entry to any command that names an entry by id.
        guard entry.isEntry else { throw VaultError.unknownID(id.uuidString.lowercased()) }
        return entry
    }

    /// The entry or template with this id, decrypted and checked against the index.
    func storedObject(_ id: UUID) throws -> Entry {
        guard let sealed = try storeCall({ try backend.readEntry(id) }) else {
            throw VaultError.unknownID(id.uuidString.lowercased())
        }
        let entry: Entry
        do {
            entry = try openEntry(sealed, id: id)
        } catch {
            throw VaultError.entryDamaged(id, "\(error)")
        }
        if try !sealedIndex.recordsSeal(sealed, of: id) {
            // Another process may have written since our index was read: look again first.
            try sealedIndex.load()
            guard try sealedIndex.recordsSeal(sealed, of: id) else {
                throw VaultError.entryDamaged(id, "differs from the index (an older copy put back?)")
            }
        }
        return entry
    }

    func openEntry(_ sealed: [UInt8], id: UUID) throws -> Entry {
        try SealedEntry.open(sealed, id: id, vaultID: header.vaultID, keyRing: keyRing)
    }

    func sealEntry(_ entry: Entry) throws -> [UInt8] {
        try SealedEntry.seal(entry, vaultID: header.vaultID, keys: keyRing.current)
    }

    /// Entries matching `filter`, newest first by entry date, from the index alone.
    ///
    /// With a limit, pages are read newest first by the newest row the root records for each,
    /// and reading stops once no page left can hold a newer row: `list -n 10` reads about ten
    /// pages, not all of them, whatever the size of the vault.
    public func list(_ filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        guard filter.limit != nil else {
            try sealedIndex.ensureAllPages()
            var listing = IndexListing(filter: filter, indexVersion: sealedIndex.index.version)
            for page in sealedIndex.index.pages.values { listing.add(page) }
            return listing.summaries(from: sealedIndex.index)
        }
        let epoch = sealedIndex.epoch
        var listing = IndexListing(filter: filter, indexVersion: sealedIndex.index.version)
        // Pages and unread directories, newest first by the newest row each can hold.
        var order = Self.newestFirst(
            sealedIndex.index, pages: sealedIndex.index.records.keys, directories: sealedIndex.index.unreadDirectories)
        var next = 0
        while next < order.count, !listing.cannotImprove(with: order[next].newest) {
            if case .directory(let number) = order[next].source {
                try sealedIndex.ensureDirectories([number])
                guard sealedIndex.epoch == epoch else { return try list(filter) }
                let named = sealedIndex.index.pageNumbers(inDirectory: number)
                order = Array(order[(next + 1)...]) + Self.newestFirst(sealedIndex.index, pages: named, directories: [])
                order.sort { $1.newest < $0.newest }
                next = 0
                continue
            }
            // The pages before the next directory, up to 8 at a time.
            let chunk = order[next..<min(next + 8, order.count)].prefix { $0.source.page != nil }
            let numbers = chunk.compactMap(\.source.page)
            try sealedIndex.ensurePages(numbers)
            // The index was read again (another process wrote meanwhile) or rebuilt (a page was
            // damaged): the order above is stale, so start over on the index as it is now.
            guard sealedIndex.epoch == epoch else { return try list(filter) }
            for (item, number) in zip(chunk, numbers) where !listing.cannotImprove(with: item.newest) {
                listing.add(sealedIndex.index.page(ofNumber: number))
            }
            next = chunk.endIndex
        }
        return listing.summaries(from: sealedIndex.index)
    }

    /// Where a limited `list` may find rows: a page, or a directory not read yet.
    private enum ListSource {
        case page(Int)
        case directory(Int)

        var page: Int? {
            guard case .page(let number) = self else { return nil }
            return number
        }
    }

    /// `pages` and `directories` (those with rows), newest first by the newest key the root or
    /// a directory records for each.
    private static func newestFirst(
        _ index: PagedIndex, pages: some Sequence<Int>, directories: Set<Int>
    ) -> [(newest: ListKey, source: ListSource)] {
        var order: [(newest: ListKey, source: ListSource)] = []
        for number in pages {
            guard let record = index.records[number], record.rows > 0 else { continue }
            order.append((record.newest, .page(number)))
        }
        for number in directories {
            guard let record = index.directories?[number], record.rows > 0 else { continue }
            order.append((record.newest, .directory(number)))
        }
        return order.sorted { $1.newest < $0.newest }
    }

    /// Resolves a full UUID or a unique prefix of at least 4 hex digits (dashes ignored).
    public func resolve(_ idOrPrefix: String) throws -> UUID {
        let hex = String(idOrPrefix.lowercased().filter { $0 != "-" })  // no NSString bridging
        guard hex.count >= 4, hex.count <= 32, hex.allSatisfy(\.isHexDigit) else {
            throw VaultError.invalidID(idOrPrefix)
        }
        let epoch = sealedIndex.epoch
        try sealedIndex.ensureDirectories(overlapping: [IndexLayout.heads(forHexPrefix: Substring(hex))])
        guard sealedIndex.epoch == epoch else { return try resolve(idOrPrefix) }
        let pages = sealedIndex.index.pageNumbers(forHexPrefix: Substring(hex))
        try sealedIndex.ensurePages(pages)
        // Read again meanwhile (another process split a page): look again in the index as it is.
        guard sealedIndex.epoch == epoch else { return try resolve(idOrPrefix) }
        let index = sealedIndex.index
        // A full id names itself: no need to compare prefixes.
        // Templates and device records are not entries: no id or prefix names one (`IndexListing.passes`).
        if hex.count == 32, let id = UUID(uuidString: idOrPrefix), let row = index.page(of: id).row(id),
            row.summary.isEntry
        {
            return id
        }
        let nibbles = hex.compactMap(\.hexDigitValue).map(UInt8.init)
        var matches: [UUID] = []
        for number in pages {
            guard let page = index.pages[number] else { continue }  // rebuilt indexes hold all
            for i in 0..<page.count where page.id(ofRowAt: i).hasHexPrefix(nibbles) && page.isEntry(rowAt: i) {
                matches.append(page.id(ofRowAt: i))
            }
        }
        switch matches.count {
        case 0: throw VaultError.unknownID(idOrPrefix)
        case 1: return matches[0]
        default: throw VaultError.ambiguousID(idOrPrefix, matches: matches.sorted { $0.sortKey < $1.sortKey })
        }
    }

    // MARK: Writing

    /// Adds an entry. Text that is empty after trimming white space is refused, and nothing
    /// is stored. With `dateIsDay`, `date` stands for its whole local calendar day (`CalendarDay`).
    public func add(
        text: String, date: Date? = nil, dateIsDay: Bool = false, starred: Bool = false, tags: [String] = []
    ) throws -> Entry {
        try Self.validate(text: text, tags: tags)
        return try put(Self.newEntry(text: text, date: date, dateIsDay: dateIsDay, starred: starred, tags: tags))
    }

    /// A new entry under a fresh id, created and modified now (`add`'s rules for the date).
    static func newEntry(text: String, date: Date?, dateIsDay: Bool, starred: Bool, tags: [String]) -> Entry {
        let now = now()
        let isDay = date != nil && dateIsDay
        return Entry(
            id: SecureRandom.uuid(), text: text, date: CalendarDay.normalized(date ?? now, isDay: isDay),
            created: now, modified: now, starred: starred, tags: EntryText.normalizedTags(tags),
            isCalendarDay: isDay)
    }

    /// Changes what is given; the rest stays. Returns the entry as stored. Changing nothing
    /// writes nothing. `dateIsDay` as for `add`.
    @discardableResult
    public func update(
        _ id: UUID, text: String? = nil, date: Date? = nil, dateIsDay: Bool = false, starred: Bool? = nil,
        tags: [String]? = nil
    ) throws -> Entry {
        try Self.validate(text: text ?? "x", tags: tags ?? [])
        var entry = try entry(id)
        let before = entry
        if let text { entry.text = text }
        if let date {
            entry.date = CalendarDay.normalized(date, isDay: dateIsDay)
            entry.isCalendarDay = dateIsDay
        }
        if let starred { entry.starred = starred }
        if let tags { entry.tags = EntryText.normalizedTags(tags) }
        guard entry != before else { return before }
        entry.modified = Self.now()
        return try put(entry)
    }

    /// Deletes an entry, and the attachment objects no other entry references.
    public func delete(_ id: UUID) throws {
        // Which objects other entries still reference is known only with every page read;
        // read them all when the entry has attachments as last seen.
        try? sealedIndex.ensurePages(holding: [id])
        let hadAttachments = !(sealedIndex.index.rowIfRead(id)?.summary.attachments.isEmpty ?? true)
        try write(ids: [id], allPages: hadAttachments) { index in
            let stored = try backend.readEntry(id)
            let row = index[id]
            guard row != nil || stored != nil else {
                throw VaultError.unknownID(id.uuidString.lowercased())
            }
            index[id] = nil
            // Without every page (attachments added since we looked), the objects stay:
            // unreferenced, removed by a later write that sees the whole index.
            let orphaned = hadAttachments ? try unreferencedObjects(in: index, besides: []) : []
            return (StoreChange(deleteEntries: [id], deleteAttachments: orphaned), ())
        }
    }

    func put(_ entry: Entry) throws -> Entry {
        try write(ids: [entry.id]) { index in
            let sealed = try sealEntry(entry)
            index[entry.id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            return (StoreChange(putEntries: [entry.id: sealed]), entry)
        }
    }

    /// Refuses what the format cannot hold, before anything is sealed: blank or oversized
    /// text, too many tags, a tag or a source too long for its length field.
    static func validate(text: String, tags: [String], source: String? = nil) throws {
        if EntryText.isBlank(text) { throw VaultError.emptyText }
        let bytes = text.utf8.count
        if bytes > maximumTextBytes { throw VaultError.entryTooLarge(bytes: bytes, limit: maximumTextBytes) }
        if let long = tags.map(EntryText.normalizedTag).first(where: { $0.utf8.count > EntryText.maximumTagBytes }) {
            throw VaultError.invalidTag(bytes: long.utf8.count, limit: EntryText.maximumTagBytes)
        }
        let count = EntryText.normalizedTags(tags).count
        if count > maximumTags { throw VaultError.tooManyTags(count: count, limit: maximumTags) }
        if let source, source.utf8.count > EntryText.maximumSourceBytes {
            throw VaultError.invalidSource(bytes: source.utf8.count, limit: EntryText.maximumSourceBytes)
        }
    }

    /// Now, at the millisecond precision the format stores, so what `add` returns equals what
    /// a later read returns.
    static func now() -> Date { truncated(Date()) }
    static func truncated(_ d: Date) -> Date { Date(millisecondsSince1970: d.millisecondsSince1970) }
}
