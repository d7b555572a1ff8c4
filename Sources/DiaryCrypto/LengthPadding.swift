internal import CSodium

/// Length-hiding padding: every sealed object is padded to a bucket size before sealing, so
/// an observer learns only the bucket, not the exact length.
///
/// Buckets: at least 512 bytes; above that, the length is rounded up to a multiple of
/// `2^(e-3)` where `2^e` is the largest power of two not above the length. The overhead is
/// therefore below 12.5% and each doubling of length holds 8 buckets (a PADMÉ-like scheme with a
/// floor). The padding bytes themselves are ISO/IEC 7816-4 (`0x80` then zeros), written and
/// checked by libsodium's `sodium_pad`/`sodium_unpad`; at least one byte is always added.
public enum LengthPadding {
    public static let minimumBucket = 512
    /// The largest input accepted (64 MiB), far above the vault's own entry limit.
    public static let maximumLength = 64 << 20

    /// The padded size of an input of `length` bytes.
    public static func paddedSize(for length: Int) -> Int {
        precondition(length >= 0 && length <= maximumLength, "length out of range")
        let needed = length + 1  // ISO 7816-4 adds at least the 0x80 byte
        if needed <= minimumBucket { return minimumBucket }
        let exponent = Int.bitWidth - 1 - needed.leadingZeroBitCount  // floor(log2(needed))
        let step = 1 << (exponent - 3)
        return (needed + step - 1) / step * step
    }

    /// True when `size` is one of the bucket sizes (what a strict reader checks first).
    ///
    /// Total for any `size`: a crafted file may claim any length, and this check must reject it
    /// rather than trap. A bucket `b` above the floor is a multiple of `2^(e-3)`, `2^e <= b`.
    public static func isBucketSize(_ size: Int) -> Bool {
        guard size >= minimumBucket, size <= largestBucket else { return false }
        let exponent = Int.bitWidth - 1 - size.leadingZeroBitCount  // floor(log2(size))
        return size == minimumBucket || size % (1 << (exponent - 3)) == 0
    }

    /// The bucket of a `maximumLength` input (72 MiB): the largest size `unpad` accepts.
    public static let largestBucket = paddedSize(for: maximumLength)

    /// The block size handed to `sodium_pad` and `sodium_unpad` for a bucket: its step (the
    /// floor's whole 512 bytes for the smallest). Both walk the block byte by byte in constant
    /// time, so passing the whole bucket made padding a large object (an index root of a
    /// million entries is about 213 KB) cost more than sealing it. The padding of a bucket is
    /// always shorter than its step (`paddedSize` rounds up to a multiple of it), and the
    /// smallest multiple of the step above the length is the bucket itself: the result is
    /// the same, and so is what `unpad` accepts (it then checks the canonical length).
    static func paddingSpan(ofBucket size: Int) -> Int {
        guard size > minimumBucket else { return minimumBucket }
        let exponent = Int.bitWidth - 1 - size.leadingZeroBitCount  // floor(log2(size))
        return 1 << (exponent - 3)
    }

    /// `bytes` padded to `paddedSize(for: bytes.count)`.
    public static func pad(_ bytes: [UInt8]) throws -> [UInt8] {
        _ = Sodium.ready
        guard bytes.count <= maximumLength else {
            throw CryptoError.invalidLength(what: "padding input", expected: "<= \(maximumLength)", actual: bytes.count)
        }
        let target = paddedSize(for: bytes.count)
        // Copied and zero-filled in two bulk moves, not appended element by element.
        var out = [UInt8](unsafeUninitializedCapacity: target) { buffer, count in
            let copied = buffer.initialize(fromContentsOf: bytes)
            buffer[copied...].initialize(repeating: 0)
            count = target
        }
        var paddedCount = 0
        let rc = out.withUnsafeMutableBufferPointer { buf in
            sodium_pad(&paddedCount, buf.baseAddress!, bytes.count, paddingSpan(ofBucket: target), target)
        }
        guard rc == 0, paddedCount == target else { throw CryptoError.invalidPadding }
        return out
    }

    /// Removes the padding, rejecting any input that is not a bucket size or whose padding
    /// is malformed.
    public static func unpad(_ padded: [UInt8]) throws -> [UInt8] {
        _ = Sodium.ready
        guard isBucketSize(padded.count) else { throw CryptoError.invalidPadding }
        var length = 0
        let rc = padded.withUnsafeBufferPointer { buf in
            sodium_unpad(&length, buf.baseAddress!, buf.count, paddingSpan(ofBucket: buf.count))
        }
        guard rc == 0, length <= maximumLength else { throw CryptoError.invalidPadding }
        // Canonical form only: the unpadded length must map back to this very bucket, so
        // there is exactly one valid padding for every plaintext.
        guard paddedSize(for: length) == padded.count else { throw CryptoError.invalidPadding }
        return Array(padded[0..<length])
    }

    /// The unpadded length of `padded`, accepting exactly what `unpad` accepts, without
    /// copying: for scans that read the plaintext in place.
    ///
    /// Variable time, unlike `sodium_unpad`, which is constant time and reads the whole padded
    /// block (for a search, more work than the decryption). That is acceptable here because
    /// padding is removed only from plaintext that the AEAD has already authenticated: the
    /// bytes were written by a holder of the key, so a timing difference tells an attacker
    /// nothing they could choose, and the padding length is visible from the bucket anyway.
    /// Do not call this on unauthenticated input. The rules are `sodium_unpad`'s: from the end,
    /// zero bytes, then the `0x80` marker; anything else (no marker, another non-zero byte
    /// first) is malformed. Then the same bucket and canonical-length checks as `unpad`.
    public static func unpaddedLength(_ padded: UnsafeRawBufferPointer) throws -> Int {
        guard isBucketSize(padded.count), let base = padded.baseAddress else { throw CryptoError.invalidPadding }
        var end = padded.count  // bytes [end, count) are known to be zero
        // Eight bytes at a time while they are zero; `isBucketSize` guarantees count >= 512.
        while end >= 8, base.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) == 0 { end -= 8 }
        while end > 0, padded[end - 1] == 0 { end -= 1 }
        guard end > 0, padded[end - 1] == 0x80 else { throw CryptoError.invalidPadding }
        let length = end - 1
        guard length <= maximumLength, paddedSize(for: length) == padded.count else { throw CryptoError.invalidPadding }
        return length
    }
}
