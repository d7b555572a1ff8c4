import DiaryCrypto
import Foundation

/// The recovery key: 32 random bytes that open the vault when the passphrase is forgotten.
///
/// Never text a person chose: its public half is in the header for anyone to read, so a
/// guessable key would fall to guessing. The bytes are the seed of an X25519 key pair
/// (`crypto_box_seed_keypair`); the vault keeps the public half and seals every vault key
/// to it, so the key stays valid through `passwd` and `rekey` without being asked for.
public struct RecoveryKey: Sendable {
    public static let byteCount = 32

    /// The 32 bytes (guarded memory).
    public let bytes: SecretBytes

    /// Wraps 32 bytes (rebuilt from shares, say).
    public init(bytes: SecretBytes) throws {
        guard bytes.count == Self.byteCount else { throw RecoveryKeyError.wrongLength(bytes.count) }
        self.bytes = bytes
    }

    /// A new random key.
    public static func generate() throws -> RecoveryKey {
        try RecoveryKey(bytes: SecretBytes(randomCount: byteCount))
    }

    /// The X25519 key pair the bytes determine.
    public func keyPair() throws -> BoxKeyPair { try BoxKeyPair(seed: bytes) }

    /// The public half, which the vault keeps.
    public var publicKey: [UInt8] {
        get throws { try keyPair().publicKey }
    }

    /// What a person compares to tell two recovery keys apart, from the public half alone.
    public static func fingerprint(ofPublicKey publicKey: [UInt8]) -> String {
        Ed25519.fingerprint(publicKey)
    }
}

/// Why text or bytes are not a recovery key.
public enum RecoveryKeyError: Error, Equatable, Sendable {
    case wrongLength(Int)
}
