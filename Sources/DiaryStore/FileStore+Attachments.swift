import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Attachment objects in a files vault: `attachments/<lowercase uuid>`, one file each,
/// written once (under a temporary name, fsynced, renamed, directories fsynced) and removed
/// only by a journaled change's `delete`.
extension FileStore {
    package static let attachmentsName = "attachments"

    /// The path of an attachment object relative to the vault directory.
    package static func attachmentName(for id: UUID) -> String { attachmentsName + "/" + fileName(for: id) }

    /// Whether `name` is `attachments/<lowercase uuid>`: the only attachment name a journal may
    /// hold (and only in a delete).
    static func isAttachmentName(_ name: String) -> Bool {
        let prefix = attachmentsName + "/"
        return name.hasPrefix(prefix) && entryID(fromFileName: String(name.dropFirst(prefix.count))) != nil
    }

    /// Fsyncs `attachments/` after names in it changed, if it exists.
    static func syncAttachments(in directory: URL, if touched: Bool) throws {
        let url = directory.appendingPathComponent(attachmentsName)
        guard touched, access(url.path, F_OK) == 0 else { return }
        try DurableFile.syncDirectory(url)
    }

    public func removeLeftovers() throws {
        // Only the vault directory: every blob, attachments too, is staged there.
        try withWriteLock { try DurableFile.removeTempFiles(in: directory) }
    }

    public func putAttachment(_ id: UUID, _ write: (_ chunk: ([UInt8]) throws -> Void) throws -> Void) throws {
        try withWriteLock {
            // Staged in the vault directory like every blob: a killed writer's leftover is found
            // (and removed by the next change) without listing `attachments/`. Temporary files
            // are not cleaned here: a caller inside `apply(inParts:)` has its own staged there.
            let temp = directory.appendingPathComponent(DurableFile.tempPrefix + SecureRandomName.make())
            let file = try StagedAttachment(temp)
            do {
                try write { try file.append($0) }
                try file.seal()
            } catch {
                file.discard()
                throw error
            }
            let attachments = directory.appendingPathComponent(Self.attachmentsName)
            try DurableFile.makeDirectory(attachments)
            try DurableFile.commit(temp, to: directory.appendingPathComponent(Self.attachmentName(for: id)))
            try DurableFile.syncDirectory(attachments)
            try DurableFile.syncDirectory(directory)
            try Self.hideDirectoryTimes(in: directory)
        }
    }
}

/// An attachment object being written under its temporary name.
private final class StagedAttachment {
    private let url: URL
    private var fd: Int32
    private var size = 0

    init(_ url: URL) throws {
        self.url = url
        fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, DurableFile.fileMode)
        guard fd >= 0 else { throw StoreError.io(path: url.path, detail: DurableFile.errnoText()) }
        guard fchmod(fd, DurableFile.fileMode) == 0 else {
            let error = StoreError.io(path: url.path, detail: DurableFile.errnoText())
            discard()
            throw error
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    func append(_ bytes: [UInt8]) throws {
        size += bytes.count
        // Refused as it is written: a larger object could never be read back.
        guard size <= ReadLimits.attachment else {
            throw StoreError.io(path: url.path, detail: "an attachment may hold at most \(ReadLimits.attachment) bytes")
        }
        try DurableFile.writeAll(fd, bytes, path: url.path)
    }

    /// Refuses an empty object; hides the file's times (HiddenTimes.swift), fsyncs and closes it.
    func seal() throws {
        // The SQLite store cannot keep an object of no rows either; the vault never writes one.
        guard size > 0 else { throw StoreError.io(path: url.path, detail: "an attachment object holds no bytes") }
        var times = DurableFile.uninformativeTimes()
        guard futimens(fd, &times) == 0, fsync(fd) == 0 else {
            throw StoreError.io(path: url.path, detail: DurableFile.errnoText())
        }
        let rc = close(fd)
        fd = -1
        guard rc == 0 else { throw StoreError.io(path: url.path, detail: DurableFile.errnoText()) }
    }

    func discard() {
        if fd >= 0 { close(fd) }
        fd = -1
        unlink(url.path)
    }
}

extension FileReader {
    private func attachmentPath(_ id: UUID) -> String {
        directory.appendingPathComponent(FileStore.attachmentName(for: id)).path
    }

    /// Opens the object's file: nil when absent; a link, a non-regular file or one larger than
    /// the largest object is damage (`DurableFile.openRegular`, `regularFileSize`).
    private func openAttachment(_ id: UUID) throws -> (fd: Int32, size: Int)? {
        let path = attachmentPath(id)
        guard let fd = try DurableFile.openRegular(path: path, { open(path, $0) }) else { return nil }
        do {
            return (fd, try DurableFile.regularFileSize(fd, path: path, limit: ReadLimits.attachment))
        } catch {
            close(fd)
            throw error
        }
    }

    func readAttachment(_ id: UUID, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let (fd, size) = try openAttachment(id) else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(1, min(size, 1 << 20)))
        var remaining = size
        while remaining > 0 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, remaining)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw StoreError.io(path: attachmentPath(id), detail: DurableFile.errnoText()) }
            // Under the snapshot lock no writer changes it: a file that ends early is damage.
            guard n > 0 else { throw StoreError.corrupt(path: attachmentPath(id), detail: "ended while it was read") }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            remaining -= n
        }
        return true
    }

    func attachmentLength(_ id: UUID) throws -> Int? {
        guard let (fd, size) = try openAttachment(id) else { return nil }
        close(fd)
        return size
    }

    /// Ids of the files in `attachments/` named as lowercase UUIDs (temporary files and other
    /// names are not objects; `auditLayout` reports the others).
    func attachmentIDs() throws -> [UUID] {
        let names = try DurableFile.names(in: directory.appendingPathComponent(FileStore.attachmentsName)) ?? []
        return names.compactMap(FileReader.canonicalEntryID)
    }
}
