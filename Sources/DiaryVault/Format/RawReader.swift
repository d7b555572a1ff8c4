import DiaryStore
import Foundation

/// A bounds-checked cursor over borrowed bytes: fields are read in place, without copying
/// (`EntryCodec.text(in:textLimit:)`, the attachment records of an entry).
struct RawReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func take(_ n: Int) throws -> UnsafeRawBufferPointer {
        guard n >= 0, n <= bytes.count - offset else { throw FormatError.truncated }
        defer { offset += n }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + n])
    }

    mutating func u8() throws -> UInt8 { try take(1)[0] }

    mutating func bigEndian(_ n: Int) throws -> UInt64 {
        try take(n).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Checks that the next `count` bytes are UTF-8 and moves past them.
    mutating func utf8(count: Int) throws {
        guard UTF8Check.scan(try take(count)) != nil else { throw FormatError.invalidUTF8 }
    }

    /// A UTF-8 string behind a 16-bit length, as a String.
    mutating func string16() throws -> String {
        let raw = try take(Int(try bigEndian(2)))
        guard let s = String(validating: raw, as: UTF8.self) else { throw FormatError.invalidUTF8 }
        return s
    }
}
