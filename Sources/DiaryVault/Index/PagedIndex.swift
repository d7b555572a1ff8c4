import Foundation

/// The index as this process holds it: the root (generation, page directory) and the pages
/// read so far. Pages are read only when a command needs them (`SealedIndex.ensurePages`):
/// `show` reads one, `list -n 10` about ten; a write seals again only the pages it changed.
struct PagedIndex: Equatable {
    /// The index version (`IndexLayout`): only version 3 is written; a version-2 index is read
    /// until it is migrated (`migrated()`).
    var version: UInt8
    /// Grows with every write to the vault; lets a machine notice a rolled-back copy.
    var generation: UInt64
    /// Per page number, what the root records (or what this process will write).
    var records: [Int: PageRecord]
    /// The pages read so far (or built in memory).
    var pages: [Int: IndexPage] = [:]
    /// Pages changed in memory and not written yet.
    var dirty: Set<Int> = []
    /// Pages the store holds that the next write removes (split, or of the old layout).
    var removed: Set<Int> = []
    /// The recovery key's epoch and public key the root records (`IndexRoot.recovery`).
    var recovery: RecoveryBinding = .none
    /// The directories (root version 5, `IndexDirectory`) as the root records them, by number;
    /// nil for an index read from a root of an earlier version or built in memory, which is
    /// given directories when it is next sealed (`SealedIndex.sealDirectories`).
    var directories: [Int: DirectoryRecord]?
    /// Directories not read yet: the pages they name are not in `records`. A root of version 5
    /// is read alone, and `SealedIndex.ensureDirectories` reads the directories a command needs:
    /// `show` one, `list -n 10` about ten, whatever the size of the vault.
    var unreadDirectories: Set<Int> = []
    /// Bounds the depths of the pages, so finding an id's page tries only these.
    private var depths = IndexLayout.minimumDepth...IndexLayout.minimumDepth

    init(root: IndexRoot) {
        version = root.version
        generation = root.generation
        recovery = root.recovery
        directories = root.directories.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.number, $0.record) }) }
        if root.pages.isEmpty, let directories { unreadDirectories = Set(directories.keys) }
        records = [:]
        records.reserveCapacity(root.pages.count)
        for (number, record) in root.pages { records[number] = record }
        if version == IndexLayout.version, !root.pages.isEmpty {
            let found = root.pages.map { IndexLayout.depth(ofPage: $0.number) }
            depths = found.min()!...found.max()!
        }
    }

    /// Puts the pages directory `number` names (read and checked) in `records`.
    mutating func insertDirectory(_ number: Int, pages: [(number: Int, record: PageRecord)]) {
        guard unreadDirectories.remove(number) != nil else { return }
        for (page, record) in pages {
            records[page] = record
            let depth = IndexLayout.depth(ofPage: page)
            depths = min(depths.lowerBound, depth)...max(depths.upperBound, depth)
        }
    }

    /// The pages directory `number` names, in head order; it must have been read.
    func pageNumbers(inDirectory number: Int) -> [Int] {
        let heads = IndexDirectory.heads(of: number)
        let firstHead = { (page: Int) in IndexLayout.heads(ofPage: page, version: version).lowerBound }
        return records.keys.filter { heads.contains(firstHead($0)) }.sorted { firstHead($0) < firstHead($1) }
    }

    /// The directory covering `head` (the root names it whether or not it was read).
    func directory(ofHead head: Int) -> Int? {
        guard let directories else { return nil }
        for depth in 0...IndexDirectory.maximumDepth {
            let number = 1 << depth | head >> (IndexLayout.maximumDepth - depth)
            if directories[number] != nil { return number }
        }
        return nil
    }

    /// An index whose every page is in memory and waits to be written (a new vault, or one
    /// rebuilt from the entries): the pages of depth 6, each split while it holds too many rows.
    init(generation: UInt64, rows: some Sequence<IndexRow> = []) {
        version = IndexLayout.version
        self.generation = generation
        records = [:]
        let first = 1 << IndexLayout.minimumDepth
        var pages = (first..<2 * first).map { IndexPage(number: $0) }
        for row in rows { pages[IndexLayout.head(of: row.summary.id) >> 10].upsert(row) }
        for page in pages { place(page) }
        removed = []  // the halves of pages never stored
    }

    /// The root: its pages and, once it has them, its directories (version 5).
    var root: IndexRoot {
        IndexRoot(
            version: version, generation: generation, pages: numbers.map { ($0, records[$0]!) }, recovery: recovery,
            directories: orderedDirectories)
    }

    /// The root's plaintext as it is sealed: naming the directories when there are any.
    func encodedRoot() -> [UInt8] {
        guard let orderedDirectories else { return root.encoded() }
        return IndexRoot(
            version: version, generation: generation, pages: [], recovery: recovery, directories: orderedDirectories
        ).encoded()
    }

    /// The directories in head order.
    private var orderedDirectories: [(number: Int, record: DirectoryRecord)]? {
        directories?.sorted {
            IndexDirectory.heads(of: $0.key).lowerBound < IndexDirectory.heads(of: $1.key).lowerBound
        }
        .map { ($0.key, $0.value) }
    }

    /// Every page number, in head order.
    ///
    /// Pages partition the 65,536 heads, so no two start at the same head. A few hundred pages
    /// (every vault up to tens of thousands of entries) are sorted by their first heads, worked
    /// out once each. Past that, each page is set in the slot of its first head, which orders
    /// them without a comparison: at a million entries there are about 5,300 pages, and every
    /// write builds the root through this.
    var numbers: [Int] {
        precondition(unreadDirectories.isEmpty, "every directory is read before every page is named")
        guard records.count > Self.slotOrderAbove else {
            let ordered = records.keys.map { (head: IndexLayout.heads(ofPage: $0, version: version).lowerBound, $0) }
                .sorted { $0.head < $1.head }
            precondition(
                zip(ordered, ordered.dropFirst()).allSatisfy { $0.head < $1.head }, "the pages partition the heads")
            return ordered.map(\.1)
        }
        // Page number + 1 (version 2 has a page 0); 0: no page starts at this head.
        var slots = [Int32](repeating: 0, count: IndexLayout.headCount)
        for number in records.keys {
            slots[IndexLayout.heads(ofPage: number, version: version).lowerBound] = Int32(number + 1)
        }
        var ordered: [Int] = []
        ordered.reserveCapacity(records.count)
        for slot in slots where slot != 0 { ordered.append(Int(slot) - 1) }
        precondition(ordered.count == records.count, "the pages partition the heads")
        return ordered
    }

    /// True when the next write rewrites this index in the current version: pages of version
    /// 2, or a root naming pages rather than directories (versions 3 and 4).
    var needsMigration: Bool { version != IndexLayout.version || directories == nil }

    /// Below this many pages `numbers` sorts; filling 65,536 slots would cost more.
    static let slotOrderAbove = 512

    /// The number of entries, from the root and the directories read.
    var count: Int {
        records.values.reduce(0) { $0 + $1.rows } + unreadDirectories.reduce(0) { $0 + directories![$1]!.rows }
    }

    var allPagesLoaded: Bool { unreadDirectories.isEmpty && pages.count == records.count }

    /// `pageNumber(of:)`, or nil when the directory naming it was not read.
    func pageNumberIfRead(of id: UUID) -> Int? {
        if let directory = directory(ofHead: IndexLayout.head(of: id)), unreadDirectories.contains(directory) {
            return nil
        }
        return pageNumber(of: id)
    }

    /// `id`'s row, or nil when it has none or its directory or page was not read (a hint for
    /// a caller whose read may have failed; the write reads again under the lock).
    func rowIfRead(_ id: UUID) -> IndexRow? {
        pageNumberIfRead(of: id).flatMap { pages[$0] }?.row(id)
    }

    /// The number of the page that holds (or would hold) `id`'s row.
    func pageNumber(of id: UUID) -> Int {
        let head = IndexLayout.head(of: id)
        if version == IndexLayout.legacyVersion { return head >> 10 }
        for depth in depths {
            let number = 1 << depth | head >> (IndexLayout.maximumDepth - depth)
            if records[number] != nil { return number }
        }
        // Pages partition the ids (checked by `IndexRoot.decode`); the directory was read first.
        preconditionFailure("the page of an id is looked up before its directory is read")
    }

    /// The numbers of the pages that can hold an id starting with these hex digits (of the
    /// directories read: `SealedIndex.ensureDirectories(overlapping:)`).
    func pageNumbers(forHexPrefix hex: Substring) -> [Int] {
        let wanted = IndexLayout.heads(forHexPrefix: hex)
        return records.keys.filter { IndexLayout.heads(ofPage: $0, version: version).overlaps(wanted) }
    }

    /// The page holding `id`'s row; it must have been loaded.
    func page(of id: UUID) -> IndexPage { page(ofNumber: pageNumber(of: id)) }

    /// Page `number`; it must have been loaded.
    func page(ofNumber number: Int) -> IndexPage {
        guard let page = pages[number] else { preconditionFailure("index page \(number) used before it was loaded") }
        return page
    }

    subscript(id: UUID) -> IndexRow? {
        get { page(of: id).row(id) }
        set {
            precondition(version == IndexLayout.version, "a version-2 index is migrated before it is written")
            var page = page(of: id)
            if let newValue {
                precondition(newValue.summary.id == id)
                page.upsert(newValue)
            } else if !page.remove(id) {
                return
            }
            place(page)
        }
    }

    /// Puts a changed page in place, split into halves (recursively) while it holds more than
    /// `IndexLayout.maximumRows` rows; a split page is removed from the store on the next write.
    private mutating func place(_ page: IndexPage) {
        if page.count > IndexLayout.maximumRows, IndexLayout.depth(ofPage: page.number) < IndexLayout.maximumDepth {
            let (low, high) = page.halves()
            pages[page.number] = nil
            records[page.number] = nil
            dirty.remove(page.number)
            removed.insert(page.number)
            place(low)
            place(high)
            return
        }
        let depth = IndexLayout.depth(ofPage: page.number)
        depths = min(depths.lowerBound, depth)...max(depths.upperBound, depth)
        pages[page.number] = page
        records[page.number] = PageRecord(
            rows: page.count, newest: page.newestKey(), tag: records[page.number]?.tag ?? PageRecord.empty.tag)
        dirty.insert(page.number)
        removed.remove(page.number)
    }

    /// Every row; every page must have been loaded.
    func allRows() -> [IndexRow] {
        numbers.flatMap { number -> [IndexRow] in
            let page = page(ofNumber: number)
            return (0..<page.count).map(page.row(at:))
        }
    }

    /// This index in the current version, every page in memory and marked to be written, the
    /// old pages marked to be removed; every page must have been loaded.
    func migrated() -> PagedIndex {
        guard version != IndexLayout.version else { return self }
        var next = PagedIndex(generation: generation, rows: allRows())
        next.recovery = recovery
        next.removed = Set(records.keys)
        return next
    }

    /// Marks every page to be sealed again (a key rotation); every page must have been loaded.
    mutating func markAllDirty() {
        precondition(unreadDirectories.isEmpty, "every directory is read before every page is sealed again")
        dirty = Set(records.keys)
    }
}
