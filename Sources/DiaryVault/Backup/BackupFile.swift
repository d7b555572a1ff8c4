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

    /// Streams a backup to a new file that must not exist yet.
    struct Writer {
        private let handle: FileHandle
        private let hasher = BLAKE2b.Hasher()
        private var records: UInt64 = 0
        private var buffer: [UInt8] = []
        let url: URL

        init(creating url: URL) throws {
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                if errno == EEXIST { throw VaultError.backupExists(path: url.path) }
                throw VaultError.io(path: url.path, detail: String(cString: strerror(errno)))
            }
            handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
            self.url = url
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

        /// Writes the end record and makes the file durable.
        mutating func finish() throws {
            var w = ByteWriter()
            w.u8(BackupFile.endType)
            w.u32(8 + 32)
            w.u64(records)
            w.append(hasher.finish())
            buffer.append(contentsOf: w.bytes)
            try flush()
            do { try handle.synchronize() } catch { throw VaultError.io(path: url.path, detail: "\(error)") }
            // The file's directory entry must be durable too before the backup is reported.
            do { try DurableFile.syncDirectory(url.deletingLastPathComponent()) } catch {
                throw VaultError.io(path: url.path, detail: "\(error)")
            }
        }

        private mutating func emit(_ bytes: [UInt8]) throws {
            hasher.update(bytes)
            buffer.append(contentsOf: bytes)
            if buffer.count > 1 << 20 { try flush() }
        }

        private mutating func flush() throws {
            do { try handle.write(contentsOf: buffer) } catch {
                throw VaultError.io(path: url.path, detail: "\(error)")
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
