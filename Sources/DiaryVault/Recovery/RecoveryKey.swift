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

    /// The key a person typed or a file holds: `CheckedBase32` of the 32 bytes (groups,
    /// letter case and the look-alikes I, L, O forgiven; a mistyped character is caught).
    public init(text: String) throws(RecoveryKeyError) {
        var decoded: [UInt8]
        do {
            decoded = try CheckedBase32.decode(text, expectedByteCount: Self.byteCount)
        } catch {
            throw .text(error)
        }
        do { bytes = try SecretBytes(consuming: &decoded) } catch { throw .outOfSecureMemory }
    }

    /// The key as shown once and written down: 54 characters in 9 groups of 6.
    public var text: String {
        var raw = bytes.withUnsafeBytes { Array($0) }
        defer { secureZero(&raw) }
        return CheckedBase32.encode(raw, groupSize: 6)
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
    /// The text is not a recovery key: why (a mistyped character, a wrong length…).
    case text(CheckedBase32.Error)
    case outOfSecureMemory
}
