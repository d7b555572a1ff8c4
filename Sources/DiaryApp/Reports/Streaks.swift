/// A run of consecutive days with at least one entry.
public struct Streak: Equatable, Sendable {
    public let first: CalendarDay
    public let last: CalendarDay

    public init(first: CalendarDay, last: CalendarDay) {
        self.first = first
        self.last = last
    }

    public var days: Int { last.ordinal - first.ordinal + 1 }
}

/// Runs of consecutive days with at least one entry.
public enum Streaks {
    /// The longest run among `days` (the earliest of equally long ones), nil when there are none.
    public static func longest(_ days: Set<CalendarDay>) -> Streak? {
        let ordinals = days.map(\.ordinal).sorted()
        guard var start = ordinals.first else { return nil }
        var best = (start, start)
        for (previous, ordinal) in zip(ordinals, ordinals.dropFirst()) {
            if ordinal != previous + 1 { start = ordinal }
            if ordinal - start > best.1 - best.0 { best = (start, ordinal) }
        }
        return Streak(first: CalendarDay(ordinal: best.0), last: CalendarDay(ordinal: best.1))
    }

    /// The run still going on `today`: the one ending today, or, while today has no entry yet,
    /// the one ending yesterday (there is still time to write today). nil when neither day has
    /// an entry. Entries dated after today do not count toward it.
    public static func current(_ days: Set<CalendarDay>, today: CalendarDay) -> Streak? {
        let ordinals = Set(days.map(\.ordinal))
        var end = today.ordinal
        if !ordinals.contains(end) { end -= 1 }
        guard ordinals.contains(end) else { return nil }
        var start = end
        while ordinals.contains(start - 1) { start -= 1 }
        return Streak(first: CalendarDay(ordinal: start), last: CalendarDay(ordinal: end))
    }
}
