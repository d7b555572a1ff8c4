internal import CSodium

/// Subkeys from a master key with `crypto_kdf_derive_from_key` (BLAKE2b).
///
/// One vault key yields independent keys for independent jobs (the index, the entries), so
/// a ciphertext of one kind can never be opened as another even before the associated data
/// is checked.
public struct SubkeyContext: Equatable, Hashable, Sendable {
    /// Exactly 8 bytes, as libsodium requires.
    public let bytes: [UInt8]

    public init(_ ascii: String) throws {
        let b = Array(ascii.utf8)
        guard b.count == 8 else { throw CryptoError.invalidSubkeyContext }
        bytes = b
    }
}

extension SecretBytes {
    /// Derives subkey number `id` of length `count` (16…64) in `context` from this master key
    /// (which must be 32 bytes).
    public func deriveSubkey(id: UInt64, context: SubkeyContext, count: Int = 32) throws -> SecretBytes {
        _ = Sodium.ready
        guard self.count == 32 else {
            throw CryptoError.invalidLength(what: "master key", expected: "32", actual: self.count)
        }
        guard (16...64).contains(count) else {
            throw CryptoError.invalidLength(what: "subkey", expected: "16...64", actual: count)
        }
        return try SecretBytes(count: count) { out in
            let rc = self.withUnsafeBytes { master in
                context.bytes.withUnsafeBufferPointer { ctx in
                    ctx.baseAddress!.withMemoryRebound(to: CChar.self, capacity: 8) { c in
                        crypto_kdf_derive_from_key(
                            out.baseAddress!.assumingMemoryBound(to: UInt8.self), count, id, c,
                            master.baseAddress!.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
            guard rc == 0 else { throw CryptoError.kdfFailed }
        }
    }
}
