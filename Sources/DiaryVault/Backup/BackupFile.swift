import DiaryCrypto
import DiaryStore
import Foundation

/// The single-file backup container (docs/FORMAT.md §10): ciphertext only.
///
/// ```
/// magic "DIARYBAK" | version u16 | records… | end record
/// record:     type u8 | length u32 | payload
///   type 1 header (payload: the header bytes), 2 index (the sealed index, or its root when
///   the index is paged), 3 entry (payload: entry id 16 ‖ sealed entry), 4 index page
///   (payload: page u8 ‖ sealed page; a page of an index of version 2, numbered 0...63),
///   5 wide index page (payload: page u32 ‖ sealed page; numbered 64 and up, index version 3),
///   6 attachment piece (payload: object id 16 ‖ piece u32 ‖ bytes; piece 0 the object's
///   26-byte prefix, piece i+1 its stored chunk i, every piece of an object in order, one
///   record after the other),
///   0xFF end (payload: record count u64 ‖ BLAKE2b-256 of every byte before the end record)
/// ```
/// Index page records came after version 1 was first written and did not need a new version:
/// a backup without them (an older vault's) reads as having no pages. Type 5 came with index
/// version 3 (docs/FORMAT.md §7); a backup made before it has type 4 only, and restores an
/// index of version 2, which the next open migrates.
/// The sealed objects inside are exactly the vault's, so the backup is as opaque as the vault;
/// the end record detects truncation and accidental damage before any key is derived.
/// This type writes the format; `BackupReader` is its one reader.
package enum BackupFile {
    static let magic: [UInt8] = Array("DIARYBAK".utf8)
    static let version: UInt16 = 1
    static let headerType: UInt8 = 1
    static let indexType: UInt8 = 2
    static let entryType: UInt8 = 3
    static let indexPageType: UInt8 = 4
    static let wideIndexPageType: UInt8 = 5
    static let attachmentType: UInt8 = 6
    package static let endType: UInt8 = 0xFF
    /// No record may claim more than this; larger claims are refused before allocating.
    static let maximumRecordLength = LengthPadding.maximumLength + 1024

    /// The record type and the number field of index page `page`.
    static func pageRecord(_ page: Int) -> (type: UInt8, number: [UInt8]) {
        guard page >= IndexLayout.legacyPageCount else { return (indexPageType, [UInt8(page)]) }
        return (wideIndexPageType, (0..<4).map { UInt8(truncatingIfNeeded: page >> (24 - 8 * $0)) })
    }

    /// Streams a backup to a new file that must not exist yet. The bytes go to a temporary
    /// file beside it (`.diary-backup-PID-…`), made durable and then linked under the final
    /// name only by `finish`, so an interrupted backup never leaves a cut-short file under
    /// that name, and link(2) never replaces a file that appeared meanwhile.
    struct Writer {
        private let fd: Int32
        private let hasher = BLAKE2b.Hasher()
        private var records: UInt64 = 0
        private var buffer: [UInt8] = []
        let url: URL
        /// The temporary file being written.
        let temporary: String
        private let tracking: (String?) -> Void

        /// The prefix of a temporary backup file: then the writer's pid.
        static let temporaryPrefix = ".diary-backup-"

        init(creating url: URL, tracking: @escaping (String?) -> Void = { _ in }) throws {
            var st = stat()
            if lstat(url.path, &st) == 0 { throw VaultError.backupExists(path: url.path) }
            let name = "\(Self.temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            temporary = url.deletingLastPathComponent().appendingPathComponent(name).path
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw VaultError.io(path: url.path, detail: String(cString: strerror(errno))) }
            tracking(temporary)
            (self.url, self.tracking) = (url, tracking)
            var w = ByteWriter()
            w.append(BackupFile.magic)
            w.u16(BackupFile.version)
            try emit(w.bytes)
        }

        mutating func record(type: UInt8, payload: [UInt8]) throws {
            var w = ByteWriter(capacity: payload.count + 5)
            w.u8(type)
            w.u32(UInt32(payload.count))
            w.append(payload)
            try emit(w.bytes)
            records += 1
        }

        /// Writes the end record, makes the file durable and links it under the final name
        /// (refused if a file took that name meanwhile), durable too, before the backup is reported.
        mutating func finish() throws {
            var w = ByteWriter()
            w.u8(BackupFile.endType)
            w.u32(8 + 32)
            w.u64(records)
            w.append(hasher.finish())
            buffer.append(contentsOf: w.bytes)
            try flush()
            guard fsync(fd) == 0 else { throw failure(errno) }
            guard link(temporary, url.path) == 0 else {
                let code = errno
                discard()
                throw code == EEXIST ? VaultError.backupExists(path: url.path) : failure(code)
            }
            discard()
            do { try DurableFile.syncDirectory(url.deletingLastPathComponent()) } catch {
                throw VaultError.io(path: url.path, detail: "\(error)")
            }
        }

        /// Closes and removes the temporary file (after `finish`, only its second name).
        func discard() {
            close(fd)
            unlink(temporary)
            tracking(nil)
        }

        private mutating func emit(_ bytes: [UInt8]) throws {
            hasher.update(bytes)
            buffer.append(contentsOf: bytes)
            if buffer.count > 1 << 20 { try flush() }
        }

        private mutating func flush() throws {
            if let code = buffer.withUnsafeBytes({ DurableFile.writeFully(fd, $0) }) { throw failure(code) }
            buffer.removeAll(keepingCapacity: true)
        }

        /// "cannot write PATH: No space left on device", in the system's words for `code`.
        private func failure(_ code: Int32) -> VaultError {
            VaultError.io(path: url.path, detail: "cannot write the backup: \(String(cString: strerror(code)))")
        }
    }
}
