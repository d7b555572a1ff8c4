import Foundation

/// What `list` shows, chosen from the pages' bytes: every row's date, id and flags are read in
/// place, and strings are built only for the rows returned (ten for `list -n 10`, not ten
/// thousand). Pages are added one by one, so a limited listing can stop reading pages as soon
/// as no page left can hold a row newer than the ones it has (see `cannotImprove`).
struct IndexListing {
    let filter: EntryFilter
    private let limit: Int?
    private var chosen: [Candidate] = []
    /// How much older than the last row chosen a page's newest key must be to be skipped: none
    /// for version 3, whose keys bound the shown dates; a day for version 2, whose keys are the
    /// stored dates (a calendar day is shown up to 16 hours after its stored midnight UTC).
    private let slack: Int64

    init(filter: EntryFilter, indexVersion: UInt8 = IndexLayout.version) {
        self.filter = filter
        limit = filter.limit.map { max($0, 0) }
        slack = indexVersion == IndexLayout.version ? 0 : CalendarDay.millisecondsPerDay
    }

    /// One row's place in the newest-first order (entry date, then creation, then id).
    private struct Candidate {
        var key: ListKey
        var id: (UInt64, UInt64)
        var page: Int
        var row: Int

        func comesBefore(_ other: Candidate) -> Bool {
            NewestFirst.precedes((key, id), (other.key, other.id))
        }
    }

    /// True when no row of a page whose newest key is `bound` can be among the results: the
    /// listing is full and `bound` is strictly older than its last row (by more than `slack`).
    /// Rows are ordered by the shown date (`CalendarDay`); ties on the date are not skipped.
    func cannotImprove(with bound: ListKey) -> Bool {
        guard let limit, chosen.count == limit else { return false }
        guard let last = chosen.last else { return true }  // a limit of zero
        return bound.date < last.key.date - slack
    }

    /// Considers every row of `page` that passes the filter.
    mutating func add(_ page: IndexPage) {
        for row in 0..<page.count where Self.passes(filter, page, row) {
            let candidate = Candidate(
                key: page.shownListKey(ofRowAt: row), id: page.idKey(ofRowAt: row), page: page.number, row: row)
            guard let limit else {
                chosen.append(candidate)
                continue
            }
            // Keep only the best `limit`, in order: a binary insertion into a short array.
            if chosen.count == limit {
                guard let last = chosen.last, candidate.comesBefore(last) else { continue }
                chosen.removeLast()
            }
            var low = 0
            var high = chosen.count
            while low < high {
                let mid = (low + high) / 2
                if chosen[mid].comesBefore(candidate) { low = mid + 1 } else { high = mid }
            }
            chosen.insert(candidate, at: low)
        }
    }

    /// The chosen rows, newest first; their pages must still be in `index`.
    func summaries(from index: PagedIndex) -> [EntrySummary] {
        var ordered = chosen
        if limit == nil { ordered.sort { $0.comesBefore($1) } }
        return ordered.map { index.pages[$0.page]!.summary(at: $0.row) }
    }

    /// The filter, on the cheap fields first; a tag filter needs the row's strings.
    ///
    /// The one place that keeps templates (`diary template`) and capture devices' records
    /// (`diary capture-key`) out of every enumeration of
    /// entries: `list`, `search`, word counts (`stats`, `calendar`) and all that build on them
    /// (export, tags, the picker) see entries only.
    static func passes(_ filter: EntryFilter, _ page: IndexPage, _ row: Int) -> Bool {
        if !page.isEntry(rowAt: row) { return false }
        if filter.starred && !page.isStarred(rowAt: row) { return false }
        if filter.from != nil || filter.to != nil {
            let date = page.shownDate(ofRowAt: row)
            if let from = filter.from, date < from { return false }
            if let to = filter.to, date > to { return false }
        }
        if filter.tag != nil { return filter.matches(page.summary(at: row)) }
        return true
    }
}
