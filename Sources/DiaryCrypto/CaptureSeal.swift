internal import CSodium

/// An X25519 key pair (`crypto_box_keypair`); the secret half lives only in guarded memory.
public struct X25519KeyPair: Sendable {
    public static let keyByteCount = 32

    public let publicKey: [UInt8]
    public let secretKey: SecretBytes

    /// A new random key pair.
    public static func generate() throws -> X25519KeyPair {
        _ = Sodium.ready
        var publicKey = [UInt8](repeating: 0, count: keyByteCount)
        let secretKey = try SecretBytes(count: keyByteCount) { sk in
            let rc = publicKey.withNonNullMutablePointer { p, _ in
                crypto_box_keypair(p, sk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            precondition(rc == 0, "crypto_box_keypair failed")
        }
        return X25519KeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The pair of a stored secret key: its public half is derived (`crypto_scalarmult_base`).
    public init(secretKey: SecretBytes) throws {
        _ = Sodium.ready
        guard secretKey.count == Self.keyByteCount else {
            throw CryptoError.invalidLength(
                what: "X25519 key", expected: "\(Self.keyByteCount)", actual: secretKey.count)
        }
        var publicKey = [UInt8](repeating: 0, count: Self.keyByteCount)
        let rc = publicKey.withNonNullMutablePointer { p, _ in
            secretKey.withUnsafeBytes { crypto_scalarmult_base(p, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
        }
        precondition(rc == 0, "crypto_scalarmult_base failed")
        self.init(publicKey: publicKey, secretKey: secretKey)
    }

    private init(publicKey: [UInt8], secretKey: SecretBytes) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }
}

/// The seal of a captured item (docs/FORMAT.md §13.1): only the vault can open it, and it opens
/// only as the device's.
///
/// `K = BLAKE2b-256("diary.capture.v1" ‖ X25519(e, I) ‖ X25519(d, I) ‖ e_pub ‖ d_pub ‖ I_pub)` with a
/// fresh ephemeral pair e per item, the device's static pair d and the vault's inbox pair I for
/// that device; then XChaCha20-Poly1305 under K with a random nonce. The ephemeral secret is gone
/// once the item is sealed, so a stolen device cannot open what it sent (it lacks both e and I);
/// d in the exchange means nobody without d can make an item that opens as the device's.
public enum CaptureSeal {
    static let context = Array("diary.capture.v1".utf8)

    /// `e_pub ‖ nonce ‖ ciphertext`: what follows `prefix` in a sealed item. The associated data
    /// is `prefix ‖ e_pub`, so every byte before the nonce is authenticated.
    public static func seal(
        _ plaintext: [UInt8], device: X25519KeyPair, inboxPublicKey: [UInt8], prefix: [UInt8]
    ) throws -> [UInt8] {
        let ephemeral = try X25519KeyPair.generate()
        let key = try derive(
            first: try sharedSecret(ephemeral.secretKey, inboxPublicKey),
            second: try sharedSecret(device.secretKey, inboxPublicKey),
            ephemeralPublicKey: ephemeral.publicKey, devicePublicKey: device.publicKey, inboxPublicKey: inboxPublicKey)
        let box = try XChaCha20Poly1305.seal(plaintext, key: key, associatedData: prefix + ephemeral.publicKey)
        return ephemeral.publicKey + box.nonce + box.ciphertext
    }

    /// Opens what `seal` returned (`sealed` = `e_pub ‖ nonce ‖ ciphertext`) with the inbox secret
    /// key, as an item of the device whose public key is `devicePublicKey`.
    public static func open(
        _ sealed: [UInt8], prefix: [UInt8], inbox: X25519KeyPair, devicePublicKey: [UInt8]
    ) throws -> [UInt8] {
        let keyLength = X25519KeyPair.keyByteCount
        let minimum = keyLength + XChaCha20Poly1305.nonceByteCount + XChaCha20Poly1305.tagByteCount
        guard sealed.count >= minimum else {
            throw CryptoError.invalidLength(what: "captured item", expected: ">= \(minimum)", actual: sealed.count)
        }
        let ephemeralPublicKey = Array(sealed[0..<keyLength])
        let nonce = Array(sealed[keyLength..<keyLength + XChaCha20Poly1305.nonceByteCount])
        let key = try derive(
            first: try sharedSecret(inbox.secretKey, ephemeralPublicKey),
            second: try sharedSecret(inbox.secretKey, devicePublicKey),
            ephemeralPublicKey: ephemeralPublicKey, devicePublicKey: devicePublicKey,
            inboxPublicKey: inbox.publicKey)
        return try XChaCha20Poly1305.open(
            Array(sealed[(keyLength + XChaCha20Poly1305.nonceByteCount)...]), key: key, nonce: nonce,
            associatedData: prefix + ephemeralPublicKey)
    }

    /// X25519(secret, public), refused when it is all zeros: a low-order public key would make
    /// the shared secret known to anyone, and with it K.
    static func sharedSecret(_ secret: SecretBytes, _ publicKey: [UInt8]) throws -> SecretBytes {
        _ = Sodium.ready
        guard publicKey.count == X25519KeyPair.keyByteCount else {
            throw CryptoError.invalidLength(what: "X25519 public key", expected: "32", actual: publicKey.count)
        }
        var refused = false
        let shared = try SecretBytes(count: X25519KeyPair.keyByteCount) { out in
            let rc = publicKey.withNonNullPointer { p, _ in
                secret.withUnsafeBytes { s in
                    crypto_scalarmult(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self),
                        s.baseAddress!.assumingMemoryBound(to: UInt8.self), p)
                }
            }
            // libsodium already fails on an all-zero result; checked again in constant time.
            refused = rc != 0 || sodium_is_zero(out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count) == 1
        }
        guard !refused else { throw CryptoError.weakPublicKey }
        return shared
    }

    /// K from the two shared secrets and the three public keys, hashed in guarded memory.
    static func derive(
        first: SecretBytes, second: SecretBytes, ephemeralPublicKey: [UInt8], devicePublicKey: [UInt8],
        inboxPublicKey: [UInt8]
    ) throws -> SecretBytes {
        for key in [ephemeralPublicKey, devicePublicKey, inboxPublicKey] where key.count != X25519KeyPair.keyByteCount {
            throw CryptoError.invalidLength(what: "X25519 public key", expected: "32", actual: key.count)
        }
        let publicPart = ephemeralPublicKey + devicePublicKey + inboxPublicKey
        let input = try SecretBytes(count: context.count + 64 + publicPart.count) { buffer in
            buffer.baseAddress!.copyMemory(from: context, byteCount: context.count)
            var at = context.count
            for secret in [first, second] {
                secret.withUnsafeBytes {
                    buffer.baseAddress!.advanced(by: at).copyMemory(from: $0.baseAddress!, byteCount: 32)
                }
                at += 32
            }
            buffer.baseAddress!.advanced(by: at).copyMemory(from: publicPart, byteCount: publicPart.count)
        }
        return try SecretBytes(count: XChaCha20Poly1305.keyByteCount) { out in
            let rc = input.withUnsafeBytes { i in
                crypto_generichash(
                    out.baseAddress!.assumingMemoryBound(to: UInt8.self), out.count,
                    i.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(i.count), nil, 0)
            }
            precondition(rc == 0, "crypto_generichash failed with valid lengths")
        }
    }
}
