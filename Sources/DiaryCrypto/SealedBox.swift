internal import CSodium

/// X25519 anonymous sealed boxes, libsodium's `crypto_box_seal`: anyone holding the public key
/// can seal, only the holder of the secret key opens.
///
/// Why: the vault seals every new vault key to the recovery key's public half, so a rotation
/// needs only what the header holds, never the recovery key itself (docs/FORMAT.md §3).
public enum SealedBox {
    public static let publicKeyByteCount = 32
    public static let secretKeyByteCount = 32
    public static let seedByteCount = 32
    /// The ephemeral public key and the MAC the box adds to its plaintext.
    public static let overhead = 48

    /// Seals `secret` to `publicKey`. The box reveals nothing of the sender (a fresh ephemeral
    /// key pair each time) and only the length of what it holds.
    public static func seal(_ secret: SecretBytes, to publicKey: [UInt8]) throws -> [UInt8] {
        _ = Sodium.ready
        guard publicKey.count == publicKeyByteCount else {
            throw CryptoError.invalidLength(what: "box public key", expected: "32", actual: publicKey.count)
        }
        var box = [UInt8](repeating: 0, count: secret.count + overhead)
        let rc = box.withNonNullMutablePointer { b, _ in
            publicKey.withNonNullPointer { p, _ in
                secret.withUnsafeBytes { m in
                    crypto_box_seal(
                        b, m.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? p, UInt64(secret.count), p)
                }
            }
        }
        // A public key that is a low-order point makes libsodium refuse.
        guard rc == 0 else { throw CryptoError.authenticationFailed }
        return box
    }

    /// Opens a box sealed to `keyPair`: the plaintext straight into guarded memory. Throws
    /// `authenticationFailed` for a box sealed to another key or altered in any byte.
    public static func open(_ box: [UInt8], with keyPair: BoxKeyPair) throws -> SecretBytes {
        _ = Sodium.ready
        guard box.count >= overhead else {
            throw CryptoError.invalidLength(what: "sealed box", expected: ">= 48", actual: box.count)
        }
        var failed = false
        let opened = try SecretBytes(count: box.count - overhead) { out in
            let rc = box.withNonNullPointer { b, bCount in
                keyPair.publicKey.withNonNullPointer { p, _ in
                    keyPair.secretKey.withUnsafeBytes { s in
                        var spare: UInt8 = 0
                        return withUnsafeMutablePointer(to: &spare) { sparePointer in
                            crypto_box_seal_open(
                                out.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? sparePointer, b,
                                UInt64(bCount), p, s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                        }
                    }
                }
            }
            failed = rc != 0
        }
        guard !failed else { throw CryptoError.authenticationFailed }
        return opened
    }
}

/// An X25519 key pair for sealed boxes. The secret half lives only in guarded memory.
public struct BoxKeyPair: Sendable {
    public let publicKey: [UInt8]
    public let secretKey: SecretBytes

    /// The key pair a 32-byte seed determines (`crypto_box_seed_keypair`): the same seed
    /// always gives the same pair, so a recovery key written down is the whole key pair.
    public init(seed: SecretBytes) throws {
        _ = Sodium.ready
        guard seed.count == SealedBox.seedByteCount else {
            throw CryptoError.invalidLength(what: "box seed", expected: "32", actual: seed.count)
        }
        var publicKey = [UInt8](repeating: 0, count: SealedBox.publicKeyByteCount)
        secretKey = try SecretBytes(count: SealedBox.secretKeyByteCount) { sk in
            let rc = publicKey.withNonNullMutablePointer { p, _ in
                seed.withUnsafeBytes { s in
                    crypto_box_seed_keypair(
                        p, sk.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
            precondition(rc == 0, "crypto_box_seed_keypair failed")
        }
        self.publicKey = publicKey
    }
}
