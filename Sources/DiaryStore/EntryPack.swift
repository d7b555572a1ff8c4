import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files store's scan copy, `entries.pack` (docs/FORMAT.md §2.2): the sealed entries in one
/// file, so that a search reads them in large pieces on every core instead of opening one file
/// per entry (a search of 100,000 entries spent half its time in `openat`, `read` and `close`).
///
/// It is a copy, never the truth. Each record is trusted only as far as the entry opens under
/// its id and carries the index's tag; a listed entry it lacks is read from its file. Writers
/// empty the segment holding an entry (zeros in place, made durable) or remove the whole copy
/// before they replace or remove the entry's file (`FileStore.clearPack`), so every record is
/// the current content of its entry's file and no deleted or replaced ciphertext stays in it.
///
/// ```
/// [8] "DIARYPAK" ‖ u8 version (1 or 3) ‖ segments ‖ trailer
/// segment: records, each [16] id ‖ u32 length ‖ sealed bytes (ids strictly increasing);
///          version 3: an emptied segment, its record count 0 and its bytes all zero
/// trailer: u32 S ‖ S × (u64 offset ‖ u32 length ‖ u32 records ‖ [16] first id ‖ [16] last id)
///          ‖ u64 trailer offset ‖ [8] "DIARYPAK"
/// ```
final class EntryPack: Sendable {
    static let fileName = "entries.pack"
    static let magic = Array("DIARYPAK".utf8)
    /// The version a writer writes. A reader accepts 1 too: version 1 is version 3 without
    /// emptied segments (a copy written before they existed; never emptied, only removed).
    /// Version 2 is refused: development builds wrote it in two forms (records zeroed one by
    /// one, then segments emptied with no order between the zeros and the count), so it says
    /// nothing a reader can rely on. Refused is absent: a search writes a new copy over it.
    static let version: UInt8 = 3
    static let readableVersions: Set<UInt8> = [1, 3]
    /// Magic and version: where the first segment may start.
    static let headerLength = 9
    /// A segment's record: id and length, then the sealed bytes.
    static let recordHeaderLength = 20
    static let trailerRecordLength = 48
    /// A writer ends a segment after this many records…
    static let segmentRecords = 64
    /// …or once it holds this many bytes.
    static let segmentBytes = 1 << 20
    /// The longest segment a reader accepts: a full one plus the largest entry.
    static let maximumSegmentLength = segmentBytes + recordHeaderLength + ReadLimits.entry
    /// The most segments a reader accepts (its trailer is then 48 MiB, read whole).
    static let maximumSegments = 1 << 20
    /// Searches over fewer listed entries never build a copy: opening that many files is quick.
    static let minimumEntries = 1024

    /// One segment as the trailer lists it; ids as `UUID.sortKey`.
    struct Segment {
        let offset: Int
        let length: Int
        let count: Int
        let first: (UInt64, UInt64)
        let last: (UInt64, UInt64)
    }

    /// What is in the vault directory under `fileName`.
    enum Opening {
        case absent
        /// Not a copy this reader accepts, with the reason (for `verify`).
        case refused(String)
        case opened(EntryPack)
    }

    let fd: Int32
    let version: UInt8
    /// Where the trailer starts (`T`): a segment's record count is at `T + 4 + 48·i + 12`.
    let trailerOffset: Int
    /// In id order, their id ranges disjoint and their bytes filling the file from the header
    /// to the trailer (checked by `open`).
    let segments: [Segment]

    private init(fd: Int32, version: UInt8, trailerOffset: Int, segments: [Segment]) {
        self.fd = fd
        self.version = version
        self.trailerOffset = trailerOffset
        self.segments = segments
    }

    deinit { close(fd) }

    /// Opens the copy in `directory` and checks its header and trailer (not its segments: each
    /// is checked when it is read, `records(in:of:)`); for writing too when `writable` (a
    /// writer emptying segments, `EntryPack+Empty.swift`).
    static func open(in directory: URL, writable: Bool = false) -> Opening {
        let path = directory.appendingPathComponent(fileName).path
        let fd: Int32
        do {
            // The flags every store file is read with (no following a link, no waiting on a FIFO).
            let access = writable ? O_RDWR : O_RDONLY
            guard let opened = try DurableFile.openRegular(path: path, { Glibc.open(path, $0 & ~O_ACCMODE | access) })
            else { return .absent }
            fd = opened
        } catch StoreError.corrupt(_, let detail) {
            return .refused(detail)
        } catch {
            return .refused(DurableFile.errnoText())
        }
        switch trailer(fd) {
        case .success(let (version, at, segments)):
            return .opened(EntryPack(fd: fd, version: version, trailerOffset: at, segments: segments))
        case .failure(let refusal):
            close(fd)
            return .refused(refusal.reason)
        }
    }

    struct Refusal: Error {
        let reason: String
    }

    private static func trailer(_ fd: Int32) -> Result<(UInt8, Int, [Segment]), Refusal> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Refusal(reason: DurableFile.errnoText())) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .failure(Refusal(reason: "is not a regular file")) }
        let size = Int(info.st_size)
        guard size >= headerLength + 4 + 16, let head = readAt(fd, 0, headerLength),
            let tail = readAt(fd, size - 16, 16)
        else { return .failure(Refusal(reason: "is too short")) }
        guard Array(head[0..<8]) == magic, Array(tail[8..<16]) == magic else {
            return .failure(Refusal(reason: "does not start and end as a copy"))
        }
        guard readableVersions.contains(head[8]) else {
            return .failure(Refusal(reason: "is version \(head[8]), not 1 or \(version)"))
        }
        let at = Int(clamping: tail.bigEndianU64(at: 0))
        guard at >= headerLength, at <= size - 20, let countBytes = readAt(fd, at, 4) else {
            return .failure(Refusal(reason: "names its trailer outside the file"))
        }
        let count = Int(countBytes.bigEndianU32(at: 0))
        guard count <= maximumSegments, at + 4 + count * trailerRecordLength + 16 == size,
            let table = readAt(fd, at + 4, count * trailerRecordLength)
        else { return .failure(Refusal(reason: "has a trailer of the wrong length")) }
        var segments: [Segment] = []
        segments.reserveCapacity(count)
        for i in 0..<count {
            let o = i * trailerRecordLength
            let segment = Segment(
                offset: Int(clamping: table.bigEndianU64(at: o)), length: Int(table.bigEndianU32(at: o + 8)),
                count: Int(table.bigEndianU32(at: o + 12)), first: table.sortKey(at: o + 16),
                last: table.sortKey(at: o + 32))
            guard segment.offset >= headerLength, segment.length <= maximumSegmentLength,
                segment.offset <= at - segment.length, segment.count >= 1 || head[8] >= 3,
                segment.length >= max(1, segment.count * (recordHeaderLength + 1)), !(segment.last < segment.first),
                segments.last.map({ $0.last < segment.first }) ?? true
            else { return .failure(Refusal(reason: "lists segment \(i) out of place or order")) }
            segments.append(segment)
        }
        // Back to back from the header to the trailer, as a writer writes them: no byte of the
        // file lies outside every segment, where ciphertext could hide from `verify`.
        var end = headerLength
        for segment in segments.sorted(by: { $0.offset < $1.offset }) {
            guard segment.offset == end else { return .failure(Refusal(reason: "has bytes in no segment")) }
            end += segment.length
        }
        guard end == at else { return .failure(Refusal(reason: "has bytes in no segment")) }
        return .success((head[8], at, segments))
    }

    /// `count` bytes at `offset`, or nil when the file does not have them.
    static func readAt(_ fd: Int32, _ offset: Int, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBytes { readFully(fd, $0.baseAddress!, count, at: offset) }
        return ok ? bytes : nil
    }

    /// Fills `count` bytes at `base` from `offset`; false on an error or a short file.
    static func readFully(_ fd: Int32, _ base: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> Bool {
        var done = 0
        while done < count {
            let n = pread(fd, base + done, count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Writes all of `bytes` at `offset`; false on an error.
    static func writeFully(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    /// Calls `body` with each record of `segment`, whose bytes are `bytes`, once the whole
    /// segment is checked (`check`). False (and nothing lent) when it is malformed. An emptied
    /// segment lends nothing.
    func records(
        in bytes: UnsafeRawBufferPointer, of segment: Segment, _ body: (UUID, UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        guard check(bytes, segment) else { return false }
        var at = 0
        while segment.count > 0, at < bytes.count {
            let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self)))
            let id = UUID(uuid: bytes.loadUnaligned(fromByteOffset: at, as: uuid_t.self))
            body(
                id,
                UnsafeRawBufferPointer(
                    rebasing: bytes[(at + Self.recordHeaderLength)..<(at + Self.recordHeaderLength + length)]))
            at += Self.recordHeaderLength + length
        }
        return true
    }

    /// Whether `bytes` is `segment` as a writer leaves it: records that fill it exactly and
    /// number as the trailer says, each of 1 to `ReadLimits.entry` bytes, with ids strictly
    /// increasing from its first id to its last; or, emptied (count 0, version 3 only), zeros.
    func check(_ bytes: UnsafeRawBufferPointer, _ segment: Segment) -> Bool {
        guard bytes.count == segment.length else { return false }
        if segment.count == 0 { return version >= 3 && bytes.allSatisfy { $0 == 0 } }
        var at = 0
        var count = 0
        var previous: (UInt64, UInt64)?
        while at < bytes.count {
            guard bytes.count - at >= Self.recordHeaderLength + 1 else { return false }
            let key = bytes.sortKey(at: at)
            let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self)))
            guard length >= 1, length <= ReadLimits.entry, length <= bytes.count - at - Self.recordHeaderLength,
                previous.map({ $0 < key }) ?? (key == segment.first)
            else { return false }
            previous = key
            count += 1
            at += Self.recordHeaderLength + length
        }
        return count == segment.count && previous.map { $0 == segment.last } ?? false
    }
}

extension UnsafeRawBufferPointer {
    /// The 16 bytes at `i` as `UUID.sortKey` orders them.
    func sortKey(at i: Int) -> (UInt64, UInt64) {
        (
            UInt64(bigEndian: loadUnaligned(fromByteOffset: i, as: UInt64.self)),
            UInt64(bigEndian: loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
        )
    }
}

extension Array where Element == UInt8 {
    fileprivate func bigEndianU64(at i: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 << 8 | UInt64(self[i + $1]) }
    }

    fileprivate func bigEndianU32(at i: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(self[i + $1]) }
    }

    /// The 16 bytes at `i` as `UUID.sortKey` orders them.
    fileprivate func sortKey(at i: Int) -> (UInt64, UInt64) { (bigEndianU64(at: i), bigEndianU64(at: i + 8)) }
}
