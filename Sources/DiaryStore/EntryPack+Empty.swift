import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EntryPack {
    /// The most segments one change empties: a change that touches more (a rekey, a large
    /// sync) removes the whole copy, which the next large search writes again.
    static let emptyLimit = 16

    /// What emptying did.
    enum Emptying: Equatable {
        /// Every segment whose id range holds one of the ids is emptied, durably (or none does).
        case done
        /// The copy must go instead: it is version 1 or refused, the change touches more than
        /// `emptyLimit` segments, or it deletes an entry whose id the trailer names (a
        /// segment's first or last id), which emptying would leave in the copy.
        case removeCopy
    }

    /// Empties every segment of the copy in `directory` whose id range holds one of `ids`
    /// (present in it or not): its bytes become zeros and its record count in the trailer 0,
    /// then the copy's times are hidden again and it is fsynced, so no entry file moves on
    /// while the copy still holds its earlier bytes. A whole segment, not one record: what is
    /// left then shows only that some entry of that segment's range (about 64 entries) changed,
    /// not which. `deleted` are the ids whose files go. Caller holds the write lock, so no
    /// search is reading the copy.
    static func empty(segmentsHolding ids: some Collection<UUID>, deleted: Set<UUID>, in directory: URL) -> Emptying {
        let pack: EntryPack
        switch open(in: directory, writable: true) {
        case .absent: return .done
        case .refused: return .removeCopy
        case .opened(let opened): pack = opened
        }
        guard pack.version >= 2 else { return .removeCopy }
        var touched = Set<Int>()
        for id in ids {
            let key = id.sortKey
            guard let i = pack.segment(holding: key) else { continue }
            let segment = pack.segments[i]
            if deleted.contains(id) && (key == segment.first || key == segment.last) { return .removeCopy }
            touched.insert(i)
            if touched.count > emptyLimit { return .removeCopy }
        }
        guard !touched.isEmpty else { return .done }
        // Emptied again even when its count is 0 already: a crash may have left the count
        // written and the zeros not.
        for i in touched {
            let segment = pack.segments[i]
            let countAt = pack.trailerOffset + 4 + i * trailerRecordLength + 12
            guard writeFully(pack.fd, [UInt8](repeating: 0, count: segment.length), at: segment.offset),
                writeFully(pack.fd, [0, 0, 0, 0], at: countAt)
            else { return .removeCopy }
        }
        var times = DurableFile.uninformativeTimes()
        guard futimens(pack.fd, &times) == 0, fsync(pack.fd) == 0 else { return .removeCopy }
        return .done
    }

    /// The segment whose id range holds `key`, if any (segments are in id order, ranges disjoint).
    func segment(holding key: (UInt64, UInt64)) -> Int? {
        var low = 0
        var high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].last < key { low = mid + 1 } else { high = mid }
        }
        return low < segments.count && !(key < segments[low].first) ? low : nil
    }
}
