internal import CSodium

/// XChaCha20-Poly1305 (IETF), libsodium's `crypto_aead_xchacha20poly1305_ietf_*`.
///
/// The 24-byte nonce is random for every seal: with XChaCha's extended nonce, random nonces
/// are safe for far more messages than a diary will ever hold, and no counter state has to
/// survive crashes.
public enum XChaCha20Poly1305 {
    public static let keyByteCount = 32
    public static let nonceByteCount = 24
    public static let tagByteCount = 16

    /// The result of a seal: the nonce and `ciphertext ‖ tag`.
    public struct SealedBox: Equatable, Sendable {
        public var nonce: [UInt8]
        public var ciphertext: [UInt8]
        public init(nonce: [UInt8], ciphertext: [UInt8]) {
            self.nonce = nonce
            self.ciphertext = ciphertext
        }
    }

    /// Seals `plaintext` with a fresh random nonce.
    public static func seal(
        _ plaintext: [UInt8], key: SecretBytes, associatedData: [UInt8]
    ) throws -> SealedBox {
        let nonce = SecureRandom.bytes(count: nonceByteCount)
        return SealedBox(
            nonce: nonce,
            ciphertext: try seal(plaintext, key: key, nonce: nonce, associatedData: associatedData))
    }

    /// Seals a secret (a key being wrapped) straight from guarded memory, with a fresh random
    /// nonce, so no copy of it passes through an ordinary array.
    public static func seal(
        secret: SecretBytes, key: SecretBytes, associatedData: [UInt8]
    ) throws -> SealedBox {
        _ = Sodium.ready
        let nonce = SecureRandom.bytes(count: nonceByteCount)
        try checkKeyAndNonce(key: key, nonce: nonce)
        var out = [UInt8](repeating: 0, count: secret.count + tagByteCount)
        var outCount: UInt64 = 0
        let rc = out.withNonNullMutablePointer { o, _ in
            secret.withUnsafeBytes { p in
                associatedData.withNonNullPointer { ad, adCount in
                    nonce.withNonNullPointer { n, _ in
                        key.withUnsafeBytes { k in
                            crypto_aead_xchacha20poly1305_ietf_encrypt(
                                o, &outCount, p.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(p.count),
                                ad, UInt64(adCount), nil, n,
                                k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
        precondition(rc == 0 && outCount == UInt64(out.count), "XChaCha20-Poly1305 encrypt failed")
        return SealedBox(nonce: nonce, ciphertext: out)
    }

    /// Seals with a caller-chosen nonce. Internal: only the known-answer tests call it
    /// (through `@testable`), since reusing a nonce under one key destroys confidentiality.
    static func seal(
        _ plaintext: [UInt8], key: SecretBytes, nonce: [UInt8], associatedData: [UInt8]
    ) throws -> [UInt8] {
        _ = Sodium.ready
        try checkKeyAndNonce(key: key, nonce: nonce)
        var out = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
        var outCount: UInt64 = 0
        let rc = out.withNonNullMutablePointer { o, _ in
            plaintext.withNonNullPointer { p, pCount in
                associatedData.withNonNullPointer { ad, adCount in
                    nonce.withNonNullPointer { n, _ in
                        key.withUnsafeBytes { k in
                            crypto_aead_xchacha20poly1305_ietf_encrypt(
                                o, &outCount, p, UInt64(pCount),
                                ad, UInt64(adCount), nil, n,
                                k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
        precondition(rc == 0 && outCount == UInt64(out.count), "XChaCha20-Poly1305 encrypt failed")
        return out
    }

    /// Opens `ciphertext ‖ tag`. Throws `authenticationFailed` on any mismatch and never
    /// returns partial plaintext.
    public static func open(
        _ ciphertext: [UInt8], key: SecretBytes, nonce: [UInt8], associatedData: [UInt8]
    ) throws -> [UInt8] {
        _ = Sodium.ready
        try checkKeyAndNonce(key: key, nonce: nonce)
        // Rejected before libsodium: a shorter input cannot hold a tag.
        guard ciphertext.count >= tagByteCount else {
            throw CryptoError.invalidLength(
                what: "ciphertext", expected: ">= \(tagByteCount)", actual: ciphertext.count)
        }
        var out = [UInt8](repeating: 0, count: ciphertext.count - tagByteCount)
        var outCount: UInt64 = 0
        let rc = out.withNonNullMutablePointer { o, _ in
            ciphertext.withNonNullPointer { c, cCount in
                associatedData.withNonNullPointer { ad, adCount in
                    nonce.withNonNullPointer { n, _ in
                        key.withUnsafeBytes { k in
                            crypto_aead_xchacha20poly1305_ietf_decrypt(
                                o, &outCount, nil, c, UInt64(cCount),
                                ad, UInt64(adCount), n,
                                k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
        }
        guard rc == 0 else {
            // libsodium leaves the output untouched on failure, but zero it regardless.
            secureZero(&out)
            throw CryptoError.authenticationFailed
        }
        return out
    }

    /// Convenience for a `SealedBox`.
    public static func open(_ box: SealedBox, key: SecretBytes, associatedData: [UInt8]) throws -> [UInt8] {
        try open(box.ciphertext, key: key, nonce: box.nonce, associatedData: associatedData)
    }

    private static func checkKeyAndNonce(key: SecretBytes, nonce: [UInt8]) throws {
        guard key.count == keyByteCount else {
            throw CryptoError.invalidLength(what: "key", expected: "\(keyByteCount)", actual: key.count)
        }
        guard nonce.count == nonceByteCount else {
            throw CryptoError.invalidLength(what: "nonce", expected: "\(nonceByteCount)", actual: nonce.count)
        }
    }
}
