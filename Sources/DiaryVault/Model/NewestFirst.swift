import DiaryStore
import Foundation

/// The one order diary shows entries in, wherever they come from (`list` reading index pages,
/// `search`, `export`): the newest entry date first; for equal dates the newest creation
/// first; for equal both, ids in ascending byte order (the order of their uuidStrings), so
/// that equal dates (common in imports) come out the same way every time.
enum NewestFirst {
    /// True when the entry with list key and id `a` comes before the one with `b`.
    static func precedes(_ a: (key: ListKey, id: (UInt64, UInt64)), _ b: (key: ListKey, id: (UInt64, UInt64))) -> Bool {
        a.key != b.key ? b.key < a.key : a.id < b.id
    }
}

extension EntrySummary {
    /// `NewestFirst` for summaries: `sorted(by: EntrySummary.newestFirst)`.
    public static func newestFirst(_ a: EntrySummary, _ b: EntrySummary) -> Bool {
        NewestFirst.precedes(
            (ListKey(date: a.date, created: a.created), a.id.sortKey),
            (ListKey(date: b.date, created: b.created), b.id.sortKey))
    }
}

extension Entry {
    /// `NewestFirst` for whole entries: `sorted(by: Entry.newestFirst)`.
    public static func newestFirst(_ a: Entry, _ b: Entry) -> Bool {
        NewestFirst.precedes(
            (ListKey(date: a.date, created: a.created), a.id.sortKey),
            (ListKey(date: b.date, created: b.created), b.id.sortKey))
    }
}

extension ListKey {
    init(date: Date, created: Date) {
        self.init(date: date.millisecondsSince1970, created: created.millisecondsSince1970)
    }
}
