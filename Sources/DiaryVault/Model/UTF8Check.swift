/// UTF-8 that `UTF8Check.scan` has validated, with what the scan learned on the way. Only
/// `scan` makes one, so holding one is proof of both.
struct ValidatedUTF8 {
    let bytes: UnsafeRawBufferPointer
    /// Every non-ASCII scalar is one of `TextMatcher`'s barriers (Hangul syllables, kana, CJK
    /// ideographs), or there is none: the text is pure ASCII between barriers.
    let onlyASCIIAndBarriers: Bool

    fileprivate init(bytes: UnsafeRawBufferPointer, onlyASCIIAndBarriers: Bool) {
        self.bytes = bytes
        self.onlyASCIIAndBarriers = onlyASCIIAndBarriers
    }
}

/// Strict UTF-8 validation (Unicode table 3-7: no overlong forms, no surrogates, nothing above
/// U+10FFFF, no truncated sequences), exactly what `String(validating:as: UTF8.self)` accepts,
/// without building a String.
///
/// Why it also classifies: `search` needs to know whether a text holds anything but ASCII and
/// barrier scalars, and learning it here saves a second pass over every scalar (for a Korean
/// entry, that pass cost as much as the validation).
enum UTF8Check {
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { scan(bytes) != nil }

    /// The validated text, or nil when `bytes` is not valid UTF-8.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ValidatedUTF8? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return ValidatedUTF8(bytes: bytes, onlyASCIIAndBarriers: true)
        }
        let n = bytes.count
        var barriersOnly = true
        var i = 0
        while i < n {
            let b0 = base[i]
            if b0 < 0x80 {
                // ASCII runs eight bytes at a time.
                if i + 8 <= n, UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                } else {
                    i += 1
                }
                continue
            }
            // Three-byte scalars (Hangul, kana, CJK: most of a non-Latin diary) on a short path:
            // both continuation bytes, then the overlong (E0) and surrogate (ED) exclusions.
            if b0 & 0xF0 == 0xE0, i + 3 <= n {
                let b1 = base[i + 1]
                let b2 = base[i + 2]
                guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return nil }
                guard b0 != 0xE0 || b1 >= 0xA0, b0 != 0xED || b1 <= 0x9F else { return nil }
                // EB and EC lead only U+B000–U+CFFF: Hangul syllables, barriers without decoding.
                if barriersOnly, b0 != 0xEB, b0 != 0xEC, !TextMatcher.isBarrier(b0, b1, b2) { barriersOnly = false }
                i += 3
                continue
            }
            // The allowed range of the second byte depends on the first; later bytes are 80–BF.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return nil  // 80–C1, F5–FF, or a three-byte lead too close to the end
            }
            guard i + length <= n else { return nil }
            let b1 = base[i + 1]
            guard b1 >= low, b1 <= high else { return nil }
            var k = 2
            while k < length {
                guard base[i + k] & 0xC0 == 0x80 else { return nil }
                k += 1
            }
            barriersOnly = false  // no two- or four-byte scalar is a barrier
            i += length
        }
        return ValidatedUTF8(bytes: bytes, onlyASCIIAndBarriers: barriersOnly)
    }
}
