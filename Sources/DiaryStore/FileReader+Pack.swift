import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader {
    /// Lends each entry of `ids` once: first the records of the scan copy (`EntryPack`), read a
    /// segment at a time on every core, then the files of the entries the copy lacks.
    ///
    /// Only a large scan (`EntryPack.minimumEntries` ids or more) uses the copy: fewer files
    /// are opened sooner than the segments holding them are read. When the copy is absent,
    /// refused, damaged, stale (the caller found a record that is not the copy its index
    /// records) or lacks an eighth of the entries, the files are read instead, every entry file
    /// of `entries/`, and written into a new copy as they are read (`EntryPackWriter`). This
    /// reader runs in a snapshot, whose lock keeps writers out until the new copy has its name,
    /// so the copy holds each file's current content.
    func scanEntries(among ids: [UUID], workers: Int, _ body: EntryScanBody) throws {
        guard !ids.isEmpty else { return }
        let listed = ListedIDs(ids)
        var wantsCopy = ids.count >= EntryPack.minimumEntries
        if wantsCopy, case .opened(let pack) = EntryPack.open(in: directory) {
            let (lent, stale) = lend(pack, listed, workers: workers, body)
            let missing = ids.count - lent
            wantsCopy = stale || (missing >= EntryPack.minimumEntries && missing * 8 >= ids.count)
        }
        if wantsCopy, let writer = EntryPackWriter(in: directory) {
            do {
                try copyEveryFile(into: writer, lending: listed, workers: workers, body)
            } catch {
                writer.discard()
                throw error
            }
            _ = writer.finish()
        } else {
            try scanFiles(among: listed.uncovered(), workers: workers, body)
        }
    }

    /// Lends the records of `pack` that `listed` names, marking them; returns how many were
    /// lent and whether the copy is stale (a segment unreadable or malformed, a record the
    /// caller found not to be the copy its index records). Segments holding no listed id are
    /// not read, and none is read after the first that is unreadable or malformed: a crafted
    /// copy (terabytes of holes in a sparse file) costs one segment, and the files are read.
    private func lend(_ pack: EntryPack, _ listed: ListedIDs, workers: Int, _ body: EntryScanBody) -> (Int, Bool) {
        let next = Mutex(0)
        let outcome = Mutex((lent: 0, stale: false))
        let threads = max(1, min(workers, pack.segments.count))
        DispatchQueue.concurrentPerform(iterations: threads) { w in
            let buffer = SegmentBuffer()
            var lent = 0
            var stale = false
            while !stale, !outcome.withLock({ $0.stale }) {
                let i = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard i < pack.segments.count else { break }
                let segment = pack.segments[i]
                var at = listed.lowerBound(segment.first)
                // Emptied (its entries changed since the copy was written): nothing to read.
                guard segment.count > 0, listed.hasKey(at: at, atMost: segment.last) else { continue }
                guard let bytes = buffer.read(segment, from: pack.fd),
                    pack.records(
                        in: bytes, of: segment,
                        { id, sealed in
                            guard let position = listed.advance(&at, to: id.sortKey) else { return }
                            listed.cover(position)
                            lent += 1
                            if !body(w, id, sealed) { stale = true }
                        })
                else {
                    stale = true
                    outcome.withLock { $0.stale = true }
                    break
                }
            }
            outcome.withLock {
                $0.lent += lent
                $0.stale = $0.stale || stale
            }
        }
        return outcome.withLock { ($0.lent, $0.stale) }
    }

    /// Reads every entry file into `writer`, lending those `listed` names and has not covered.
    /// A file `listed` does not name (one the index does not list, or one the search's filter
    /// leaves out) that cannot be read is left out of the copy, as a scan of `listed` would
    /// not have read it.
    private func copyEveryFile(
        into writer: EntryPackWriter, lending listed: ListedIDs, workers: Int, _ body: EntryScanBody
    ) throws {
        let names = try DurableFile.names(in: directory.appendingPathComponent(FileStore.entriesName)) ?? []
        let all = names.compactMap(Self.canonicalEntryID).sorted { $0.sortKey < $1.sortKey }
        let segments = (0..<max(workers, 1)).map { _ in EntryPackWriter.Segment() }
        // Where each thread is in `listed`: nil at the start of a share (found by bisection).
        let cursors = ThreadCursors(count: segments.count)
        try readFiles(
            all, workers: workers,
            tolerating: { position in
                var at = listed.lowerBound(all[position].sortKey)
                // Not asked for, or already lent from the copy: the scan would not read it.
                return listed.advance(&at, to: all[position].sortKey).map(listed.isCovered) ?? true
            },
            each: { w, _, id, sealed in
                writer.add(id, sealed, to: segments[w])
                var at = cursors[w] ?? listed.lowerBound(id.sortKey)
                if let position = listed.advance(&at, to: id.sortKey), !listed.isCovered(position) {
                    _ = body(w, id, sealed)
                }
                cursors[w] = at
            },
            shareEnded: { w in
                writer.endShare(segments[w])
                cursors[w] = nil
            })
    }
}

/// The ids a scan is asked for, in id order, with a mark for each one lent. Threads mark
/// distinct positions only (the copy's ids are distinct), so no lock is needed.
final class ListedIDs: @unchecked Sendable {
    let ids: [UUID]
    private let keys: [(UInt64, UInt64)]
    private let covered: UnsafeMutableBufferPointer<Bool>

    /// `ids` must be distinct; they are put in id order if they are not.
    init(_ ids: [UUID]) {
        let keyed = ids.map { ($0.sortKey, $0) }
        let ordered = zip(keyed.dropFirst(), keyed).allSatisfy { $1.0 < $0.0 } ? keyed : keyed.sorted { $0.0 < $1.0 }
        self.ids = ordered.map(\.1)
        keys = ordered.map(\.0)
        covered = .allocate(capacity: ordered.count)
        covered.initialize(repeating: false)
    }

    deinit { covered.deallocate() }

    /// The first position whose key is not below `key`.
    func lowerBound(_ key: (UInt64, UInt64)) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let mid = (low + high) / 2
            if keys[mid] < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Moves `at` forward to `key`'s place and returns it when `key` is listed. Keys asked for
    /// in increasing order make one walk.
    func advance(_ at: inout Int, to key: (UInt64, UInt64)) -> Int? {
        while at < keys.count && keys[at] < key { at += 1 }
        return at < keys.count && keys[at] == key ? at : nil
    }

    /// Whether the key at `at` exists and is at most `last`: a listed id in a range that
    /// starts at or before it.
    func hasKey(at: Int, atMost last: (UInt64, UInt64)) -> Bool { at < keys.count && !(last < keys[at]) }

    func cover(_ position: Int) { covered[position] = true }
    func isCovered(_ position: Int) -> Bool { covered[position] }

    /// The ids not lent yet, in id order.
    func uncovered() -> [UUID] { ids.indices.filter { !covered[$0] }.map { ids[$0] } }
}

/// One optional position per thread, each written only by its own thread.
private final class ThreadCursors: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Int>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: -1)
    }

    deinit { slots.deallocate() }

    subscript(worker: Int) -> Int? {
        get { slots[worker] < 0 ? nil : slots[worker] }
        set { slots[worker] = newValue ?? -1 }
    }
}

/// One thread's buffer for a segment of the copy (sealed bytes only: no guarded memory needed).
private final class SegmentBuffer {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0

    deinit { base?.deallocate() }

    /// The bytes of `segment`, read from `fd`; nil when the file does not have them.
    func read(_ segment: EntryPack.Segment, from fd: Int32) -> UnsafeRawBufferPointer? {
        if segment.length > capacity {
            base?.deallocate()
            capacity = max(segment.length, EntryPack.segmentBytes + (64 << 10))
            base = .allocate(byteCount: capacity, alignment: 16)
        }
        guard let base, EntryPack.readFully(fd, base, segment.length, at: segment.offset) else { return nil }
        return UnsafeRawBufferPointer(start: base, count: segment.length)
    }
}
