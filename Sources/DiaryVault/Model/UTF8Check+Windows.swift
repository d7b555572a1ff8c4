#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// `UTF8Check`'s sixteen-byte path for the texts a diary mostly holds: ASCII with three-byte
/// scalars (Hangul, kana, CJK), validated with SSE2 (every x86-64 has it) sixteen bytes per
/// step, where the scalar path takes one scalar (or eight bytes of ASCII and Hangul) per step.
/// Anything else (two- and four-byte scalars, and any byte that is not valid) is left to the
/// scalar path, so this path only ever accepts what the scalar path accepts.
extension UTF8Check {
    /// Bytes a window needs from where it starts: its sixteen and the byte after them (the
    /// second byte of a scalar whose lead is the window's last).
    static let windowReach = 17

    #if arch(x86_64)
    private typealias Lanes = __m128i

    /// Validates sixteen bytes at a time from the scalar boundary `start`, as long as each
    /// window holds only ASCII and three-byte scalars (and, while `barriersOnly`, only barrier
    /// ones), and returns the scalar boundary reached: `start` when the first window is not
    /// such.
    ///
    /// A scalar may straddle two windows: the leads of the last two bytes of a window are
    /// carried to the next. Per byte, as bit masks: every byte is ASCII, a three-byte lead
    /// (`1110xxxx`) or a continuation (`10xxxxxx`), and it is a continuation exactly when one
    /// of the two bytes before it is a lead. Each lead's second byte (loaded one byte ahead)
    /// must then fit the lead as in `scalarLength`: above 9F after E0 (no overlong form), below
    /// A0 after ED (no surrogate); or, while `barriersOnly`, within a barrier's range.
    static func windows(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int, barriersOnly: Bool) -> Int {
        let raw = UnsafeRawPointer(base)
        var i = start
        var carried: UInt32 = 0
        while i + windowReach <= n {
            let b = raw.loadUnaligned(fromByteOffset: i, as: Lanes.self)
            let lead = mask(equal(_mm_and_si128(b, splat(0xF0)), 0xE0))
            let continuation = mask(equal(_mm_and_si128(b, splat(0xC0)), 0x80))
            let expected = lead << 1 | lead << 2 | carried
            guard continuation == expected & 0xFFFF, mask(b) & ~(lead | continuation) == 0 else { break }
            if lead != 0 {
                let second = raw.loadUnaligned(fromByteOffset: i + 1, as: Lanes.self)
                let fitting = barriersOnly ? barrierLeads(b, second) : validLeads(b, second)
                guard lead & ~fitting == 0 else { break }
            }
            carried = expected >> 16
            i += 16
        }
        // A scalar the last window cut is left to the scalar path, from its lead.
        guard carried != 0 else { return i }
        return base[i - 1] & 0xF0 == 0xE0 ? i - 1 : i - 2
    }

    /// The lanes whose lead and second byte begin a barrier (`TextMatcher.isBarrier`): a Hangul
    /// syllable from EA B0 to ED 9D (U+AC00–U+D77F; the last few, ED 9E, are left to the scalar
    /// path), kana (E3 81–83) or a CJK ideograph (E4 B8 to E9 BF).
    @inline(__always)
    private static func barrierLeads(_ b: Lanes, _ second: Lanes) -> UInt32 {
        let hangul = _mm_or_si128(
            _mm_or_si128(equal(b, 0xEB), equal(b, 0xEC)),
            _mm_or_si128(
                _mm_and_si128(equal(b, 0xEA), atLeast(second, 0xB0)),
                _mm_and_si128(equal(b, 0xED), atMost(second, 0x9D))))
        let ideographs = _mm_or_si128(
            _mm_and_si128(atLeast(b, 0xE5), atMost(b, 0xE9)),
            _mm_and_si128(equal(b, 0xE4), atLeast(second, 0xB8)))
        let kana = _mm_and_si128(equal(b, 0xE3), _mm_and_si128(atLeast(second, 0x81), atMost(second, 0x83)))
        return mask(_mm_or_si128(hangul, _mm_or_si128(ideographs, kana)))
    }

    /// The lanes whose lead and second byte are not an overlong form (E0 80–9F) or a surrogate
    /// (ED A0–BF).
    @inline(__always)
    private static func validLeads(_ b: Lanes, _ second: Lanes) -> UInt32 {
        let invalid = _mm_or_si128(
            _mm_andnot_si128(atLeast(second, 0xA0), equal(b, 0xE0)),
            _mm_andnot_si128(atMost(second, 0x9D), equal(b, 0xED)))
        return ~mask(invalid)
    }

    @inline(__always) private static func splat(_ c: UInt8) -> Lanes { _mm_set1_epi8(Int8(bitPattern: c)) }
    @inline(__always) private static func equal(_ x: Lanes, _ c: UInt8) -> Lanes { _mm_cmpeq_epi8(x, splat(c)) }
    /// Unsigned comparisons: SSE2 compares bytes as signed, but has unsigned minimum and maximum.
    @inline(__always) private static func atLeast(_ x: Lanes, _ c: UInt8) -> Lanes {
        _mm_cmpeq_epi8(_mm_max_epu8(x, splat(c)), x)
    }
    @inline(__always) private static func atMost(_ x: Lanes, _ c: UInt8) -> Lanes {
        _mm_cmpeq_epi8(_mm_min_epu8(x, splat(c)), x)
    }
    /// The high bit of each lane, lane k in bit k.
    @inline(__always) private static func mask(_ x: Lanes) -> UInt32 {
        UInt32(truncatingIfNeeded: _mm_movemask_epi8(x))
    }
    #else
    /// No vector path on this architecture: the scalar path takes every byte.
    static func windows(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int, barriersOnly: Bool) -> Int {
        start
    }
    #endif
}
