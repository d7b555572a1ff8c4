import DiaryStore
import Foundation

/// The counters of a capture device's items taken in (docs/FORMAT.md §7.7), kept as sorted,
/// disjoint, non-adjacent inclusive intervals: a gap in the numbering (a capture killed after
/// taking its number, an item lost) costs one interval for ever, not one entry per later counter,
/// and a counter that jumps far ahead costs one interval too. Always normalised, so a set has one
/// value and one encoding.
public struct CaptureCounterSet: Equatable, Sendable {
    /// The highest counter an item may carry (2^62). Far beyond any device's numbering, and low
    /// enough that `last + 2` and every sum of interval lengths stay within `UInt64` (and within
    /// the signed 64-bit integers other readers may use).
    public static let maximumCounter: UInt64 = 1 << 62
    /// At most this many intervals in a stored record (16 bytes each: a record stays under
    /// 1.1 MB). Only 65,536 separate gaps reach it, which only a stolen credential makes on
    /// purpose; an item that would need one more is refused (moved aside), never stored.
    public static let maximumIntervals = 65_536

    /// The counters, as intervals `first…last`: ascending, each starting at least 2 after the
    /// previous one's last, all within `1 … maximumCounter`.
    public private(set) var intervals: [ClosedRange<UInt64>]

    public init() { intervals = [] }

    /// The set holding every counter of `ranges` (in any order; overlapping or adjacent ranges
    /// allowed), normalised. Every counter must be in `1 … maximumCounter`.
    public init(_ ranges: [ClosedRange<UInt64>]) {
        precondition(
            ranges.allSatisfy { $0.lowerBound >= 1 && $0.upperBound <= Self.maximumCounter }, "counter range")
        intervals = Self.normalised(ranges.sorted { $0.lowerBound < $1.lowerBound })
    }

    /// True when a record may store the set: at most `maximumIntervals` intervals.
    public var isStorable: Bool { intervals.count <= Self.maximumIntervals }

    /// How many counters the set holds.
    public var count: UInt64 { intervals.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) } }

    public func contains(_ counter: UInt64) -> Bool {
        let above = firstIndex(startingAbove: counter)
        return above > 0 && intervals[above - 1].contains(counter)
    }

    /// The set with `counter` in it (`1 … maximumCounter`): it extends or joins the intervals
    /// beside it, and starts a new one only when it touches none. The result may hold one
    /// interval more than `isStorable` allows; the caller refuses it then.
    public func inserting(_ counter: UInt64) -> CaptureCounterSet {
        precondition(counter >= 1 && counter <= Self.maximumCounter, "counters are 1 … 2^62")
        var result = self
        let above = firstIndex(startingAbove: counter)
        let below = above > 0 ? intervals[above - 1] : nil
        if let below, below.upperBound >= counter { return self }
        let joinsBelow = below.map { $0.upperBound + 1 == counter } ?? false
        let joinsAbove = above < intervals.count && intervals[above].lowerBound == counter + 1
        switch (joinsBelow, joinsAbove) {
        case (true, true):
            result.intervals[above - 1] = intervals[above - 1].lowerBound...intervals[above].upperBound
            result.intervals.remove(at: above)
        case (true, false): result.intervals[above - 1] = intervals[above - 1].lowerBound...counter
        case (false, true): result.intervals[above] = counter...intervals[above].upperBound
        case (false, false): result.intervals.insert(counter...counter, at: above)
        }
        return result
    }

    /// Every counter in either set (commutative, associative, idempotent: a merge's result does
    /// not depend on the order copies are read in).
    public func union(_ other: CaptureCounterSet) -> CaptureCounterSet {
        var merged: [ClosedRange<UInt64>] = []
        merged.reserveCapacity(intervals.count + other.intervals.count)
        var (i, j) = (0, 0)
        while i < intervals.count || j < other.intervals.count {
            if j == other.intervals.count
                || (i < intervals.count && intervals[i].lowerBound <= other.intervals[j].lowerBound)
            {
                merged.append(intervals[i])
                i += 1
            } else {
                merged.append(other.intervals[j])
                j += 1
            }
        }
        var result = CaptureCounterSet()
        result.intervals = Self.normalised(merged)
        return result
    }

    /// The index of the first interval starting above `counter` (intervals.count if none).
    private func firstIndex(startingAbove counter: UInt64) -> Int {
        var (low, high) = (0, intervals.count)
        while low < high {
            let mid = (low + high) / 2
            if intervals[mid].lowerBound <= counter { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Ranges sorted by their first counter, with overlapping and adjacent ones joined.
    private static func normalised(_ sorted: [ClosedRange<UInt64>]) -> [ClosedRange<UInt64>] {
        var result: [ClosedRange<UInt64>] = []
        result.reserveCapacity(sorted.count)
        for range in sorted {
            // No overflow: every bound is at most 2^62.
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// `u32 k ‖ k × (u64 first ‖ u64 last)`.
    func write(to w: inout ByteWriter) {
        precondition(isStorable, "a counter set too large to store")
        w.u32(UInt32(intervals.count))
        for interval in intervals {
            w.u64(interval.lowerBound)
            w.u64(interval.upperBound)
        }
    }

    /// Reads a set, refusing one a writer could not have written: too many intervals, a counter
    /// of 0 or above 2^62, an interval reversed, or one that overlaps, touches or precedes the
    /// one before it (so each set has one encoding).
    static func read(_ r: inout ByteReader) throws -> CaptureCounterSet {
        let count = Int(try r.u32())
        guard count <= maximumIntervals, count * 16 <= r.remaining else {
            throw FormatError.invalidField("counter interval count")
        }
        var intervals: [ClosedRange<UInt64>] = []
        intervals.reserveCapacity(count)
        // The least first counter the next interval may have: 1, then 2 past the last one's end.
        var least: UInt64 = 1
        for _ in 0..<count {
            let (first, last) = (try r.u64(), try r.u64())
            guard first >= least, first <= last, last <= maximumCounter else {
                throw FormatError.invalidField("counter intervals")
            }
            intervals.append(first...last)
            least = last + 2
        }
        var set = CaptureCounterSet()
        set.intervals = intervals
        return set
    }
}
