/// What can go wrong in the crypto layer. Messages never carry key material or plaintext.
public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Authentication failed: wrong key, or the ciphertext, nonce or associated data changed.
    case authenticationFailed
    /// An input has the wrong size (a key, a nonce, a ciphertext shorter than a tag…).
    case invalidLength(what: String, expected: String, actual: Int)
    /// KDF parameters outside the bounds this build accepts.
    case kdfParametersOutOfBounds(String)
    /// libsodium could not derive a key (usually: it could not allocate the requested memory).
    case kdfFailed
    /// Guarded memory could not be allocated.
    case outOfSecureMemory(count: Int)
    /// A passphrase was empty.
    case emptyPassphrase
    /// A passphrase was not valid UTF-8.
    case passphraseNotUTF8
    /// Padding did not have the documented shape.
    case invalidPadding
    /// A subkey context is not exactly 8 bytes.
    case invalidSubkeyContext
    /// A stored Ed25519 secret key whose public half is not the one its seed makes.
    case invalidSigningKey
    /// An X25519 public key whose shared secret is all zeros (a low-order point): refused.
    case weakPublicKey

    public var description: String {
        switch self {
        case .authenticationFailed:
            return "authentication failed"
        case .invalidLength(let what, let expected, let actual):
            return "invalid \(what) length: expected \(expected), got \(actual)"
        case .kdfParametersOutOfBounds(let detail):
            return "key derivation parameters out of bounds: \(detail)"
        case .kdfFailed:
            return "key derivation failed (not enough memory?)"
        case .outOfSecureMemory(let count):
            return "could not allocate \(count) bytes of guarded memory"
        case .emptyPassphrase:
            return "the passphrase is empty"
        case .passphraseNotUTF8:
            return "the passphrase is not valid UTF-8"
        case .invalidPadding:
            return "invalid padding"
        case .invalidSubkeyContext:
            return "a subkey context must be exactly 8 bytes"
        case .invalidSigningKey:
            return "the signing key is damaged"
        case .weakPublicKey:
            return "an X25519 public key of low order"
        }
    }
}
