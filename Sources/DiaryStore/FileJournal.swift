import DiaryCrypto
import Foundation

/// The files store's redo journal: one multi-file change, written down before any file moves.
///
/// A change that touches more than one file is first written in full — every new blob and
/// every deletion — to `vault.journal` (via a temporary file, fsync and rename, so the name
/// only ever points at a complete journal). Only then are the files replaced. Replaying a
/// journal is idempotent, so a crash while replaying is repaired by replaying again.
///
/// Byte layout (integers big-endian):
/// ```
/// "DIARYJNL" | version u8 = 1 | count u32 | count × operation | BLAKE2b-256 of all the above
/// operation: 1 u8 | name length u16 | name | blob length u32 | blob    (put)
///            2 u8 | name length u16 | name                             (delete)
/// ```
/// `name` is `vault.header`, `vault.index`, `index/<2 lowercase hex digits>` or
/// `entries/<lowercase uuid>`, and for a delete only also `attachments/<lowercase uuid>` (an
/// attachment object is written before its change, never through the journal); anything else
/// is refused, so a crafted journal cannot write outside the vault.
struct FileJournal: Equatable {
    enum Operation: Equatable {
        case put(name: String, bytes: [UInt8])
        case delete(name: String)

        var name: String {
            switch self {
            case .put(let name, _), .delete(let name): return name
            }
        }
    }

    static let fileName = "vault.journal"
    static let magic = Array("DIARYJNL".utf8)
    static let version: UInt8 = 1
    static let checksumCount = 32

    var operations: [Operation]

    /// The serialised journal, checksum included.
    func encoded() -> [UInt8] {
        var out = Self.magic
        // Sized once: grown by doubling, a journal of a large change (a restore's batch, an
        // import) cost up to three times its size in memory while it was built.
        out.reserveCapacity(encodedCount)
        out.append(Self.version)
        Self.append(UInt32(operations.count), to: &out)
        for operation in operations { Self.encode(operation, into: &out) }
        out.append(contentsOf: BLAKE2b.hash(out, outputCount: Self.checksumCount))
        return out
    }

    /// The bytes before the operations: magic, version and the count of operations.
    static func head(count: UInt32) -> [UInt8] {
        var out = magic
        out.append(version)
        append(count, to: &out)
        return out
    }

    /// Appends one operation as `encoded()` writes it.
    static func encode(_ operation: Operation, into out: inout [UInt8]) {
        switch operation {
        case .put(let name, let bytes):
            out.append(1)
            appendName(name, to: &out)
            append(UInt32(bytes.count), to: &out)
            out.append(contentsOf: bytes)
        case .delete(let name):
            out.append(2)
            appendName(name, to: &out)
        }
    }

    /// Parses a journal, or returns nil when it is torn, damaged or not canonical.
    static func decode(_ bytes: [UInt8]) -> FileJournal? {
        guard bytes.count >= magic.count + 1 + 4 + checksumCount else { return nil }
        let body = Array(bytes[0..<(bytes.count - checksumCount)])
        let checksum = Array(bytes[(bytes.count - checksumCount)...])
        guard constantTimeEquals(BLAKE2b.hash(body, outputCount: checksumCount), checksum) else { return nil }
        var reader = Reader(bytes: body)
        guard reader.take(magic.count) == magic, reader.take(1) == [version],
            let count = reader.uint32()
        else { return nil }
        var operations = [Operation]()
        var seen = Set<String>()
        for _ in 0..<count {
            guard let kind = reader.take(1)?.first, let length = reader.uint16(),
                let nameBytes = reader.take(Int(length)),
                let name = String(validating: nameBytes, as: UTF8.self),
                isValidTarget(name) || FileStore.isAttachmentName(name), seen.insert(name).inserted
            else { return nil }
            switch kind {
            case 1:
                guard !FileStore.isAttachmentName(name), let size = reader.uint32(), let blob = reader.take(Int(size))
                else { return nil }
                operations.append(.put(name: name, bytes: blob))
            case 2:
                operations.append(.delete(name: name))
            default:
                return nil
            }
        }
        guard reader.isAtEnd else { return nil }
        return FileJournal(operations: operations)
    }

    /// Whether `name` is a file a journal may touch.
    static func isValidTarget(_ name: String) -> Bool {
        if name == FileStore.headerName || name == FileStore.indexName { return true }
        let pagePrefix = FileStore.indexPagesName + "/"
        if name.hasPrefix(pagePrefix) {
            return IndexPageNumber.page(fromFileName: String(name.dropFirst(pagePrefix.count))) != nil
        }
        let prefix = FileStore.entriesName + "/"
        guard name.hasPrefix(prefix) else { return false }
        return FileStore.entryID(fromFileName: String(name.dropFirst(prefix.count))) != nil
    }

    /// The length of `encoded()`.
    private var encodedCount: Int {
        var count = Self.magic.count + 1 + 4 + Self.checksumCount
        for operation in operations {
            count += 1 + 2 + operation.name.utf8.count
            if case .put(_, let bytes) = operation { count += 4 + bytes.count }
        }
        return count
    }

    private static func append(_ value: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) })
    }

    private static func appendName(_ name: String, to out: inout [UInt8]) {
        let bytes = Array(name.utf8)
        out.append(UInt8(bytes.count >> 8))
        out.append(UInt8(truncatingIfNeeded: bytes.count))
        out.append(contentsOf: bytes)
    }

    /// A bounds-checked cursor: every read returns nil rather than trapping past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        mutating func uint16() -> UInt16? {
            take(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) }
        }

        mutating func uint32() -> UInt32? {
            take(4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } }
        }
    }
}
