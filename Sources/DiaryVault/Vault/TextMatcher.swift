import DiaryStore
import Foundation

/// Case- and diacritic-insensitive substring matching, as Foundation's
/// `range(of:options: [.caseInsensitive, .diacriticInsensitive])` defines it, with a fast path
/// for the common query: printable ASCII.
///
/// Why a fast path: on Linux, Foundation bridges each entry to UTF-16 and folds it cluster by
/// cluster, which costs many times the decryption (docs/BENCHMARKS.md). For a
/// printable-ASCII needle the text is cut into segments at scalars that can never be part of
/// a match (Hangul, kana, CJK ideographs: none of them folds to ASCII, and none of them joins
/// the scalars around it into one cluster). A match lies inside one segment. A pure-ASCII
/// segment is searched bytewise, ignoring ASCII case, which is what Foundation does there:
/// without CR or LF in the needle every byte starts a cluster. Any other segment (accents,
/// combining marks, ligatures, the Kelvin sign…) still goes to Foundation, so the answer is
/// always Foundation's. `TextMatcherTests` compares both on many generated texts.
enum TextMatcher {
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
            return foundationContains(haystack, needle)
        }
        var text = haystack
        return text.withUTF8 { bytes in segmentedContains(bytes, pattern: pattern.map(lowerASCII), needle: needle) }
    }

    /// A query prepared once for a scan over many texts.
    struct Query {
        let needle: String
        /// The needle lowercased, when it is non-empty printable ASCII (the fast path); else
        /// empty. Not an optional: unwrapping one copied the array, a retain and a release for
        /// every entry a search matched.
        let pattern: [UInt8]

        init(_ needle: String) {
            self.needle = needle
            let bytes = Array(needle.utf8)
            pattern = !bytes.isEmpty && bytes.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) ? bytes.map(lowerASCII) : []
        }

        /// The same query in storage of its own, shared with no other copy.
        init(copying other: Query) {
            needle = String(decoding: Array(other.needle.utf8), as: UTF8.self)
            pattern = other.pattern.map { $0 }  // a new buffer: `Array(_:)` would share it
        }
    }

    /// `contains(String(decoding: text.bytes, as: UTF8.self), query.needle)`, decided on the
    /// bytes in place.
    ///
    /// Why it is equivalent: a bytewise match of a printable-ASCII pattern holds no byte above
    /// 0x7F, so it never spans a barrier and lies inside one segment; searching the whole text
    /// bytewise at once therefore finds a match exactly when some segment, searched bytewise,
    /// has one. When every non-ASCII scalar is a barrier (`UTF8Check` noted it while
    /// validating), every segment is pure ASCII and that bytewise answer is the answer.
    /// Otherwise the segment-by-segment path decides, with Foundation for the mixed segments,
    /// as `contains` does.
    static func contains(_ text: ValidatedUTF8, _ query: Query) -> Bool {
        guard !query.pattern.isEmpty else {
            return foundationContains(String(decoding: text.bytes, as: UTF8.self), query.needle)
        }
        guard let base = text.bytes.baseAddress else { return false }
        let bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: text.bytes.count)
        if text.onlyASCIIAndBarriers { return bytewiseContains(bytes, pattern: query.pattern) }
        return segmentedContains(bytes, pattern: query.pattern, needle: query.needle)
    }

    /// True when `pattern` (lowercase) occurs in `bytes` ignoring ASCII case. Candidates are
    /// found sixteen positions at a time where the machine allows (`windowedContains`), then
    /// for the first byte eight bytes at a time: `b | 0x20 == p | 0x20` holds for both cases
    /// of a letter (and for a few other bytes, which the full comparison then turns away).
    private static func bytewiseContains(_ bytes: UnsafeBufferPointer<UInt8>, pattern: [UInt8]) -> Bool {
        let n = bytes.count
        let m = pattern.count
        guard m > 0, n >= m, let base = bytes.baseAddress else { return m == 0 }
        let last = n - m
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let target = ones &* UInt64(pattern[0] | 0x20)
        return pattern.withUnsafeBufferPointer { p in
            @inline(__always) func matchesAt(_ i: Int) -> Bool {
                var k = 1
                while k < m, lowerASCII(base[i + k]) == p[k] { k += 1 }
                return k == m && lowerASCII(base[i]) == p[0]
            }
            var i = 0
            if windowedContains(base, count: n, pattern: p, start: &i, matches: matchesAt) { return true }
            while i + 8 <= n, i <= last {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let y = (word | (ones &* 0x20)) ^ target
                var zeros = (y &- ones) & ~y & highs  // a high bit per zero byte (and maybe a few more)
                while zeros != 0 {
                    let at = i + zeros.trailingZeroBitCount / 8
                    if at > last { return false }
                    if matchesAt(at) { return true }
                    zeros &= zeros &- 1
                }
                i += 8
            }
            while i <= last {
                if matchesAt(i) { return true }
                i += 1
            }
            return false
        }
    }

    static func foundationContains(_ haystack: String, _ needle: String) -> Bool {
        haystack.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    private static func segmentedContains(_ bytes: UnsafeBufferPointer<UInt8>, pattern: [UInt8], needle: String) -> Bool
    {
        var start = 0
        var ascii = true
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
            if length == 3, i + 2 < n, isBarrier(bytes[i], bytes[i + 1], bytes[i + 2]) {
                if segmentContains(bytes, start, i, ascii: ascii, pattern: pattern, needle: needle) { return true }
                i += 3
                start = i
                ascii = true
                continue
            }
            ascii = false
            i += length
        }
        return segmentContains(bytes, start, n, ascii: ascii, pattern: pattern, needle: needle)
    }

    private static func segmentContains(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, ascii: Bool, pattern: [UInt8], needle: String
    ) -> Bool {
        guard end - start >= pattern.count || !ascii else { return false }
        if !ascii {
            let segment = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            return foundationContains(segment, needle)
        }
        let first = pattern[0]
        var i = start
        let last = end - pattern.count
        while i <= last {
            if lowerASCII(bytes[i]) == first {
                var k = 1
                while k < pattern.count && lowerASCII(bytes[i + k]) == pattern[k] { k += 1 }
                if k == pattern.count { return true }
            }
            i += 1
        }
        return false
    }

    /// Three-byte scalars that never take part in an ASCII match: Hangul syllables
    /// (U+AC00–U+D7A3), Hiragana and Katakana (U+3040–U+30FF), CJK ideographs (U+4E00–U+9FFF).
    @inline(__always)
    static func isBarrier(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        let scalar = UInt32(b0 & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
        return (0xAC00...0xD7A3).contains(scalar) || (0x3040...0x30FF).contains(scalar)
            || (0x4E00...0x9FFF).contains(scalar)
    }

    @inline(__always)
    private static func lowerASCII(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
}
