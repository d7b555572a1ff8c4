import DiaryStore
import DiaryVault
import Foundation

/// Writes an attachment's plaintext to a file the user named, so that nothing is at that path
/// unless the whole object authenticated.
///
/// The bytes go to a new `0600` file beside the target (`.diary-extract-OWNER-XXXXXX`, in the
/// same directory so the final step is a rename on one file system; OWNER is the pid and start
/// time of the `diary` writing it), are flushed to disk, and are moved to the target only after
/// `Vault.readAttachment` returned; on any failure the temporary file is removed. Without
/// `force`, the move is a `link` (which fails when the target exists, even one created
/// meanwhile), then the temporary name is unlinked. A `diary` killed while writing (SIGKILL
/// cannot be caught) leaves its temporary file; `removeAbandoned` removes it on the next
/// extract into that directory.
public enum AttachmentExtraction {
    public static let temporaryPrefix = ".diary-extract-"

    /// Extracts `record` of `vault` to `path`. Throws `AttachmentFileError.exists` when `path`
    /// exists and `force` is false; `notReplaceable` when `force` meets anything but a regular
    /// file; `unwritable` when the directory or the file cannot be written; and what
    /// `readAttachment` throws (damage, a missing object), with nothing at `path`.
    ///
    /// `owner` goes into the temporary file's name (see `removeAbandoned`); `tracking` is told
    /// the temporary file's path once it exists and nil once it is gone or published, so that
    /// a signal handler can remove it meanwhile.
    public static func extract(
        _ record: AttachmentRecord, of vault: Vault, to path: String, force: Bool, owner: String = "0-0",
        tracking: (String?) -> Void = { _ in }
    ) throws {
        try refuseExisting(path, force: force)
        var template = Array("\(directory(of: path))/\(temporaryPrefix)\(owner)-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
        // No child of this command may inherit the plaintext (mkostemp is not in Glibc's module).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(cString: template)
        tracking(temporary)
        var published = false
        defer {
            close(fd)
            if !published { unlink(temporary) }
            tracking(nil)
        }
        try vault.readAttachment(record) { piece in try writeAll(piece, to: fd, path: path) }
        guard fsync(fd) == 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
        if force {
            // Again just before the rename: what the path is may have changed since the first check.
            try refuseExisting(path, force: true)
            guard rename(temporary, path) == 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
        } else {
            guard link(temporary, path) == 0 else {
                if errno == EEXIST { throw AttachmentFileError.exists(path: path) }
                throw AttachmentFileError.unwritable(path: path, errno: errno)
            }
            unlink(temporary)
        }
        published = true
    }

    /// Refuses an existing `path` (a link too, even a dangling one) unless `force`; with
    /// `force`, refuses anything but a regular file: a rename would put a file in place of a
    /// device, a FIFO or a socket (`/dev/null` as root), and a symbolic link is neither
    /// followed nor replaced.
    public static func refuseExisting(_ path: String, force: Bool) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if !force { throw AttachmentFileError.exists(path: path) }
        if st.st_mode & S_IFMT != S_IFREG {
            throw AttachmentFileError.notReplaceable(path: path, kind: FileKind(mode: st.st_mode))
        }
    }

    /// Removes, from the directory `path` would be extracted to, the temporary files of
    /// extracts whose `diary` no longer runs (`isRunning(pid, start)` false), and returns their
    /// paths. Only regular files of this user named by this scheme are removed.
    public static func removeAbandoned(beside path: String, isRunning: (pid_t, UInt64) -> Bool) -> [String] {
        let directory = directory(of: path)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var removed: [String] = []
        for name in names.sorted() where name.hasPrefix(temporaryPrefix) {
            let fields = name.dropFirst(temporaryPrefix.count).split(separator: "-")
            guard fields.count == 3, let pid = pid_t(fields[0]), pid > 0, let start = UInt64(fields[1]),
                !isRunning(pid, start)
            else { continue }
            let file = "\(directory)/\(name)"
            var st = stat()
            guard lstat(file, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == getuid() else { continue }
            if unlink(file) == 0 { removed.append(file) }
        }
        return removed
    }

    /// The directory a file at `path` is in.
    static func directory(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        if let code = DurableFile.writeFully(fd, bytes) {
            throw AttachmentFileError.unwritable(path: path, errno: code)
        }
    }
}
