internal import CSodium

/// Ed25519 signatures (RFC 8032), libsodium's `crypto_sign_*_detached`.
///
/// A signature proves who wrote a file, which the shared vault key cannot: everyone who can
/// read the vault holds that key, so only a key pair of each writer's own can tell writers
/// apart (docs/FORMAT.md §12).
public enum Ed25519 {
    public static let publicKeyByteCount = 32
    /// libsodium's secret key: the 32-byte seed followed by the public key.
    public static let secretKeyByteCount = 64
    public static let seedByteCount = 32
    public static let signatureByteCount = 64

    /// The detached signature of `message` under `secretKey` (64 bytes, deterministic).
    public static func sign(_ message: [UInt8], secretKey: SecretBytes) throws -> [UInt8] {
        _ = Sodium.ready
        guard secretKey.count == secretKeyByteCount else {
            throw CryptoError.invalidLength(
                what: "signing key", expected: "\(secretKeyByteCount)", actual: secretKey.count)
        }
        var signature = [UInt8](repeating: 0, count: signatureByteCount)
        let rc = signature.withNonNullMutablePointer { s, _ in
            message.withNonNullPointer { m, mCount in
                secretKey.withUnsafeBytes { k in
                    crypto_sign_detached(
                        s, nil, m, UInt64(mCount), k.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        precondition(rc == 0, "crypto_sign_detached failed with valid lengths")
        return signature
    }

    /// True when `signature` is a valid signature of `message` under `publicKey`. False for
    /// any wrong length: the inputs come from files anyone could have written.
    public static func verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        _ = Sodium.ready
        guard signature.count == signatureByteCount, publicKey.count == publicKeyByteCount else { return false }
        return signature.withNonNullPointer { s, _ in
            message.withNonNullPointer { m, mCount in
                publicKey.withNonNullPointer { p, _ in
                    crypto_sign_verify_detached(s, m, UInt64(mCount), p) == 0
                }
            }
        }
    }

    /// What a person compares to tell two public keys apart: the first 8 bytes of the key's
    /// BLAKE2b-256 as hex in four groups of four, `3f2a 91bc 0e77 d415`.
    public static func fingerprint(_ publicKey: [UInt8]) -> String {
        let digits = BLAKE2b.hash(publicKey).prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }
        return stride(from: 0, to: 8, by: 2).map { digits[$0] + digits[$0 + 1] }.joined(separator: " ")
    }
}

/// A machine's Ed25519 key pair. The secret half lives only in guarded memory.
public struct SigningKeyPair: Sendable {
    public let publicKey: [UInt8]
    /// libsodium's 64-byte secret key (seed ‖ public key).
    public let secretKey: SecretBytes

    /// A new random key pair.
    public static func generate() throws -> SigningKeyPair {
        _ = Sodium.ready
        var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyByteCount)
        let secretKey = try SecretBytes(count: Ed25519.secretKeyByteCount) { sk in
            let rc = publicKey.withNonNullMutablePointer { p, _ in
                crypto_sign_keypair(p, sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            precondition(rc == 0, "crypto_sign_keypair failed")
        }
        return SigningKeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The key pair a 32-byte seed determines (RFC 8032's "secret key").
    public init(seed: SecretBytes) throws {
        _ = Sodium.ready
        guard seed.count == Ed25519.seedByteCount else {
            throw CryptoError.invalidLength(
                what: "signing seed", expected: "\(Ed25519.seedByteCount)", actual: seed.count)
        }
        var publicKey = [UInt8](repeating: 0, count: Ed25519.publicKeyByteCount)
        let secretKey = try SecretBytes(count: Ed25519.secretKeyByteCount) { sk in
            let rc = publicKey.withNonNullMutablePointer { p, _ in
                seed.withUnsafeBytes { s in
                    crypto_sign_seed_keypair(
                        p, sk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            precondition(rc == 0, "crypto_sign_seed_keypair failed")
        }
        self.init(publicKey: publicKey, secretKey: secretKey)
    }

    /// The key pair of a stored 64-byte secret key. Refuses one whose public half is not the
    /// one its seed makes: a damaged key would otherwise sign with one key and name another.
    public init(secretKey: SecretBytes) throws {
        guard secretKey.count == Ed25519.secretKeyByteCount else {
            throw CryptoError.invalidLength(
                what: "signing key", expected: "\(Ed25519.secretKeyByteCount)", actual: secretKey.count)
        }
        let derived = try SigningKeyPair(seed: secretKey.slice(0..<Ed25519.seedByteCount))
        let stored = secretKey.withUnsafeBytes { Array($0[Ed25519.seedByteCount...]) }
        guard constantTimeEquals(stored, derived.publicKey) else { throw CryptoError.invalidSigningKey }
        self.init(publicKey: stored, secretKey: secretKey)
    }

    private init(publicKey: [UInt8], secretKey: SecretBytes) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }
}
