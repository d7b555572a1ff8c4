import Foundation

/// The index as this process holds it: the root (generation, row counts, page tags) and the
/// pages read so far. Pages are read only when a command needs them (`SealedIndex.ensurePages`):
/// `show` reads one, `list` all of them; a write seals again only the pages it changed.
struct PagedIndex: Equatable {
    /// Grows with every write to the vault; lets a machine notice a rolled-back copy.
    var generation: UInt64
    /// nil: not read yet.
    var pages: [IndexPage?]
    /// Per page, the tag of the sealed copy the root names (or that this process wrote).
    var tags: [[UInt8]]
    var counts: [Int]
    /// Per page, the list key of its newest row (zero when empty), as in the root.
    var newest: [ListKey]
    /// Pages changed in memory and not written yet.
    var dirty: Set<Int> = []

    init(root: IndexRoot) {
        generation = root.generation
        pages = Array(repeating: nil, count: IndexLayout.pageCount)
        tags = root.tags
        counts = root.counts
        newest = root.newest
    }

    /// An index whose every page is in memory and waits to be written (a new vault, or one
    /// rebuilt from the entries).
    init(generation: UInt64, rows: some Sequence<IndexRow> = []) {
        self.generation = generation
        var pages = (0..<IndexLayout.pageCount).map { IndexPage(number: $0) }
        for row in rows { pages[IndexLayout.page(of: row.summary.id)].upsert(row) }
        self.pages = pages
        tags = Array(repeating: [UInt8](repeating: 0, count: IndexRoot.tagLength), count: IndexLayout.pageCount)
        counts = pages.map(\.count)
        newest = pages.map { $0.newestKey() }
        dirty = Set(0..<IndexLayout.pageCount)
    }

    var root: IndexRoot { IndexRoot(generation: generation, counts: counts, newest: newest, tags: tags) }

    /// The number of entries, from the root alone.
    var count: Int { counts.reduce(0, +) }

    var allPagesLoaded: Bool { !pages.contains(nil) }

    /// The page holding `id`'s row; it must have been loaded.
    func page(of id: UUID) -> IndexPage {
        guard let page = pages[IndexLayout.page(of: id)] else {
            preconditionFailure("index page \(IndexLayout.page(of: id)) used before it was loaded")
        }
        return page
    }

    /// Page `number`; it must have been loaded.
    func page(ofNumber number: Int) -> IndexPage {
        guard let page = pages[number] else { preconditionFailure("index page \(number) used before it was loaded") }
        return page
    }

    subscript(id: UUID) -> IndexRow? {
        get { page(of: id).row(id) }
        set {
            var page = page(of: id)
            if let newValue {
                precondition(newValue.summary.id == id)
                page.upsert(newValue)
            } else if !page.remove(id) {
                return
            }
            pages[page.number] = page
            counts[page.number] = page.count
            newest[page.number] = page.newestKey()
            dirty.insert(page.number)
        }
    }

    /// Every row; every page must have been loaded.
    func allRows() -> [IndexRow] {
        pages.flatMap { page -> [IndexRow] in
            guard let page else { preconditionFailure("index page used before it was loaded") }
            return (0..<page.count).map(page.row(at:))
        }
    }

    /// Marks every page to be sealed again (a key rotation).
    mutating func markAllDirty() { dirty = Set(0..<IndexLayout.pageCount) }
}
