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
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool { isASCII(bytes) || scan(bytes) != nil }

    /// True when every byte is ASCII, eight at a time: the short strings of an index row (a
    /// title, a tag) nearly always are, and `scan`'s set-up cost as much as such a string.
    @inline(__always)
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        var i = 0
        var any: UInt64 = 0
        while i + 8 <= n {
            any |= base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < n {
            any |= UInt64(base.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return any & highBits == 0
    }

    /// The validated text, or nil when `bytes` is not valid UTF-8.
    static func scan(_ bytes: UnsafeRawBufferPointer) -> ValidatedUTF8? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return ValidatedUTF8(bytes: bytes, onlyASCIIAndBarriers: true)
        }
        let n = bytes.count
        var barriersOnly = true
        var i = 0
        // Where the sixteen-byte path (`windows`) may be tried again after a window it left.
        var retry = 0
        while i < n {
            i = skipASCIIRun(base, from: i, count: n)
            if i == n { break }
            if i >= retry, i + windowReach <= n {
                let reached = windows(base, from: i, count: n, barriersOnly: barriersOnly)
                if reached > i {
                    i = reached
                    continue
                }
                // Not ASCII and three-byte scalars only: these bytes go one scalar at a time.
                retry = i + 16
            }
            // Eight bytes at a time: pure ASCII, or ASCII and Hangul syllables (`hangulWindow`).
            if i + 8 <= n {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if word & highBits == 0 {
                    i += 8
                    continue
                }
                let consumed = hangulWindow(word)
                if consumed > 0 {
                    i += consumed
                    continue
                }
            }
            if base[i] < 0x80 {
                i += 1
                continue
            }
            guard let length = scalarLength(base, at: i, count: n, barriersOnly: &barriersOnly) else { return nil }
            i += length
        }
        return ValidatedUTF8(bytes: bytes, onlyASCIIAndBarriers: barriersOnly)
    }

    /// Where the ASCII run starting at `i` ends, to within 32 bytes: long ASCII runs (English
    /// prose) 32 bytes per step, since the loop, not the test, was the cost.
    @inline(__always)
    private static func skipASCIIRun(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int {
        var i = start
        while i + 32 <= n {
            let raw = UnsafeRawPointer(base + i)
            let any =
                raw.loadUnaligned(as: UInt64.self) | raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                | raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
                | raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            guard any & highBits == 0 else { break }
            i += 32
        }
        return i
    }

    /// The length of the scalar whose non-ASCII lead byte is at `i`, or nil when it is not valid
    /// UTF-8; clears `barriersOnly` when the scalar is not one of `TextMatcher`'s barriers.
    @inline(__always)
    private static func scalarLength(
        _ base: UnsafePointer<UInt8>, at i: Int, count n: Int, barriersOnly: inout Bool
    ) -> Int? {
        let b0 = base[i]
        // Three-byte scalars (Hangul, kana, CJK: most of a non-Latin diary) on a short path:
        // both continuation bytes, then the overlong (E0) and surrogate (ED) exclusions.
        if b0 & 0xF0 == 0xE0, i + 3 <= n {
            let b1 = base[i + 1]
            let b2 = base[i + 2]
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80 else { return nil }
            guard b0 != 0xE0 || b1 >= 0xA0, b0 != 0xED || b1 <= 0x9F else { return nil }
            // EB and EC lead only U+B000–U+CFFF: Hangul syllables, barriers without decoding.
            if barriersOnly, b0 != 0xEB, b0 != 0xEC, !TextMatcher.isBarrier(b0, b1, b2) { barriersOnly = false }
            return 3
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
        return length
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// How many bytes at the start of `word` (eight bytes from a scalar boundary, little-endian)
    /// are valid UTF-8 made only of ASCII and Hangul syllables, decided for the whole word at
    /// once; 0 when the word holds anything else, which the scalar path then decides.
    ///
    /// Per byte, as a high-bit mask: ASCII `0xxxxxxx`, continuation `10xxxxxx`, three-byte lead
    /// `1110xxxx`. Every byte must be one of these, and the continuations must be exactly the
    /// two bytes after each lead. A lead in byte 6 or 7 is left to the next word. The leads
    /// accepted: EB and EC (U+B000–U+CFFF), EA followed by B0–BF (U+AC00–U+AFFF), ED followed
    /// by 80–9D (U+D000–U+D77F): all Hangul syllables, so all barriers, and none of them an
    /// overlong form or a surrogate.
    @inline(__always)
    private static func hangulWindow(_ w: UInt64) -> Int {
        let h = highBits
        let ascii = ~w & h
        let continuation = w & ~(w << 1) & h
        let lead = w & (w << 1) & (w << 2) & ~(w << 3) & h
        guard ascii | continuation | lead == h, continuation == (lead << 8 | lead << 16) else { return 0 }
        let consumed = lead & (0x80 << 56) != 0 ? 7 : lead & (0x80 << 48) != 0 ? 6 : 8
        let leads = lead & 0x0000_8080_8080_8080  // those whose three bytes lie in the word
        @inline(__always) func equal(_ c: UInt64) -> UInt64 {
            // Exact per-byte equality: the high bit of each byte of `x` that is zero, no carries.
            let x = w ^ (0x0101_0101_0101_0101 &* c)
            return ~(((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | x | 0x7F7F_7F7F_7F7F_7F7F)
        }
        let ea = equal(0xEA) & leads
        let ed = equal(0xED) & leads
        guard (equal(0xEB) | equal(0xEC)) & leads | ea | ed == leads else { return 0 }
        let next = w >> 8  // byte k + 1 in the place of byte k; bit j of a byte moves to bit 7 by `<< (7 - j)`
        let eaFollowerOK = (next << 2) & (next << 3) & h  // bits 5 and 4 set: B0–BF
        let edFollowerBad = ((next << 2) | ((next << 3) & (next << 4) & (next << 5) & (next << 6))) & h  // A0– or 9E/9F
        guard ea & ~eaFollowerOK == 0, ed & edFollowerBad == 0 else { return 0 }
        return consumed
    }
}
