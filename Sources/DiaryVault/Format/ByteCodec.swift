import DiaryCrypto
import DiaryStore
import Foundation

/// Appends big-endian integers and length-prefixed fields to a byte buffer.
package struct ByteWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func append(_ raw: [UInt8]) { bytes.append(contentsOf: raw) }
    package mutating func append(_ raw: ArraySlice<UInt8>) { bytes.append(contentsOf: raw) }
    package mutating func u8(_ v: UInt8) { bytes.append(v) }
    package mutating func u16(_ v: UInt16) { appendBigEndian(v) }
    package mutating func u32(_ v: UInt32) { appendBigEndian(v) }
    package mutating func u64(_ v: UInt64) { appendBigEndian(v) }
    package mutating func i64(_ v: Int64) { appendBigEndian(UInt64(bitPattern: v)) }
    package mutating func uuid(_ id: UUID) { append(id.bytes) }
    /// A key, copied from its guarded memory straight into the buffer (which the caller wipes).
    package mutating func append(_ secret: SecretBytes) { secret.withUnsafeBytes { bytes.append(contentsOf: $0) } }

    /// A UTF-8 string behind a 16-bit length.
    package mutating func string16(_ s: String) {
        let utf8 = Array(s.utf8)
        precondition(utf8.count <= Int(UInt16.max), "string field too long")
        u16(UInt16(utf8.count))
        append(utf8)
    }

    /// A UTF-8 string behind a 32-bit length.
    package mutating func string32(_ s: String) {
        let utf8 = Array(s.utf8)
        u32(UInt32(utf8.count))
        append(utf8)
    }

    private mutating func appendBigEndian<T: FixedWidthInteger>(_ v: T) {
        withUnsafeBytes(of: v.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads what `ByteWriter` wrote, refusing anything out of bounds or malformed.
///
/// Every read is bounds-checked and throws `FormatError.truncated` instead of trapping: the
/// input may come from a hostile file.
package struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    package init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    package var remaining: Int { bytes.count - offset }
    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func take(_ n: Int) throws -> [UInt8] {
        guard n >= 0, n <= remaining else { throw FormatError.truncated }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    /// Moves past `n` bytes that were read another way (`RawReader` over the same bytes).
    package mutating func skip(_ n: Int) throws {
        guard n >= 0, n <= remaining else { throw FormatError.truncated }
        offset += n
    }

    package mutating func u8() throws -> UInt8 {
        guard remaining >= 1 else { throw FormatError.truncated }
        defer { offset += 1 }
        return bytes[offset]
    }
    package mutating func u16() throws -> UInt16 { try bigEndian() }
    package mutating func u32() throws -> UInt32 { try bigEndian() }
    package mutating func u64() throws -> UInt64 { try bigEndian() }
    package mutating func i64() throws -> Int64 { Int64(bitPattern: try bigEndian()) }
    package mutating func uuid() throws -> UUID {
        guard remaining >= 16 else { throw FormatError.truncated }
        defer { offset += 16 }
        let b = bytes
        let o = offset
        return UUID(
            uuid: (
                b[o], b[o + 1], b[o + 2], b[o + 3], b[o + 4], b[o + 5], b[o + 6], b[o + 7],
                b[o + 8], b[o + 9], b[o + 10], b[o + 11], b[o + 12], b[o + 13], b[o + 14], b[o + 15]
            ))
    }

    /// A time (i64 milliseconds), refused outside `Date.storableMilliseconds`: a Date holds
    /// it as a Double, so a larger value would not survive re-encoding (and near the i64
    /// limits the conversion back would trap).
    package mutating func time() throws -> Date {
        let ms = try i64()
        guard Date.storableMilliseconds.contains(ms) else { throw FormatError.invalidField("time") }
        return Date(millisecondsSince1970: ms)
    }

    package mutating func string16() throws -> String { try utf8(count: Int(try u16())) }
    package mutating func string32(limit: Int) throws -> String {
        let n = Int(try u32())
        guard n <= limit else { throw FormatError.fieldTooLarge }
        return try utf8(count: n)
    }

    /// Fails unless every byte has been consumed: trailing data is not canonical.
    package func expectEnd() throws {
        guard isAtEnd else { throw FormatError.trailingBytes }
    }

    /// Validated in place: an entry's text is copied once, into its String.
    private mutating func utf8(count: Int) throws -> String {
        guard count >= 0, count <= remaining else { throw FormatError.truncated }
        defer { offset += count }
        let s = bytes[offset..<offset + count].withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
        guard let s else { throw FormatError.invalidUTF8 }
        return s
    }

    /// Read in place: no array per number (an index root has four per page).
    private mutating func bigEndian<T: FixedWidthInteger>() throws -> T {
        let n = MemoryLayout<T>.size
        guard n <= remaining else { throw FormatError.truncated }
        defer { offset += n }
        var value = T(0)
        for i in offset..<offset + n { value = value << 8 | T(bytes[i]) }
        return value
    }
}

/// Low-level decoding failures; the vault layer turns them into damage reports.
package enum FormatError: Error, Equatable, CustomStringConvertible {
    case truncated
    case trailingBytes
    case invalidUTF8
    case fieldTooLarge
    case badMagic
    case unsupportedVersion(Int)
    case invalidField(String)

    package var description: String {
        switch self {
        case .truncated: return "truncated"
        case .trailingBytes: return "unexpected trailing bytes"
        case .invalidUTF8: return "invalid UTF-8"
        case .fieldTooLarge: return "field too large"
        case .badMagic: return "wrong magic bytes"
        case .unsupportedVersion(let v): return "unsupported version \(v)"
        case .invalidField(let what): return "invalid \(what)"
        }
    }
}

extension Date {
    /// The times the format stores: 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z
    /// (docs/FORMAT.md §1). Within it, milliseconds survive the trip through a Date exactly.
    package static let storableMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// Milliseconds since 1970-01-01T00:00:00Z: the on-disk time unit, clamped to
    /// `storableMilliseconds` so that no Date can trap here or encode to a time readers refuse.
    package var millisecondsSince1970: Int64 {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        let range = Self.storableMilliseconds
        guard ms >= Double(range.lowerBound) else { return range.lowerBound }  // also -infinity, NaN
        guard ms <= Double(range.upperBound) else { return range.upperBound }  // also +infinity
        return Int64(ms)
    }
    package init(millisecondsSince1970 ms: Int64) { self.init(timeIntervalSince1970: Double(ms) / 1000) }
}
