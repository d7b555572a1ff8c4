import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Told the path of each file and folder an export creates, as soon as it exists, so that an
/// interrupted export (a signal) can remove it all: it is plaintext.
public typealias CreatedPathTracking = @Sendable (String) -> Void

/// Where a streamed export's bytes go: a new file, or a descriptor the caller owns (stdout).
///
/// A file is created 0600 and never replaces anything (`O_EXCL`, so not even a file that
/// appears meanwhile); `finish` makes it and its name durable, `abandon` removes it, so an
/// export that fails halfway leaves no half file behind.
public final class ExportOutput {
    private var fd: Int32
    /// The file's path; nil for a descriptor the caller owns.
    private let path: String?
    /// A descriptor that stopped taking bytes (a closed pipe): the rest is dropped, as
    /// `diary`'s other output to stdout is.
    private var closed = false

    /// Creates the file at `url`; throws `outputExists` when there is one. `tracking` is told
    /// its path as soon as it exists (to remove it if the process is interrupted).
    public init(newFile url: URL, tracking: CreatedPathTracking? = nil) throws {
        let path = url.path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { throw ExchangeError.outputExists(path: path) }
            throw ExchangeError.writeFailed(path: path, detail: String(cString: strerror(errno)))
        }
        (self.fd, self.path) = (fd, path)
        tracking?(path)
    }

    /// Writes to `descriptor`, which stays open; a write error ends the output silently.
    public init(descriptor: Int32) {
        (fd, path) = (descriptor, nil)
    }

    deinit { if path != nil && fd >= 0 { close(fd) } }

    /// Writes all of `bytes`, then zeroes them: they hold entry text.
    func write(_ bytes: inout [UInt8]) throws {
        defer { secureZero(&bytes) }
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Writes all of `buffer` (the caller's to clear).
    func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard !closed, let code = DurableFile.writeFully(fd, buffer) else { return }
        guard let path else {
            closed = true
            return
        }
        throw ExchangeError.writeFailed(path: path, detail: DurableFile.errnoText(code))
    }

    /// A file: synced, closed, and its name synced too (the backup's and the stores' writes
    /// survive a crash; so must an export).
    public func finish() throws {
        guard let path, fd >= 0 else { return }
        let synced = fsync(fd) == 0 ? nil : String(cString: strerror(errno))
        close(fd)
        fd = -1
        if let synced {
            unlink(path)
            throw ExchangeError.writeFailed(path: path, detail: synced)
        }
        do { try DurableFile.syncDirectory(URL(fileURLWithPath: path).deletingLastPathComponent()) } catch {
            throw ExchangeError.writeFailed(path: path, detail: "\(error)")
        }
    }

    /// A file: closed and removed (the export failed). A descriptor is left as it is.
    public func abandon() {
        guard let path, fd >= 0 else { return }
        close(fd)
        fd = -1
        unlink(path)
    }
}
