#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension TextMatcher {
    #if arch(x86_64)
    /// `bytewiseContains`' first pass, sixteen positions per step with SSE2 (every x86-64 has
    /// it): a position is a candidate when both its byte and the byte where the pattern's last
    /// byte would fall match the pattern's, ignoring ASCII case (`b | 0x20`, which both cases of
    /// a letter share; the few other bytes it lets through are turned away by `matches`).
    /// Two bytes tested at once leave far fewer candidates than one in prose, where the
    /// first letter of a word is common.
    ///
    /// True when a match starts before the position left in `start`, from which the caller
    /// goes on (fewer than sixteen positions are left there).
    @inline(__always)
    static func windowedContains(
        _ base: UnsafePointer<UInt8>, count n: Int, pattern p: UnsafeBufferPointer<UInt8>, start: inout Int,
        matches: (Int) -> Bool
    ) -> Bool {
        let m = p.count
        let raw = UnsafeRawPointer(base)
        let caseBit = _mm_set1_epi8(0x20)
        let first = _mm_set1_epi8(Int8(bitPattern: p[0] | 0x20))
        let last = _mm_set1_epi8(Int8(bitPattern: p[m - 1] | 0x20))
        var i = start
        // Positions i..<i+16 need bytes up to i + 15 + m - 1.
        while i + 15 + m <= n {
            let a = _mm_or_si128(raw.loadUnaligned(fromByteOffset: i, as: __m128i.self), caseBit)
            let z = _mm_or_si128(raw.loadUnaligned(fromByteOffset: i + m - 1, as: __m128i.self), caseBit)
            var candidates = UInt32(
                truncatingIfNeeded: _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(z, last))))
            while candidates != 0 {
                if matches(i + candidates.trailingZeroBitCount) { return true }
                candidates &= candidates &- 1
            }
            i += 16
        }
        start = i
        return false
    }
    #else
    /// No vector path on this architecture: the caller's loop takes every position.
    @inline(__always)
    static func windowedContains(
        _ base: UnsafePointer<UInt8>, count n: Int, pattern p: UnsafeBufferPointer<UInt8>, start: inout Int,
        matches: (Int) -> Bool
    ) -> Bool { false }
    #endif
}
