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
        /// `emptyLimit` segments, or one of the ids that may not be emptied lies in a
        /// segment's range (see `empty`).
        case removeCopy
    }

    /// Empties every segment of the copy in `directory` whose id range holds one of `ids`
    /// (present in it or not): its bytes become zeros, made durable, and only then its record
    /// count in the trailer 0 (so a count of 0 always has its zeros on disk, whatever a crash
    /// interrupts); then the copy's times are hidden again and it is fsynced, so no entry file
    /// moves on while the copy still holds its earlier bytes. Caller holds the write lock, so
    /// no search is reading the copy.
    ///
    /// What an emptied segment leaves is its offset, length and first and last ids: that some
    /// entry of that range (about 64) was replaced, not which. That holds only while its length
    /// is still the sum of the current files of its range, so `removing` (the ids deleted, and
    /// those replaced by bytes of another size) must not be in any segment's range: from the
    /// length and the sizes in `entries/`, a reader could tell the deleted or resized entry and
    /// its earlier size. One that is makes the copy go.
    static func empty(segmentsHolding ids: some Collection<UUID>, removing: Set<UUID>, in directory: URL) -> Emptying {
        let pack: EntryPack
        switch open(in: directory, writable: true) {
        case .absent: return .done
        case .refused: return .removeCopy
        case .opened(let opened): pack = opened
        }
        guard pack.version >= 3 else { return .removeCopy }
        var touched = Set<Int>()
        for id in ids {
            guard let i = pack.segment(holding: id.sortKey) else { continue }
            if removing.contains(id) { return .removeCopy }
            touched.insert(i)
            if touched.count > emptyLimit { return .removeCopy }
        }
        guard !touched.isEmpty else { return .done }
        // Zeroed again even when its count is 0 already (a copy a crash or a hand left so).
        for i in touched {
            let segment = pack.segments[i]
            guard writeFully(pack.fd, [UInt8](repeating: 0, count: segment.length), at: segment.offset) else {
                return .removeCopy
            }
        }
        guard fsync(pack.fd) == 0 else { return .removeCopy }
        for i in touched {
            guard writeFully(pack.fd, [0, 0, 0, 0], at: pack.trailerOffset + 4 + i * trailerRecordLength + 12) else {
                return .removeCopy
            }
        }
        var times = DurableFile.uninformativeTimes()
        guard futimens(pack.fd, &times) == 0, fsync(pack.fd) == 0 else { return .removeCopy }
        return .done
    }

    /// Whether `segment`'s bytes are all zeros, and how many bytes were read to tell: only the
    /// parts of the file that hold data (`SEEK_DATA`), since a hole reads as zeros. A crafted
    /// copy of 2^20 emptied segments, terabytes of holes in a sparse file, then costs one
    /// `lseek` per segment, not a read of every hole.
    func holdsOnlyZeros(_ segment: Segment) -> (zeros: Bool, read: Int) {
        let end = segment.offset + segment.length
        var at = segment.offset
        var read = 0
        // Allocated once data is found: a crafted copy of 2^20 segments of holes must not cost
        // 2^20 buffers zeroed either.
        var chunk: [UInt8] = []
        while at < end {
            let data = lseek(fd, off_t(at), Self.seekData)
            // No data from here to the end of the file (ENXIO): the rest is a hole. Another
            // error (no SEEK_DATA here): read everything.
            if data < 0 && errno == ENXIO { break }
            let from = data < 0 ? at : Int(data)
            guard from < end else { break }
            let hole = data < 0 ? end : Int(lseek(fd, off_t(from), Self.seekHole))
            let to = hole <= from ? end : min(hole, end)
            var offset = from
            if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: min(segment.length, 1 << 20)) }
            while offset < to {
                let count = min(chunk.count, to - offset)
                let ok = chunk.withUnsafeMutableBytes { Self.readFully(fd, $0.baseAddress!, count, at: offset) }
                guard ok, chunk[0..<count].allSatisfy({ $0 == 0 }) else { return (false, read + count) }
                read += count
                offset += count
            }
            at = to
        }
        return (true, read)
    }

    #if os(Linux)
    // Glibc declares them only under _GNU_SOURCE, which Swift's Glibc module does not define
    // (linux/fs.h: SEEK_DATA 3, SEEK_HOLE 4).
    private static let seekData: Int32 = 3
    private static let seekHole: Int32 = 4
    #else
    private static let seekData = SEEK_DATA
    private static let seekHole = SEEK_HOLE
    #endif

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
