import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension EntryPack {
    /// The most entries one change scrubs from the copy: a change that replaces or removes more
    /// (a rekey, a large sync) removes the whole copy, which the next large search writes again.
    static let scrubLimit = 64

    /// What a scrub did.
    enum Scrub: Equatable {
        /// Every record of the ids is scrubbed and durable (or there was none to scrub).
        case done
        /// The copy must go instead: it is version 1, refused, unreadable where it is needed,
        /// or a record to scrub is its segment's first or last (the trailer names its id).
        case removeCopy
    }

    /// Overwrites the records of `ids` in the copy in `directory` with zeros, marked scrubbed,
    /// and makes that durable before returning, so that no entry file moves on while the copy
    /// still holds its earlier bytes. The copy's times are hidden again. Caller holds the
    /// write lock, so no search is reading the copy.
    static func scrub(_ ids: some Collection<UUID>, in directory: URL) -> Scrub {
        let pack: EntryPack
        switch open(in: directory, writable: true) {
        case .absent: return .done
        case .refused: return .removeCopy
        case .opened(let opened): pack = opened
        }
        guard pack.version >= 2, ids.count <= scrubLimit else { return .removeCopy }
        var places: [Range<Int>] = []
        for id in ids {
            switch pack.place(of: id) {
            case .absent: continue
            case .inner(let place): places.append(place)
            case .edge, .unreadable: return .removeCopy
            }
        }
        guard !places.isEmpty else { return .done }
        for place in places {
            var bytes = [UInt8](repeating: 0, count: place.count)
            let word = (UInt32(place.count - recordHeaderLength) | scrubbedFlag).bigEndian
            withUnsafeBytes(of: word) { bytes.replaceSubrange(16..<20, with: $0) }
            guard writeFully(pack.fd, bytes, at: place.lowerBound) else { return .removeCopy }
        }
        var times = DurableFile.uninformativeTimes()
        guard futimens(pack.fd, &times) == 0, fsync(pack.fd) == 0 else { return .removeCopy }
        return .done
    }

    /// Where a record is, as a scrub needs to know it.
    private enum Place {
        case absent
        /// The record's bytes in the file, header included.
        case inner(Range<Int>)
        /// Its segment's first or last record.
        case edge
        /// Its segment cannot be read or is malformed.
        case unreadable
    }

    /// The live record of `id`, found through the trailer (segments are in id order).
    private func place(of id: UUID) -> Place {
        let key = id.sortKey
        var low = 0
        var high = segments.count
        while low < high {
            let mid = (low + high) / 2
            if segments[mid].last < key { low = mid + 1 } else { high = mid }
        }
        guard low < segments.count, !(key < segments[low].first) else { return .absent }
        let segment = segments[low]
        if key == segment.first || key == segment.last { return .edge }
        guard let bytes = Self.readAt(fd, segment.offset, segment.length) else { return .unreadable }
        return bytes.withUnsafeBytes { raw in
            guard check(raw, segment) else { return .unreadable }
            for case let record? in RecordWalk(raw) where !record.scrubbed && raw.sortKey(at: record.offset) == key {
                return .inner(segment.offset + record.offset..<segment.offset + record.body.upperBound)
            }
            return .absent
        }
    }
}
