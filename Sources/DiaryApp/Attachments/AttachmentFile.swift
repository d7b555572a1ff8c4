import DiaryVault
import Foundation

/// Why a file named to attach or extract was refused; the CLI words it. Each names the path
/// as the user gave it.
public enum AttachmentFileError: Error, Equatable, Sendable {
    /// No file at the path.
    case missing(path: String)
    /// The file could not be opened or read (`errno`: permission denied, an I/O error).
    case unreadable(path: String, errno: Int32)
    /// A directory, a FIFO, a socket or a device: only a regular file is attached.
    case notRegularFile(path: String, kind: FileKind)
    /// The file grew, shrank or was rewritten while it was read: what was read is not one file.
    case changedWhileRead(path: String)
    /// A file whose size is 0 (empty, or a `/proc` or other special file that reports 0).
    case empty(path: String)
    /// A file larger than `AttachmentLimits.maximumLength`.
    case tooLarge(path: String, limit: UInt64)
    /// A file that starts as a JPEG but is broken or cut short: its metadata cannot be
    /// removed (`--keep-metadata` attaches it as it is).
    case malformedJPEG(path: String)
    /// The name (the file's base name, or `--name`) cannot name an attachment.
    case invalidName(name: String, path: String)
    /// The file's base name is not UTF-8, and no name was given for it.
    case nameNotUTF8(path: String)
    /// `extract` to a path that exists, without `--force`.
    case exists(path: String)
    /// `extract --force` onto something other than a regular file (a device, a FIFO, a link):
    /// replacing it would change what the path is, or write where it leads.
    case notReplaceable(path: String, kind: FileKind)
    /// `extract`: the file could not be written (`errno`).
    case unwritable(path: String, errno: Int32)
}

/// What a path that is not a regular file holds.
public enum FileKind: String, Sendable {
    case directory, fifo, socket, device, symbolicLink, other

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .other
        }
    }
}

/// A regular file open for attaching, read once from start to end, that refuses to be
/// anything else: not a directory, FIFO, socket or device, and not a file that changes while
/// it is read.
///
/// Opened with `O_NONBLOCK` so that naming a FIFO cannot hang the command in `open` (a FIFO
/// without a writer blocks there); `fstat` on the open descriptor then decides, so a path
/// swapped after a check cannot slip a different kind of file in. The size and modification
/// time are taken when the file is opened and again at its end; the bytes read must match
/// both, else the file changed under the reader (a log still being written, a photo still
/// being copied) and what was read is refused rather than stored as a file that never existed.
public final class AttachmentFile {
    public let path: String
    private let fd: Int32
    private let sizeAtOpen: UInt64
    private let modifiedAtOpen: timespec
    private var bytesRead: UInt64 = 0
    private var ended = false

    /// The file's length when it was opened.
    public var length: UInt64 { sizeAtOpen }

    /// Opens `path` for reading; throws `AttachmentFileError` for a missing or unreadable
    /// path, anything but a regular file, an empty file and one past the size limit.
    public convenience init(path: String) throws {
        try self.init(pathBytes: Array(path.utf8), path: path)
    }

    /// Opens the file whose path is `bytes` exactly as given (a name that is not UTF-8 too);
    /// `path` names it in errors.
    public init(pathBytes bytes: [UInt8], path: String) throws {
        let fd = (bytes + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        }
        guard fd >= 0 else {
            let code = errno
            // ENOTDIR is not "missing": `file.jpg/` names a file as if it were a directory.
            if code == ENOENT { throw AttachmentFileError.missing(path: path) }
            throw AttachmentFileError.unreadable(path: path, errno: code)
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw AttachmentFileError.unreadable(path: path, errno: code)
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw AttachmentFileError.notRegularFile(path: path, kind: FileKind(mode: st.st_mode))
        }
        let size = UInt64(max(0, st.st_size))
        guard size > 0 else {
            close(fd)
            throw AttachmentFileError.empty(path: path)
        }
        guard size <= AttachmentLimits.maximumLength else {
            close(fd)
            throw AttachmentFileError.tooLarge(path: path, limit: AttachmentLimits.maximumLength)
        }
        self.path = path
        self.fd = fd
        sizeAtOpen = size
        modifiedAtOpen = st.st_mtim
    }

    deinit { close(fd) }

    /// Reads the next bytes into the start of `buffer` and returns how many; 0 at the end,
    /// once the end is checked against the size and time the file had when it was opened.
    public func read(_ buffer: inout [UInt8]) throws -> Int {
        guard !ended, !buffer.isEmpty else { return 0 }
        var n: Int
        repeat {
            n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        } while n < 0 && errno == EINTR
        guard n >= 0 else { throw AttachmentFileError.unreadable(path: path, errno: errno) }
        bytesRead += UInt64(n)
        guard bytesRead <= sizeAtOpen else { throw AttachmentFileError.changedWhileRead(path: path) }
        if n == 0 {
            ended = true
            try checkUnchanged()
        }
        return n
    }

    /// At the end: as many bytes read as the file had, and the file as it was when opened.
    private func checkUnchanged() throws {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw AttachmentFileError.unreadable(path: path, errno: errno) }
        let sameTime = st.st_mtim.tv_sec == modifiedAtOpen.tv_sec && st.st_mtim.tv_nsec == modifiedAtOpen.tv_nsec
        guard bytesRead == sizeAtOpen, UInt64(max(0, st.st_size)) == sizeAtOpen, sameTime else {
            throw AttachmentFileError.changedWhileRead(path: path)
        }
    }
}
