import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The layout records and statements share (docs/FORMAT.md §12): an 81-byte clear prefix, a
/// 24-byte nonce, the padded plaintext sealed under a record key with the prefix as associated
/// data, and an Ed25519 signature of everything before it, under a domain label of its own
/// so that a signed record can never pass as a statement or the reverse.
enum SignedSealedFile {
    static let prefixLength = 81
    static let nonceEnd = prefixLength + XChaCha20Poly1305.nonceByteCount
    static let signatureLength = Ed25519.signatureByteCount
    /// Everything that is not the padded plaintext.
    static let overhead = nonceEnd + XChaCha20Poly1305.tagByteCount + signatureLength
    static let minimumLength = overhead + LengthPadding.minimumBucket

    static func seal(
        prefix: [UInt8], plaintext: [UInt8], key: SyncKey, signingKey: SecretBytes, domain: [UInt8]
    ) throws -> [UInt8] {
        precondition(prefix.count == prefixLength, "a clear prefix is 81 bytes")
        var padded = try LengthPadding.pad(plaintext)
        defer { secureZero(&padded) }
        let box = try XChaCha20Poly1305.seal(padded, key: key.recordKey, associatedData: prefix)
        let signed = prefix + box.nonce + box.ciphertext
        return signed + (try Ed25519.sign(domain + signed, secretKey: signingKey))
    }

    /// True when the last 64 bytes sign the rest under `publicKey`.
    /// The clear prefix's fields after magic and version, checked strictly without any key: a
    /// reader of the rest (records and statements order their fields differently).
    static func prefixFields(_ file: [UInt8], magic: [UInt8], version: UInt8) throws(RecordError) -> ByteReader {
        guard file.count >= magic.count + 1, Array(file[0..<magic.count]) == magic else { throw .notARecord }
        guard file[magic.count] == version else { throw .unsupportedVersion(Int(file[magic.count])) }
        guard file.count >= prefixLength else { throw .notARecord }
        return ByteReader(Array(file[(magic.count + 1)..<prefixLength]))
    }

    static func signatureIsValid(_ file: [UInt8], publicKey: [UInt8], domain: [UInt8]) -> Bool {
        guard file.count > signatureLength else { return false }
        let end = file.count - signatureLength
        return Ed25519.verify(Array(file[end...]), message: domain + file[0..<end], publicKey: publicKey)
    }

    /// True when `count` is a length such a file has: the sealed part a padding bucket.
    static func hasValidLength(_ count: Int, maximum: Int) -> Bool {
        count >= minimumLength && count <= maximum && LengthPadding.isBucketSize(count - overhead)
    }

    /// True for the beginning of such a file and not a whole one: empty, or starting with
    /// `magic` at a length no whole file has (a file-sync tool copying it in place).
    static func looksIncomplete(_ file: [UInt8], magic: [UInt8]) -> Bool {
        guard file.count >= magic.count else { return Array(magic.prefix(file.count)) == file }
        guard Array(file[0..<magic.count]) == magic else { return false }
        let sealed = file.count - overhead
        return sealed < LengthPadding.minimumBucket || !LengthPadding.isBucketSize(sealed)
    }

    /// The padded plaintext opened and unpadded (the length already checked).
    static func open(_ file: [UInt8], key: SyncKey) throws(RecordError) -> [UInt8] {
        let sealedEnd = file.count - signatureLength
        var padded: [UInt8]
        do {
            padded = try XChaCha20Poly1305.open(
                Array(file[nonceEnd..<sealedEnd]), key: key.recordKey,
                nonce: Array(file[prefixLength..<nonceEnd]), associatedData: Array(file[0..<prefixLength]))
        } catch {
            throw .doesNotAuthenticate
        }
        defer { secureZero(&padded) }
        do {
            return try LengthPadding.unpad(padded)
        } catch {
            throw .undecodable("padding")
        }
    }
}

extension UUID {
    /// Byte order: how member lists and version vectors are sorted.
    func precedes(_ other: UUID) -> Bool { bytes.lexicographicallyPrecedes(other.bytes) }
}
