import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of a remote tree held open, reached from the tree's root one name at a time with
/// `O_NOFOLLOW | O_DIRECTORY`, and the file operations inside it, which name their files
/// relative to it (`openat`, `renameat`, ...). Whoever controls the remote can put a symbolic
/// link anywhere below the root (`keys` → `/etc`): none is ever followed, so nothing is read
/// or written outside the tree through one.
final class RemoteFolder {
    let fd: Int32

    private init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }

    /// Why a path could not be used.
    enum Failure: Error, Equatable {
        /// The entry at `path` (relative to the root) is not what the path needs.
        case wrongKind(path: String, found: RemoteEntryKind)
        case io(path: String, errno: Int32)
    }

    /// The folder `path` names below `root` ("" for the root itself, whose own path may hold
    /// links: it is the user's), or nil when part of it is missing. `create`: missing folders
    /// are made (mode 0777 less the umask, as the folder's other files).
    static func open(root: URL, _ path: String, create: Bool = false) throws(Failure) -> RemoteFolder? {
        let top = openPath(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if top < 0 {
            if errno == ENOENT && !create { return nil }
            throw .io(path: "", errno: errno)
        }
        var folder = RemoteFolder(fd: top)
        var walked: [Substring] = []
        for name in try names(of: path) {
            walked.append(name)
            let shown = walked.joined(separator: "/")
            guard let next = try folder.subfolder(String(name), shown: shown, create: create) else { return nil }
            folder = next
        }
        return folder
    }

    /// The components of a path, refusing `.`, `..` and empty ones (no path diary builds has them).
    static func names(of path: String) throws(Failure) -> [Substring] {
        let names = path.split(separator: "/", omittingEmptySubsequences: false)
        if path.isEmpty { return [] }
        guard names.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { throw .io(path: path, errno: EINVAL) }
        return names
    }

    private func subfolder(_ name: String, shown: String, create: Bool) throws(Failure) -> RemoteFolder? {
        if create, mkdirat(fd, name, 0o777) != 0, errno != EEXIST { throw .io(path: shown, errno: errno) }
        let sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if sub >= 0 { return RemoteFolder(fd: sub) }
        let code = errno
        if code == ENOENT { return nil }
        if code == ELOOP || code == ENOTDIR, let kind = kind(of: name), kind != .folder {
            throw .wrongKind(path: shown, found: kind)
        }
        throw .io(path: shown, errno: code)
    }

    /// What `name` in this folder is, without following it; nil when it is missing.
    func kind(of name: String) -> RemoteEntryKind? {
        guard let info = status(of: name) else { return nil }
        return Self.kind(mode: info.st_mode)
    }

    static func kind(mode: mode_t) -> RemoteEntryKind {
        switch mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        case S_IFLNK: return .symbolicLink
        default: return .special
        }
    }

    /// The stat data of `name` itself (a link is not followed), or nil when it is missing.
    func status(of name: String) -> stat? {
        var info = stat()
        return fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Every name in this folder with what it is (`.` and `..` left out), unsorted.
    func entries() throws(Failure) -> [(name: String, kind: RemoteEntryKind)] {
        let copy = dup(fd)
        guard copy >= 0, let dir = fdopendir(copy) else {
            let code = errno
            if copy >= 0 { close(copy) }
            throw .io(path: "", errno: code)
        }
        defer { closedir(dir) }
        var result: [(name: String, kind: RemoteEntryKind)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let kind: RemoteEntryKind?
            switch Int(entry.pointee.d_type) {
            case Int(DT_DIR): kind = .folder
            case Int(DT_REG): kind = .file
            case Int(DT_LNK): kind = .symbolicLink
            case Int(DT_UNKNOWN): kind = self.kind(of: name)
            default: kind = .special
            }
            if let kind { result.append((name, kind)) }
        }
        return result
    }

    // MARK: Files

    /// Opens the regular file `name` for reading, with its stat data, or nil when it is
    /// missing. Anything else (a link, a folder, a FIFO, a device) is refused before it is
    /// opened, and again after (it may have been swapped in between). `O_NONBLOCK`: a FIFO
    /// swapped in does not block the open.
    func openFile(_ name: String, shown: String) throws(Failure) -> (fd: Int32, info: stat)? {
        guard let kind = kind(of: name) else { return nil }
        guard kind == .file else { throw .wrongKind(path: shown, found: kind) }
        let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if file < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP { throw .wrongKind(path: shown, found: .symbolicLink) }
            throw .io(path: shown, errno: code)
        }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(file)
            throw .wrongKind(path: shown, found: Self.kind(mode: info.st_mode))
        }
        return (file, info)
    }

    /// Atomically and durably puts `bytes` at `name`: a fresh `.tmp-…` file in this folder,
    /// fsynced, renamed over `name` (a link there is replaced, not followed), then the folder
    /// fsynced so the rename survives a power cut.
    func write(_ bytes: [UInt8], to name: String, shown: String) throws(Failure) {
        let temp = DurableFile.tempPrefix + SecureRandomName.make()
        let file = openat(fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw .io(path: shown, errno: errno) }
        var failure: Int32 = 0
        if fchmod(file, 0o600) != 0 {
            failure = errno
        } else if let code = bytes.withUnsafeBytes({ DurableFile.writeFully(file, $0) }) {
            failure = code
        } else if fsync(file) != 0 {
            failure = errno
        }
        close(file)
        if failure == 0, renameat(fd, temp, fd, name) != 0 { failure = errno }
        if failure != 0 {
            unlinkat(fd, temp, 0)
            throw .io(path: shown, errno: failure)
        }
        guard fsync(fd) == 0 else { throw .io(path: shown, errno: errno) }
    }

    /// `write` of bytes handed over piece by piece (an attachment object, never whole in
    /// memory): `produce` passes each piece to the closure it is given. When it throws, the
    /// temporary file is removed and nothing is at `name`. `name` must not exist: a file of the
    /// remote is written once.
    func writeStreaming(
        to name: String, shown: String, _ produce: (_ put: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        guard kind(of: name) == nil else { throw Failure.io(path: shown, errno: EEXIST) }
        let temp = DurableFile.tempPrefix + SecureRandomName.make()
        let file = openat(fd, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw Failure.io(path: shown, errno: errno) }
        do {
            defer { close(file) }
            guard fchmod(file, 0o600) == 0 else { throw Failure.io(path: shown, errno: errno) }
            try produce { piece in
                if let code = DurableFile.writeFully(file, piece) { throw Failure.io(path: shown, errno: code) }
            }
            guard fsync(file) == 0 else { throw Failure.io(path: shown, errno: errno) }
        } catch {
            unlinkat(fd, temp, 0)
            throw error
        }
        guard renameat(fd, temp, fd, name) == 0 else {
            let code = errno
            unlinkat(fd, temp, 0)
            throw Failure.io(path: shown, errno: code)
        }
        guard fsync(fd) == 0 else { throw Failure.io(path: shown, errno: errno) }
    }
}

/// Up to `count` bytes of an open file, from where it stands, fewer only at its end.
func readUpTo(_ count: Int, from file: Int32, shown: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: min(count, 64 << 10))
    while bytes.count < count {
        let want = min(chunk.count, count - bytes.count)
        let n = chunk.withUnsafeMutableBytes { readBytes(file, $0.baseAddress, want) }
        if n < 0 {
            if errno == EINTR { continue }
            throw StoreError.io(path: shown, detail: DurableFile.errnoText())
        }
        if n == 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return bytes
}

/// Exactly `count` bytes of an open file, from where it stands, handed to `body` in pieces of
/// at most 1 MiB (memory holds one piece); throws when the file ends early or holds more
/// (it changed while read).
func readExactly(
    _ count: UInt64, from file: Int32, shown: String, _ body: (UnsafeRawBufferPointer) throws -> Void
) throws {
    var buffer = [UInt8](repeating: 0, count: Int(min(max(count, 1), 1 << 20)))
    var left = count
    while left > 0 {
        let n = buffer.withUnsafeMutableBytes { readBytes(file, $0.baseAddress, Int(min(UInt64($0.count), left))) }
        if n < 0 {
            if errno == EINTR { continue }
            throw StoreError.io(path: shown, detail: DurableFile.errnoText())
        }
        guard n > 0 else { throw StoreError.corrupt(path: shown, detail: "ended while it was read") }
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        left -= UInt64(n)
    }
    var extra: UInt8 = 0
    guard readBytes(file, &extra, 1) == 0 else {
        throw StoreError.corrupt(path: shown, detail: "grew while it was read")
    }
}

// `RemoteFolder` has its own `open` and `write`, Foundation's `FileHandle` its own `read`:
// name the C calls unambiguously.
private func openPath(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }

private func readBytes(_ file: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(file, buffer, count)
}
