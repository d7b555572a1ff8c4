/// UTF-8 validation without building a `String` (RFC 3629: no overlong forms, no surrogates,
/// nothing above U+10FFFF). Index pages check every title, tag and source when they are
/// decoded; doing it with `String(validating:)` would allocate a string per field.
enum UTF8Check {
    static func isValid(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { isValid($0) }
    }

    static func isValid(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = b.count
        while i < n {
            let lead = b[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F  // no surrogates
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F  // nothing above U+10FFFF
            default: return false
            }
            guard n - i >= length else { return false }
            guard b[i + 1] >= lower, b[i + 1] <= upper else { return false }
            for k in 2..<max(length, 2) where b[i + k] & 0xC0 != 0x80 { return false }
            i += length
        }
        return true
    }
}
