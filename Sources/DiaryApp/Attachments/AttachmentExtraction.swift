import DiaryVault
import Foundation

/// Writes an attachment's plaintext to a file the user named, so that nothing is at that path
/// unless the whole object authenticated.
///
/// The bytes go to a new `0600` file beside the target (`.diary-extract-XXXXXX`, in the same
/// directory so the final step is a rename on one file system), are flushed to disk, and are
/// moved to the target only after `Vault.readAttachment` returned; on any failure the
/// temporary file is removed. Without `force`, the move is a `link` (which fails when the
/// target exists, even one created meanwhile), then the temporary name is unlinked.
public enum AttachmentExtraction {
    /// Extracts `record` of `vault` to `path`. Throws `AttachmentFileError.exists` when `path`
    /// exists and `force` is false; `unwritable` when the directory or the file cannot be
    /// written; and what `readAttachment` throws (damage, a missing object), with nothing at
    /// `path`.
    public static func extract(_ record: AttachmentRecord, of vault: Vault, to path: String, force: Bool) throws {
        try refuseExisting(path, force: force)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var template = Array("\(directory)/.diary-extract-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
        // No child of this command may inherit the plaintext (mkostemp is not in Glibc's module).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(cString: template)
        var published = false
        defer {
            close(fd)
            if !published { unlink(temporary) }
        }
        try vault.readAttachment(record) { piece in try writeAll(piece, to: fd, path: path) }
        guard fsync(fd) == 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
        if force {
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
    /// `force`, refuses a directory, which a rename would not replace by a file.
    public static func refuseExisting(_ path: String, force: Bool) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if !force { throw AttachmentFileError.exists(path: path) }
        if st.st_mode & S_IFMT == S_IFDIR {
            throw AttachmentFileError.notRegularFile(path: path, kind: .directory)
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw AttachmentFileError.unwritable(path: path, errno: errno) }
            offset += n
        }
    }
}
