internal import CSodium

/// A reusable buffer in guarded memory that `XChaCha20Poly1305.open(_:key:nonce:associatedData:into:_:)`
/// decrypts into, so a scan that opens thousands of entries allocates once, not once per entry.
///
/// Plaintext lives in it only while the caller's closure runs: `open` zeroes what it wrote
/// before returning (also when the closure throws), and `deinit` releases the memory with
/// `sodium_free`, which zeroes it again. Like `SecretBytes` it is `sodium_malloc`ed: locked
/// against swapping and fenced by guard pages. Not thread-safe: one buffer per scan.
public final class PlaintextBuffer {
    private var base: UnsafeMutableRawPointer?
    /// Bytes usable without reallocating.
    public private(set) var capacity = 0

    public init() {}

    deinit {
        if let base { sodium_free(base) }
    }

    /// A pointer to at least `count` writable bytes. Growing frees the old memory (zeroed by
    /// `sodium_free`) and rounds up to a power of two, so a scan reallocates a few times at most.
    func reserve(_ count: Int) throws -> UnsafeMutableRawPointer {
        if let base, count <= capacity { return base }
        _ = Sodium.ready
        let size = max(4096, count <= 1 ? 1 : 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount))
        if let base { sodium_free(base) }
        base = nil
        capacity = 0
        guard let raw = sodium_malloc(size) else { throw CryptoError.outOfSecureMemory(count: size) }
        base = raw
        capacity = size
        return raw
    }
}

extension XChaCha20Poly1305 {
    /// Opens `ciphertext ‖ tag` into `buffer` and passes the plaintext to `body`, without
    /// copying the inputs. Throws `authenticationFailed` on any mismatch, and `body` then never
    /// runs. The plaintext is zeroed when `body` returns or throws: do not let the pointer escape.
    public static func open<R>(
        _ ciphertext: UnsafeRawBufferPointer, key: SecretBytes, nonce: UnsafeRawBufferPointer,
        associatedData: UnsafeRawBufferPointer, into buffer: PlaintextBuffer,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R {
        _ = Sodium.ready
        guard key.count == keyByteCount else {
            throw CryptoError.invalidLength(what: "key", expected: "\(keyByteCount)", actual: key.count)
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError.invalidLength(what: "nonce", expected: "\(nonceByteCount)", actual: nonce.count)
        }
        guard ciphertext.count >= tagByteCount else {
            throw CryptoError.invalidLength(
                what: "ciphertext", expected: ">= \(tagByteCount)", actual: ciphertext.count)
        }
        let count = ciphertext.count - tagByteCount
        let out = try buffer.reserve(count)
        // Cleared on every path: after a failed open (libsodium may leave partial output) and
        // after `body` has looked at the plaintext.
        defer { sodium_memzero(out, count) }
        var outCount: UInt64 = 0
        // A zero-length buffer may have a nil base address; libsodium needs valid pointers.
        let empty: UInt8 = 0
        let rc = withUnsafePointer(to: empty) { dummy in
            key.withUnsafeBytes { k in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    out.assumingMemoryBound(to: UInt8.self), &outCount, nil,
                    ciphertext.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? dummy, UInt64(ciphertext.count),
                    associatedData.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? dummy,
                    UInt64(associatedData.count),
                    nonce.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    k.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard rc == 0, outCount == UInt64(count) else { throw CryptoError.authenticationFailed }
        return try body(UnsafeRawBufferPointer(start: out, count: count))
    }
}
