import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The file operations capture needs, each durable and careful with what it reads: a file is
/// read only when it is a regular file (never through a link) no larger than a cap, checked
/// before reading; a new file is written under a temporary name, flushed, then renamed.
enum CaptureFiles {
    /// `writeNew` found a file at the path.
    struct Exists: Error {}

    enum ReadResult {
        case bytes([UInt8])
        case tooLarge
        case notAFile
        case gone
        /// It changed size while it was read (a writer is at work): look again later.
        case changing
    }

    /// The regular file at `path`, at most `limit` bytes, checked with `fstat` before reading.
    static func read(_ path: String, limit: Int) throws -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else {
            if errno == ENOENT { return .gone }
            if errno == ELOOP { return .notAFile }
            throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return .notAFile }
        guard info.st_size <= limit else { return .tooLarge }
        guard let bytes = try readExactly(fd, size: Int(info.st_size), path: path) else { return .changing }
        return .bytes(bytes)
    }

    /// The first `count` bytes of the regular file at `path` (never through a link), nil when it
    /// is not one or is shorter: what an item's header says, read without its body.
    static func readHead(_ path: String, count: Int) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= count else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, count - done) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno))) }
            if n == 0 { return nil }
            done += n
        }
        return bytes
    }

    /// The `size` bytes `fd` holds (its size by `fstat`), nil when it holds another number of
    /// bytes now: the buffer is the file's own size, so reading costs what the file weighs.
    static func readExactly(_ fd: Int32, size: Int, path: String) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: size + 1)  // one more, to see a file that grew
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno))) }
            if n == 0 { break }
            count += n
        }
        guard count == size else { return nil }
        bytes.removeLast()
        return bytes
    }

    /// The names in `directory`, nil when it does not exist: one `opendir` when there is no inbox.
    static func names(in directory: String) throws -> [String]? {
        guard let dir = opendir(directory) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw CaptureAppError.io(path: directory, detail: String(cString: strerror(errno)))
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Creates `directory` 0700 unless it exists (as a directory, not a link).
    static func makeDirectory(_ directory: String) throws {
        if mkdir(directory, 0o700) == 0 {
            try syncDirectory((directory as NSString).deletingLastPathComponent)
            return
        }
        var info = stat()
        guard errno == EEXIST, lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw CaptureAppError.io(path: directory, detail: "something other than a directory is there")
        }
    }

    /// Writes `bytes` to a new file at `path` (never replacing one, a link included): a `.tmp-`
    /// file in the same directory, flushed, then linked to `path` (throwing `Exists` if anything
    /// is there) and unlinked.
    static func writeNew(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = try writeTemporary(bytes, beside: path, mode: mode)
        defer { unlink(temporary) }
        guard link(temporary, path) == 0 else {
            if errno == EEXIST { throw Exists() }
            throw CaptureAppError.io(path: path, detail: String(cString: strerror(errno)))
        }
        try syncDirectory(directory)
    }

    /// Replaces the file at `path` with `bytes` atomically: temporary file, fsync, rename, and
    /// the directory flushed, so a crash leaves the old bytes or the new ones.
    static func replace(_ path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws {
        let temporary = try writeTemporary(bytes, beside: path, mode: mode)
        guard rename(temporary, path) == 0 else {
            let detail = String(cString: strerror(errno))
            unlink(temporary)
            throw CaptureAppError.io(path: path, detail: detail)
        }
        try syncDirectory((path as NSString).deletingLastPathComponent)
    }

    /// A new flushed file beside `path` named `.tmp-<random>`, holding `bytes`; its path.
    private static func writeTemporary(_ bytes: [UInt8], beside path: String, mode: mode_t) throws -> String {
        let directory = (path as NSString).deletingLastPathComponent
        let random = SecureRandom.bytes(count: 8).map { String(format: "%02x", $0) }.joined()
        let temporary = (directory.isEmpty ? "." : directory) + "/.tmp-" + random
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard fd >= 0 else { throw CaptureAppError.io(path: directory, detail: String(cString: strerror(errno))) }
        var done = false
        defer {
            close(fd)
            if !done { unlink(temporary) }
        }
        try writeAll(bytes, to: fd, path: temporary)
        guard fsync(fd) == 0 else {
            throw CaptureAppError.io(path: temporary, detail: String(cString: strerror(errno)))
        }
        done = true
        return temporary
    }

    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws {
        if let code = bytes.withUnsafeBytes({ DurableFile.writeFully(fd, $0) }) {
            throw CaptureAppError.io(path: path, detail: DurableFile.errnoText(code))
        }
    }

    static func syncDirectory(_ directory: String) throws {
        let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw CaptureAppError.io(path: directory, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw CaptureAppError.io(path: directory, detail: String(cString: strerror(errno)))
        }
    }
}
