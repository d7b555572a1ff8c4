import DiaryCrypto
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durable, atomic replacement of whole files, and strict reads of them.
///
/// Every write goes to a fresh `.tmp-…` file in the target's own directory (so the rename never
/// crosses a file system), is fsynced, renamed over the target, and then the directory is
/// fsynced so the rename itself survives a power cut. Modes are set with `fchmod`/`chmod`, not
/// left to the umask.
package enum DurableFile {
    /// Prefix of every temporary file a writer creates; readers skip such names.
    package static let tempPrefix = ".tmp-"
    /// Mode of every file the stores create.
    static let fileMode: mode_t = 0o600
    /// Mode of every directory the stores create.
    static let directoryMode: mode_t = 0o700
    /// Largest blob a store will read: a crafted file must not make us allocate without bound.
    static let maxReadSize = 256 << 20

    /// The text of `errno`, for error details (never file contents).
    package static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The whole content of the regular file at `url`, or nil when it does not exist.
    /// A symbolic link, a non-regular file or one larger than `limit` (see `ReadLimits`) is
    /// damage, refused before anything is read.
    ///
    /// Reads with `O_NOATIME` where the kernel allows it (we own the file), so reading an entry
    /// does not stamp its access time: a copy of the vault would otherwise show which entries
    /// were last read, and when.
    package static func read(_ url: URL, limit: Int) throws -> [UInt8]? {
        let fd = try openRegular(path: url.path) { flags in open(url.path, flags) }
        guard let fd else { return nil }
        defer { close(fd) }
        let size = try regularFileSize(fd, path: url.path, limit: limit)
        var bytes = [UInt8]()
        bytes.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc_read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw StoreError.io(path: url.path, detail: errnoText())
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            guard bytes.count <= limit else {
                throw StoreError.corrupt(path: url.path, detail: "is larger than \(limit) bytes")
            }
        }
        return bytes
    }

    /// Opens a file for reading with `open` (given the flags), or returns nil when it does not
    /// exist; a symbolic link is damage.
    ///
    /// `O_NONBLOCK`: opening a FIFO for reading otherwise blocks until a writer appears, which
    /// may be never (and for `vault.journal`, with the vault lock held). With it the open
    /// returns at once and `regularFileSize` refuses the FIFO. For a regular file the flag
    /// changes nothing (reads of regular files never block), so it is left set: clearing it
    /// cost two system calls per entry in a scan. `path` is only formatted for an error.
    static func openRegular(path: @autoclosure () -> String, _ open: (Int32) -> Int32) throws -> Int32? {
        let flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
        var fd = open(flags | oNoAtime)
        if fd < 0 && errno == EPERM { fd = open(flags) }
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw StoreError.corrupt(path: path(), detail: "is a symbolic link") }
            throw StoreError.io(path: path(), detail: errnoText())
        }
        return fd
    }

    /// The size of the open file `fd`, from `fstat`: anything but a regular file, or a file
    /// larger than `limit`, is damage, named by `path`.
    static func regularFileSize(_ fd: Int32, path: @autoclosure () -> String, limit: Int) throws -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StoreError.io(path: path(), detail: errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StoreError.corrupt(path: path(), detail: "is not a regular file")
        }
        guard info.st_size >= 0, info.st_size <= limit else {
            throw StoreError.corrupt(path: path(), detail: "is larger than \(limit) bytes")
        }
        return Int(info.st_size)
    }

    /// Writes `bytes` to a new fsynced temporary file in `directory` and returns its URL.
    /// The caller renames it into place (or removes it). With `hidingTimes`, the file's access
    /// and modification times are set to an uninformative value (`hideTimes`) before the fsync.
    /// Without `sync` there is no fsync: only for a file a durable journal can write again,
    /// made durable later with the others of its change (`syncFiles`).
    static func stage(_ bytes: [UInt8], in directory: URL, hidingTimes: Bool = false, sync: Bool = true) throws
        -> URL
    {
        let url = directory.appendingPathComponent(tempPrefix + SecureRandomName.make())
        try stage(bytes, at: url, hidingTimes: hidingTimes, sync: sync)
        return url
    }

    /// `stage` to a temporary file of the caller's naming (a `tempPrefix` name nobody else uses).
    static func stage(_ bytes: [UInt8], at url: URL, hidingTimes: Bool = false, sync: Bool = true) throws {
        try stage(bytes, atPath: url.path, hidingTimes: hidingTimes, sync: sync)
    }

    /// `stage(_:at:)` by path: a writer of many files builds no `URL` per file (Foundation
    /// parses each one).
    static func stage(_ bytes: [UInt8], atPath path: String, hidingTimes: Bool = false, sync: Bool = true) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        guard fd >= 0 else { throw StoreError.io(path: path, detail: errnoText()) }
        do {
            defer { close(fd) }
            guard fchmod(fd, fileMode) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
            try writeAll(fd, bytes, path: path)
            if hidingTimes {
                var times = uninformativeTimes()
                guard futimens(fd, &times) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
            }
            guard !sync || fsync(fd) == 0 else { throw StoreError.io(path: path, detail: errnoText()) }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Renames a staged file over `target` (atomic on POSIX). The directory still needs a sync.
    static func commit(_ staged: URL, to target: URL) throws {
        try commit(path: staged.path, to: target.path)
    }

    /// `commit(_:to:)` by path.
    static func commit(path staged: String, to target: String) throws {
        guard rename(staged, target) == 0 else {
            let detail = errnoText()
            unlink(staged)
            throw StoreError.io(path: target, detail: detail)
        }
    }

    /// Atomically and durably replaces `target` with `bytes` (see `stage` for `hidingTimes`).
    package static func write(_ bytes: [UInt8], to target: URL, hidingTimes: Bool = false) throws {
        let directory = target.deletingLastPathComponent()
        let staged = try stage(bytes, in: directory, hidingTimes: hidingTimes)
        try commit(staged, to: target)
        try syncDirectory(directory)
    }

    /// Removes `url`; a missing file is not an error. Returns whether something was removed.
    @discardableResult
    static func remove(_ url: URL) throws -> Bool {
        try remove(path: url.path)
    }

    /// `remove(_:)` by path.
    @discardableResult
    static func remove(path: String) throws -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw StoreError.io(path: path, detail: errnoText())
    }

    /// `remove`, leaving a directory where it is instead of failing: for names diary writes as
    /// files, where someone else's directory must not stop a change. True when a file went.
    static func removeUnlessDirectory(_ url: URL) throws -> Bool {
        if unlink(url.path) == 0 { return true }
        if errno == ENOENT || errno == EISDIR { return false }
        throw StoreError.io(path: url.path, detail: errnoText())
    }

    /// Makes the contents of `files`, all in the file system that holds `directory`, durable:
    /// a large batch on Linux with one `syncfs` of that file system (a few thousand fsyncs, one
    /// per file, cost a journal commit each), anything else with one fsync per file. A small
    /// change (one `diary new`) never calls `syncfs`: it would wait for every other program's
    /// unwritten data on that file system too.
    static func syncFiles(_ files: [URL], in directory: URL) throws {
        #if os(Linux)
        if files.count >= syncFSThreshold { return try syncFileSystem(of: directory) }
        #endif
        for file in files {
            let fd = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { throw StoreError.io(path: file.path, detail: errnoText()) }
            defer { close(fd) }
            guard fsync(fd) == 0 else { throw StoreError.io(path: file.path, detail: errnoText()) }
        }
    }

    #if os(Linux)
    /// One `syncfs` of the file system that holds `directory` (see `syncFiles`).
    static func syncFileSystem(of directory: URL) throws {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: directory.path, detail: errnoText()) }
        defer { close(fd) }
        guard linuxSyncFS(fd) == 0 else { throw StoreError.io(path: directory.path, detail: errnoText()) }
    }
    #endif

    /// The number of files from which one `syncfs` is cheaper than an fsync each.
    static let syncFSThreshold = 64

    /// Fsyncs a directory, making renames and unlinks in it durable.
    package static func syncDirectory(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io(path: url.path, detail: errnoText()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io(path: url.path, detail: errnoText()) }
    }

    /// Creates `url` as a 0700 directory if it is missing; an existing directory is chmodded 0700.
    package static func makeDirectory(_ url: URL) throws {
        if mkdir(url.path, directoryMode) != 0 && errno != EEXIST {
            throw StoreError.io(path: url.path, detail: errnoText())
        }
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw StoreError.io(path: url.path, detail: errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw StoreError.notAVault(path: url.path)
        }
        // mkdir's mode is filtered by the umask; chmod is not.
        guard chmod(url.path, directoryMode) == 0 else { throw StoreError.io(path: url.path, detail: errnoText()) }
    }

    /// The names in a directory (without `.` and `..`), or nil when it does not exist.
    static func names(in url: URL) throws -> [String]? {
        guard let dir = opendir(url.path) else {
            if errno == ENOENT { return nil }
            if errno == ENOTDIR { throw StoreError.notAVault(path: url.path) }
            throw StoreError.io(path: url.path, detail: errnoText())
        }
        defer { closedir(dir) }
        var result = [String]()
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { result.append(name) }
        }
        return result
    }

    /// Removes every `.tmp-…` file a killed writer (or a search killed while writing the scan
    /// copy) may have left in `directory`, durably when there was one: a leftover must not come
    /// back after a crash holding sealed bytes that a later change replaced.
    /// Except the names in `keeping`: a rotation's spares, which its next batch overwrites
    /// (`SpareFiles`).
    static func removeTempFiles(in directory: URL, keeping: Set<String> = []) throws {
        var removed = false
        for name in try names(in: directory) ?? [] where name.hasPrefix(tempPrefix) && !keeping.contains(name) {
            // A directory under a temporary name is no leftover of ours: it must not stop a change.
            removed = try removeUnlessDirectory(directory.appendingPathComponent(name)) || removed
        }
        if removed { try syncDirectory(directory) }
    }

    /// Every byte written at the file's offset (`writeFully`), or the store's error naming `path`.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        if let code = bytes.withUnsafeBytes({ writeFully(fd, $0) }) {
            throw StoreError.io(path: path, detail: errnoText(code))
        }
    }

    /// Writes every byte at the file's offset, across short writes and interruptions: nil when
    /// all were written, else the failure's errno. The one loop of its kind, for every module:
    /// each caller words the failure as its own error.
    ///
    /// A write that makes no progress (returns 0) is ENOSPC, not a loop, and never an errno left
    /// over from an earlier call.
    package static func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc_write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return ENOSPC }
            offset += n
        }
        return nil
    }
}

/// Unpredictable temporary-file names, so no other process can pre-create or guess them.
package enum SecureRandomName {
    /// 128 bits from the crypto module's random source, in hex.
    package static func make() -> String {
        SecureRandom.bytes(count: 16).map { String(format: "%02x", $0) }.joined()
    }
}

// Foundation's `FileHandle` has its own `read`/`write`; name the libc calls unambiguously.
private func Glibc_read(_ fd: Int32, _ buf: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buf, count)
}

private func Glibc_write(_ fd: Int32, _ buf: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, buf, count)
}

#if os(Linux)
/// `syncfs(2)`: Glibc declares it only under `_GNU_SOURCE`, which the module map does not set.
@_silgen_name("syncfs")
private func linuxSyncFS(_ fd: Int32) -> Int32
#endif
