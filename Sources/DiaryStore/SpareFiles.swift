import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a key rotation's batch replaced, kept under temporary names for the next batch
/// to write its staged blobs into.
///
/// A rotation replaces every file of the vault, batch after batch. Renaming each staged file
/// over its target makes the file system create an inode per staged file and free one per
/// replaced file (with ext4's discard, a wait per file): at 100,000 entries most of a files
/// vault's rekey was spent in the kernel doing just that. Instead, a batch's commit exchanges
/// each staged file with its target (`renameat2`'s `RENAME_EXCHANGE`, atomic as a rename is):
/// the target's name then holds the new blob, and the temporary name the replaced file, which
/// the next batch overwrites with one of its own blobs rather than creating a file. Only the
/// last batch's files are freed: the first change after it that is not a batch (the
/// rotation's own last change, which retires the old key) removes them (`removeAll`).
///
/// A spare holds a replaced sealed blob under a `.tmp-` name, which no reader takes for
/// vault data. Should the process die before `removeAll`, the next change to the vault removes
/// it with every other leftover temporary file (`DurableFile.removeTempFiles`), as it does a
/// killed writer's staged blobs.
final class SpareFiles: Sendable {
    private let names = Mutex<[String]>([])

    /// The name of a spare to write a staged blob into, if one is left: any of them, at
    /// random. A spare keeps the birth time of the file it was (on a file system that records
    /// one), so taken in order the entries of a batch would carry, name by name, the birth
    /// times of entries of the batch before, which a reader of the disk could pair up (both
    /// batches follow from the ids). At random they only carry some entry's.
    func take() -> String? {
        names.withLock { names in
            guard !names.isEmpty else { return nil }
            var random = SystemRandomNumberGenerator()
            names.swapAt(Int.random(in: names.indices, using: &random), names.count - 1)
            return names.popLast()
        }
    }

    /// Keeps the file now named `name` (in the vault directory) for a later batch.
    func keep(_ name: String) {
        names.withLock { $0.append(name) }
    }

    /// The names kept now, which `removeTempFiles` leaves where they are.
    var kept: Set<String> {
        names.withLock { Set($0) }
    }

    /// Removes every spare from `directory`, durably where it can: nothing of a finished
    /// rotation's old blobs stays under any name. It runs after a change is committed, so it
    /// throws nothing: a spare it cannot remove (someone put a directory in its place) is a
    /// leftover like any other, for the next change's `removeTempFiles`. True when it removed
    /// any (the directory changed).
    @discardableResult
    func removeAll(in directory: URL) -> Bool {
        let spares = names.withLock { names in
            defer { names.removeAll() }
            return names
        }
        var removed = false
        for name in spares {
            let url = directory.appendingPathComponent(name, isDirectory: false)
            removed = ((try? DurableFile.removeUnlessDirectory(url)) ?? false) || removed
        }
        if removed { try? DurableFile.syncDirectory(directory) }
        return removed
    }
}

extension DurableFile {
    /// `stage` into an existing file of ours (a spare: see `SpareFiles`) instead of a new one:
    /// the bytes are written over the old ones, the size set, and the mode and times as `stage`
    /// sets them. Nothing is fsynced (a journal can write it again). Returns false, having
    /// written nothing, when the file is gone or is not a regular file of this user's with one
    /// link: a file someone else also holds (a hard-linked snapshot of the vault) must not have
    /// its bytes changed under them, and one this user may not write (left read-only by a
    /// copy, or owned by root after a `sudo diary`) was replaceable by a rename all the same.
    static func overwrite(_ bytes: [UInt8], atPath path: String, hidingTimes: Bool) throws -> Bool {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            // Gone, no longer a file (a link, a FIFO, a directory), or not writable by us.
            if [ENOENT, ELOOP, ENXIO, EISDIR, EACCES, EPERM].contains(errno) { return false }
            throw StoreError.io(path: path, detail: errnoText())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG, info.st_nlink == 1, info.st_uid == geteuid() else { return false }
        // A store file has its mode already: a call (and an inode update) saved per file.
        if info.st_mode & 0o7777 != fileMode {
            guard fchmod(fd, fileMode) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
        }
        try writeAll(fd, bytes, path: path)  // from offset 0: the file was just opened
        if Int(info.st_size) != bytes.count {
            guard ftruncate(fd, off_t(bytes.count)) == 0 else {
                throw StoreError.io(path: path, detail: errnoText())
            }
        }
        if hidingTimes {
            var times = uninformativeTimes()
            guard futimens(fd, &times) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
        }
        return true
    }

    /// How `exchange` went.
    enum Exchange {
        /// `staged` now names the file `target` named, and `target` the staged one.
        case exchanged
        /// There was no `target`, or the file system cannot exchange names: nothing moved.
        case notExchanged
    }

    /// Atomically swaps the names `staged` and `target` (`renameat2` with `RENAME_EXCHANGE`),
    /// where the system can and `target` is a regular file; `notExchanged` otherwise, for the
    /// caller to rename as before. (An exchange would move a directory found at `target` away
    /// under a temporary name, where a rename over it fails, as it always did.)
    static func exchange(path staged: String, with target: String) throws -> Exchange {
        #if os(Linux)
        guard exchangeWorks.load(ordering: .relaxed) else { return .notExchanged }
        var info = stat()
        guard lstat(target, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return .notExchanged }
        let renameExchange: UInt32 = 2
        if linuxRenameAt2(atFDCWD, staged, atFDCWD, target, renameExchange) == 0 { return .exchanged }
        switch errno {
        case ENOENT:
            return .notExchanged
        case EINVAL, ENOSYS, EOPNOTSUPP:
            // A file system (or kernel) without the exchange: not asked again by this process.
            exchangeWorks.store(false, ordering: .relaxed)
            return .notExchanged
        default:
            throw StoreError.io(path: target, detail: errnoText())
        }
        #else
        return .notExchanged
        #endif
    }
}

#if os(Linux)
/// Whether `renameat2` exchanges names here (false after it said it cannot; tests set it to
/// try the fallback).
let exchangeWorks = Atomic<Bool>(true)
private let atFDCWD: Int32 = -100

/// `renameat2(2)`: Glibc declares it only under `_GNU_SOURCE`, which the module map does not set.
@_silgen_name("renameat2")
private func linuxRenameAt2(
    _ oldDirectory: Int32, _ oldPath: UnsafePointer<CChar>, _ newDirectory: Int32, _ newPath: UnsafePointer<CChar>,
    _ flags: UInt32
) -> Int32
#endif
