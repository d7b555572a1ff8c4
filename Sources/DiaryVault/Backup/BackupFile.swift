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
///   (payload: page u8 ‖ sealed page), 0xFF end (payload: record count u64 ‖ BLAKE2b-256 of
///   every byte before the end record)
/// ```
/// Index page records came after version 1 was first written and did not need a new version:
/// a backup without them (an older vault's) reads as having no pages.
/// The sealed objects inside are exactly the vault's, so the backup is as opaque as the vault;
/// the end record detects truncation and accidental damage before any key is derived.
enum BackupFile {
    static let magic: [UInt8] = Array("DIARYBAK".utf8)
    static let version: UInt16 = 1
    static let headerType: UInt8 = 1
    static let indexType: UInt8 = 2
    static let entryType: UInt8 = 3
    static let indexPageType: UInt8 = 4
    static let endType: UInt8 = 0xFF
    /// No record may claim more than this; larger claims are refused before allocating.
    static let maximumRecordLength = LengthPadding.maximumLength + 1024

    /// The contents of a backup once parsed and its checksum verified.
    struct Contents {
        var header: [UInt8]
        var index: [UInt8]?
        var entries: [(UUID, [UInt8])]
        /// Sealed index pages by page number; empty for a backup of an unpaged index.
        var indexPages: [Int: [UInt8]] = [:]
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
            do { try handle.write(contentsOf: buffer) } catch { throw VaultError.io(path: url.path, detail: "\(error)") }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Parses a whole backup strictly, in memory: magic, version, record framing, the end
    /// record's count and checksum, exactly one header first, at most one index, unique entry
    /// ids, unique index pages in `StoreChange.indexPageRange`. The first error refuses the file.
    /// `diary` itself reads backups with `BackupReader` (record by record, bounded memory,
    /// naming each damaged record); this strict reader remains for the fuzzer and for tests
    /// that state the format's MUST-reject rules.
    /// The largest file `read` accepts, refusing a device or a runaway file before allocating.
    static let maximumFileBytes = 4 << 30

    static func read(_ url: URL) throws -> Contents {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw VaultError.io(path: url.path, detail: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw VaultError.notABackup(path: url.path) }
        guard Int(info.st_size) <= maximumFileBytes else {
            throw VaultError.backupDamaged(path: url.path, detail: "larger than \(maximumFileBytes) bytes")
        }
        let data: [UInt8]
        do { data = Array(try Data(contentsOf: url)) } catch {
            throw VaultError.io(path: url.path, detail: "cannot read")
        }
        return try parse(data, path: url.path)
    }

    /// Parses the bytes of a backup file; `path` only names the file in errors. Separate from
    /// `read` so the fuzzer can feed bytes without touching the disk.
    static func parse(_ data: [UInt8], path: String) throws -> Contents {
        guard data.count >= 10, Array(data[0..<8]) == magic else { throw VaultError.notABackup(path: path) }
        let damaged = { (detail: String) in VaultError.backupDamaged(path: path, detail: detail) }
        let version = Int(data[8]) << 8 | Int(data[9])
        guard version == Int(Self.version) else {
            throw VaultError.unsupportedVersion(found: version, supported: Int(Self.version))
        }
        var r = ByteReader(data, offset: 10)
        var contents = Contents(header: [], index: nil, entries: [])
        var seen = Set<UUID>()
        var count: UInt64 = 0
        do {
            while true {
                let start = r.offset
                let type = try r.u8()
                let length = Int(try r.u32())
                guard length <= maximumRecordLength else { throw damaged("record too large") }
                let payload = try r.take(length)
                if type == endType {
                    guard length == 40, r.isAtEnd else { throw damaged("malformed end record") }
                    var p = ByteReader(payload)
                    guard try p.u64() == count else { throw damaged("record count mismatch") }
                    guard constantTimeEquals(try p.take(32), BLAKE2b.hash(Array(data[..<start]))) else {
                        throw damaged("checksum mismatch")
                    }
                    break
                }
                count += 1
                switch type {
                case headerType where count == 1: contents.header = payload
                case indexType where contents.index == nil && count > 1: contents.index = payload
                case entryType where count > 1 && length >= 16:
                    let id = UUID(bytes: Array(payload[0..<16]))
                    guard seen.insert(id).inserted else { throw damaged("duplicate entry \(id.uuidString.lowercased())") }
                    contents.entries.append((id, Array(payload[16...])))
                case indexPageType where count > 1:
                    guard let number = payload.first, StoreChange.indexPageRange.contains(Int(number)) else {
                        throw damaged("malformed index page record")
                    }
                    let page = Int(number)
                    guard contents.indexPages.updateValue(Array(payload[1...]), forKey: page) == nil else {
                        throw damaged("duplicate index page \(page)")
                    }
                default: throw damaged("unexpected record type \(type)")
                }
            }
        } catch let error as VaultError {
            throw error
        } catch {
            throw damaged("truncated")
        }
        guard !contents.header.isEmpty else { throw damaged("no header") }
        return contents
    }
}
