import Foundation

/// The pages of an index, found by an id's head (`IndexLayout.head(of:)`) in a flat table: a
/// search looks up the page of every entry it reads, and `PagedIndex.page(of:)` hashes a page
/// number once per depth tried and once more for the page.
///
/// Made once per search, after every page is loaded; it answers as `PagedIndex.page(of:)`.
struct PageTable {
    private let index: PagedIndex
    /// The pages, boxed so that `withPage` can lend one without a retain (`LentObjects`).
    private let pages: LentObjects<PageBox>

    private final class PageBox {
        let page: IndexPage
        init(_ page: IndexPage) { self.page = page }
    }

    /// For each head, the position in `pages` of the page that holds its ids; -1 for a head
    /// whose page is not loaded (then `PagedIndex.page(of:)` answers, and traps as it does).
    private let slots: [Int32]

    init(_ index: PagedIndex) {
        self.index = index
        var pages: [PageBox] = []
        var slots = [Int32](repeating: -1, count: 1 << IndexLayout.maximumDepth)
        // Deepest first, so that were two pages to cover one head, the shallower would win,
        // as in `PagedIndex.pageNumber(of:)`, which tries the shallowest depth first.
        let numbers = index.records.keys.sorted { IndexLayout.depth(ofPage: $0) > IndexLayout.depth(ofPage: $1) }
        for number in numbers {
            guard let page = index.pages[number] else { continue }
            let slot = Int32(pages.count)
            pages.append(PageBox(page))
            for head in IndexLayout.heads(ofPage: number, version: index.version) { slots[head] = slot }
        }
        self.pages = LentObjects(pages)
        self.slots = slots
    }

    /// `body` with the page that holds `id`'s row, if the index lists it (else as
    /// `PagedIndex.page(of:)` answers), lent without a retain.
    @inline(__always)
    func withPage<R>(of id: UUID, _ body: (IndexPage) -> R) -> R {
        let slot = Int(slots[IndexLayout.head(of: id)])
        guard slot >= 0 else { return body(index.page(of: id)) }
        return pages.with(slot) { body($0.page) }
    }
}
