internal import CSodium
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns a passphrase into a 32-byte key-encryption key with Argon2id (`crypto_pwhash`,
/// `crypto_pwhash_ALG_ARGON2ID13`).
public enum PassphraseKDF {
    public static let saltByteCount = 16
    public static let keyByteCount = 32
    /// Output lengths `deriveKey` accepts: libsodium's minimum up to a generous cap, wide
    /// enough to replay libsodium's own known answers (155 to 250 bytes).
    public static let outputByteCountBounds: ClosedRange<Int> = 16...1024

    /// A fresh random salt.
    public static func randomSalt() -> [UInt8] { SecureRandom.bytes(count: saltByteCount) }

    /// Derives `outputCount` bytes from `passphrase` (already normalised, see `Passphrase`).
    ///
    /// The parameters are validated before libsodium is called.
    public static func deriveKey(
        passphrase: SecretBytes,
        salt: [UInt8],
        parameters: KDFParameters,
        outputCount: Int = keyByteCount
    ) throws -> SecretBytes {
        _ = Sodium.ready
        try parameters.validate()
        guard salt.count == saltByteCount else {
            throw CryptoError.invalidLength(what: "salt", expected: "\(saltByteCount)", actual: salt.count)
        }
        guard outputByteCountBounds.contains(outputCount) else {
            throw CryptoError.invalidLength(
                what: "derived key",
                expected: "\(outputByteCountBounds.lowerBound)...\(outputByteCountBounds.upperBound)",
                actual: outputCount)
        }
        guard passphrase.count > 0 else { throw CryptoError.emptyPassphrase }
        #if canImport(Glibc)
        // Argon2's memory (64 MiB and up) is mapped anew for each derivation, beside whatever
        // the heap kept of memory already freed (a rekey frees the index its open read just
        // before): given back first, the peak is the derivation plus what is in use.
        malloc_trim(0)
        #endif
        return try SecretBytes(count: outputCount) { out in
            let rc = passphrase.withUnsafeBytes { pass in
                salt.withUnsafeBufferPointer { s in
                    crypto_pwhash(
                        out.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt64(outputCount),
                        pass.baseAddress!.assumingMemoryBound(to: CChar.self), UInt64(pass.count),
                        s.baseAddress!, parameters.opsLimit, Int(parameters.memLimit),
                        crypto_pwhash_alg_argon2id13())
                }
            }
            guard rc == 0 else { throw CryptoError.kdfFailed }
        }
    }
}

/// Passphrase handling: validation and Unicode normalisation.
public enum Passphrase {
    /// Returns the passphrase in Unicode NFC, as guarded bytes.
    ///
    /// Why NFC: macOS input methods and some Linux ones produce decomposed (NFD) Hangul and
    /// accents, others composed; without normalising, the same typed passphrase would derive
    /// different keys on different systems. ASCII is already normal and never leaves guarded
    /// memory; other text passes briefly through a `String`, which Swift cannot zero.
    public static func normalized(_ raw: SecretBytes) throws -> SecretBytes {
        guard raw.count > 0 else { throw CryptoError.emptyPassphrase }
        let isASCII = raw.withUnsafeBytes { $0.allSatisfy { $0 < 0x80 } }
        if isASCII { return try raw.slice(0..<raw.count) }
        guard let text = raw.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
            throw CryptoError.passphraseNotUTF8
        }
        var utf8 = Array(text.precomposedStringWithCanonicalMapping.utf8)
        return try SecretBytes(consuming: &utf8)
    }
}
