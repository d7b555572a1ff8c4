import Foundation

/// An entry id as the stores and the format see it: 16 bytes, their order, their hex.
extension UUID {
    /// The 16 bytes in RFC 9562 (network) order.
    package var bytes: [UInt8] {
        let u = uuid
        return [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
    }

    package init(bytes b: [UInt8]) {
        precondition(b.count == 16)
        self.init(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }

    /// The 16 bytes as a big-endian pair: ordered exactly like `uuidString`.
    package var sortKey: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    /// Lowercase hex without dashes, as used in file names and prefixes.
    ///
    /// Written from the 16 bytes, without `uuidString` and string replacing: resolving a
    /// short id (`show 1b4e28ba`) formats every id in the index.
    package var compactHex: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 32) { hex in
                for (i, byte) in raw.enumerated() {
                    hex[2 * i] = Self.hexDigits[Int(byte >> 4)]
                    hex[2 * i + 1] = Self.hexDigits[Int(byte & 0x0f)]
                }
                return 32
            }
        }
    }

    /// `uuidString.lowercased()` (8-4-4-4-12), written from the 16 bytes: `uuidString` formats
    /// through `snprintf` and `lowercased()` copies it again (an export writes one per entry,
    /// the files store names one per read).
    package var lowercaseString: String {
        withUnsafeBytes(of: uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = Self.hexDigits[Int(byte >> 4)]
                    out[at + 1] = Self.hexDigits[Int(byte & 0x0f)]
                    at += 2
                }
                return at
            }
        }
    }

    /// The id `text` spells as 8-4-4-4-12 hex digits, as `UUID(uuidString:)` reads it, decoded
    /// byte by byte (Foundation parses through `sscanf`: most of an import's cost per id).
    /// `lowercaseOnly`: only the form an entry file is named with.
    package init?(hyphenatedHex text: String, lowercaseOnly: Bool = false) {
        var text = text
        let parsed = text.withUTF8 { chars -> uuid_t? in
            guard chars.count == 36 else { return nil }
            var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let valid = withUnsafeMutableBytes(of: &raw) { out -> Bool in
                var at = 0
                var byte = 0
                while at < 36 {
                    if at == 8 || at == 13 || at == 18 || at == 23 {
                        guard chars[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                        continue
                    }
                    guard let high = Self.hexValue(chars[at], lowercaseOnly),
                        let low = Self.hexValue(chars[at + 1], lowercaseOnly)
                    else { return false }
                    out[byte] = high << 4 | low
                    byte += 1
                    at += 2
                }
                return true
            }
            return valid ? raw : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func hexValue(_ c: UInt8, _ lowercaseOnly: Bool) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where !lowercaseOnly: return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
