import Foundation

extension FileReader {
    /// The id an entry file name stands for, accepting exactly the names
    /// `FileStore.entryID(fromFileName:)` accepts (a lowercase 8-4-4-4-12 hex UUID), decoded
    /// byte by byte.
    static func canonicalEntryID(_ name: String) -> UUID? {
        var name = name
        return name.withUTF8 { chars -> UUID? in
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
                    guard let high = Self.hexValue(chars[at]), let low = Self.hexValue(chars[at + 1]) else {
                        return false
                    }
                    out[byte] = high << 4 | low
                    byte += 1
                    at += 2
                }
                return true
            }
            return valid ? UUID(uuid: raw) : nil
        }
    }

    /// A lowercase hex digit's value; uppercase is not canonical in a file name.
    fileprivate static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
