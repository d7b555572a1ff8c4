import Foundation

/// What `list` shows, chosen from the pages' bytes: every row's date, id and flags are read in
/// place, and strings are built only for the rows returned (ten for `list -n 10`, not ten
/// thousand).
struct IndexListing {
    let index: PagedIndex
    let filter: EntryFilter

    /// One row's place in the newest-first order (entry date, then creation, then id).
    private struct Candidate {
        var date: Int64
        var created: Int64
        var id: (UInt64, UInt64)
        var page: Int
        var row: Int

        func comesBefore(_ other: Candidate) -> Bool {
            if date != other.date { return date > other.date }
            if created != other.created { return created > other.created }
            return id < other.id
        }
    }

    /// Matching rows, newest first, at most `filter.limit` of them. Every page must be loaded.
    func summaries() -> [EntrySummary] {
        let limit = filter.limit.map { max($0, 0) }
        var chosen: [Candidate] = []
        for case let page? in index.pages {
            for row in 0..<page.count where Self.passes(filter, page, row) {
                let candidate = Candidate(
                    date: page.dateMilliseconds(ofRowAt: row), created: page.createdMilliseconds(ofRowAt: row),
                    id: page.idKey(ofRowAt: row), page: page.number, row: row)
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
        if limit == nil { chosen.sort { $0.comesBefore($1) } }
        return chosen.map { index.pages[$0.page]!.summary(at: $0.row) }
    }

    /// The filter, on the cheap fields first; a tag filter needs the row's strings.
    static func passes(_ filter: EntryFilter, _ page: IndexPage, _ row: Int) -> Bool {
        if filter.starred && !page.isStarred(rowAt: row) { return false }
        if filter.from != nil || filter.to != nil {
            let date = Date(millisecondsSince1970: page.dateMilliseconds(ofRowAt: row))
            if let from = filter.from, date < from { return false }
            if let to = filter.to, date > to { return false }
        }
        if filter.tag != nil { return filter.matches(page.summary(at: row)) }
        return true
    }
}
