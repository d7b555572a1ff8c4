import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader {
    /// `readEntry` for each id, each file opened relative to one open `entries/` (as
    /// `forEachEntry` reads them): a path resolved from the root and a URL built for every id
    /// cost more than the read (an export reads every entry this way, in its own order). The
    /// checks and the errors are `readEntry`'s; an `entries/` that does not open leaves the
    /// decision to `readEntry`, one id at a time.
    ///
    /// A batch is read by several threads, each a contiguous part of it: the reading (four
    /// system calls a file) was an export's longest part, on the one thread that also writes.
    /// What throws is what reading the ids in order would throw first: the error of the
    /// earliest id that fails (a part stops at its first failure, and every id of an earlier
    /// part comes before it).
    func readEntriesInDirectory(_ ids: some Collection<UUID>) throws -> [[UInt8]?] {
        let entries = directory.appendingPathComponent(FileStore.entriesName)
        let dirFD = open(entries.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { return try ids.map { try readEntry($0) } }
        defer { close(dirFD) }
        let ids = Array(ids)
        let read: @Sendable (UUID) throws -> [UInt8]? = { id in
            let name = id.lowercaseString  // `FileStore.fileName(for:)`, without snprintf
            return try Self.readEntryFile(name, in: dirFD) { entries.appendingPathComponent(name).path }
        }
        let parts = min(Self.readers, ids.count / Self.smallestPart)
        guard parts > 1 else { return try ids.map(read) }
        var results = [[UInt8]?](repeating: nil, count: ids.count)
        var failures = [(any Error)?](repeating: nil, count: parts)
        results.withUnsafeMutableBufferPointer { out in
            failures.withUnsafeMutableBufferPointer { failed in
                // Each part writes only its own slots of `out` and its own slot of `failed`.
                let work = BatchReadWork(out: out, failed: failed)
                DispatchQueue.concurrentPerform(iterations: parts) { p in
                    do {
                        for i in (ids.count * p / parts)..<(ids.count * (p + 1) / parts) {
                            work.out[i] = try read(ids[i])
                        }
                    } catch {
                        work.failed[p] = error
                    }
                }
            }
        }
        if let first = failures.lazy.compactMap({ $0 }).first { throw first }
        return results
    }

    /// Threads a batch read uses at most.
    private static var readers: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4) }

    /// Fewer ids than this per thread are read on the calling thread alone (`show` reads one).
    private static let smallestPart = 32
}

/// A batch read's results and failures, shared by the threads of `readEntriesInDirectory`:
/// each writes only its own slots, which makes the `@unchecked Sendable` sound.
private struct BatchReadWork: @unchecked Sendable {
    let out: UnsafeMutableBufferPointer<[UInt8]?>
    let failed: UnsafeMutableBufferPointer<(any Error)?>
}
