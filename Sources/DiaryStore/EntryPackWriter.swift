import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a new `entries.pack` (`EntryPack`) while a search reads every entry file, from all
/// of its threads at once, then names it. The caller holds the vault's lock (a snapshot), so
/// no writer changes an entry file between its read and the rename: every record is the
/// file's current content.
///
/// Written to a `.tmp-*` file and renamed; not fsynced, since a copy is never needed: one a
/// crash damaged is refused, or its records do not open, and their files are read instead.
/// Any failure (a read-only vault, a full disk) only means no copy: `finish` reports it and
/// leaves nothing behind.
final class EntryPackWriter: Sendable {
    private let directory: URL
    private let temp: URL
    private let fd: Int32
    private let state = Mutex(State())

    private struct State {
        var end = EntryPack.headerLength
        var segments: [EntryPack.Segment] = []
        var failed = false
    }

    /// One thread's segment being filled: records of one share of ids, in id order. Each is
    /// used by one thread only (the one whose number indexes it).
    final class Segment: @unchecked Sendable {
        fileprivate var bytes: [UInt8] = []
        fileprivate var count = 0
        fileprivate var first: (UInt64, UInt64) = (0, 0)
        fileprivate var last: (UInt64, UInt64) = (0, 0)

        init() { bytes.reserveCapacity(EntryPack.segmentBytes + 64 << 10) }
    }

    /// What a copy being written is named before it is complete: a temporary file (removed by
    /// any writer), which names the process writing it.
    static let tempPrefix = DurableFile.tempPrefix + "pack-"

    /// A new temporary copy in `directory` holding only its header; nil when it cannot be made.
    /// First removes the copies that searches killed while writing them left behind.
    init?(in directory: URL) {
        self.directory = directory
        // A directory under the copy's name would refuse the rename: no copy to write.
        var info = stat()
        if lstat(directory.appendingPathComponent(EntryPack.fileName).path, &info) == 0,
            (info.st_mode & S_IFMT) == S_IFDIR
        {
            return nil
        }
        Self.removeAbandoned(in: directory)
        temp = directory.appendingPathComponent("\(Self.tempPrefix)\(getpid())-\(SecureRandomName.make())")
        fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, DurableFile.fileMode)
        guard fd >= 0 else { return nil }
        let header = EntryPack.magic + [EntryPack.version]
        guard fchmod(fd, DurableFile.fileMode) == 0, write(header, at: 0) else {
            close(fd)
            unlink(temp.path)
            return nil
        }
    }

    deinit { close(fd) }

    /// Adds one entry file's bytes to `segment`, writing the segment out once it is full.
    /// Ids must come in increasing order within a share (`endShare` between shares). Bytes no
    /// entry can have (none, or more than the largest entry) are left out.
    func add(_ id: UUID, _ sealed: UnsafeRawBufferPointer, to segment: Segment) {
        guard sealed.count >= 1, sealed.count <= ReadLimits.entry else { return }
        let key = id.sortKey
        if segment.count == 0 { segment.first = key }
        segment.last = key
        segment.count += 1
        withUnsafeBytes(of: id.uuid) { segment.bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(sealed.count).bigEndian) { segment.bytes.append(contentsOf: $0) }
        segment.bytes.append(contentsOf: sealed)
        if segment.count == EntryPack.segmentRecords || segment.bytes.count >= EntryPack.segmentBytes {
            flush(segment)
        }
    }

    /// Writes out what `segment` holds: a segment never spans two shares, so that the segments'
    /// id ranges stay disjoint.
    func endShare(_ segment: Segment) { flush(segment) }

    private func flush(_ segment: Segment) {
        guard segment.count > 0 else { return }
        let length = segment.bytes.count
        let offset: Int? = state.withLock { state in
            guard !state.failed else { return nil }
            defer { state.end += length }
            state.segments.append(
                EntryPack.Segment(
                    offset: state.end, length: length, count: segment.count, first: segment.first, last: segment.last))
            return state.end
        }
        if let offset, !write(segment.bytes, at: offset) { state.withLock { $0.failed = true } }
        segment.bytes.removeAll(keepingCapacity: true)
        segment.count = 0
    }

    /// Writes the trailer and renames the copy to `entries.pack`, its times and the vault
    /// directory's hidden (`HiddenTimes.swift`); false, with the temporary file removed, when
    /// anything failed.
    func finish() -> Bool {
        let (failed, end, segments) = state.withLock { ($0.failed, $0.end, $0.segments) }
        let ordered = segments.sorted { $0.first < $1.first }
        guard !failed, ordered.count <= EntryPack.maximumSegments, write(Self.trailer(ordered, at: end), at: end)
        else {
            discard()
            return false
        }
        var times = DurableFile.uninformativeTimes()
        guard futimens(fd, &times) == 0,
            rename(temp.path, directory.appendingPathComponent(EntryPack.fileName).path) == 0
        else {
            discard()
            return false
        }
        try? DurableFile.hideTimes(of: directory)
        return true
    }

    /// Removes the temporary copy.
    func discard() { unlink(temp.path) }

    /// Removes the temporary copies whose process is gone (a search killed while writing one:
    /// each is as large as the sealed entries). Another search may be writing one at the same
    /// time, under the same shared lock: its process is alive, so its copy stays.
    static func removeAbandoned(in directory: URL) {
        for name in (try? DurableFile.names(in: directory)) ?? [] where name.hasPrefix(tempPrefix) {
            let pid = name.dropFirst(tempPrefix.count).prefix { $0 != "-" }
            guard let pid = pid_t(pid), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    static func trailer(_ segments: [EntryPack.Segment], at offset: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4 + segments.count * EntryPack.trailerRecordLength + 16)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.bigEndian) { bytes += $0 } }
        append(UInt32(segments.count))
        for segment in segments {
            append(UInt64(segment.offset))
            append(UInt32(segment.length))
            append(UInt32(segment.count))
            append(segment.first.0)
            append(segment.first.1)
            append(segment.last.0)
            append(segment.last.1)
        }
        append(UInt64(offset))
        return bytes + EntryPack.magic
    }

    private func write(_ bytes: [UInt8], at offset: Int) -> Bool { EntryPack.writeFully(fd, bytes, at: offset) }
}
