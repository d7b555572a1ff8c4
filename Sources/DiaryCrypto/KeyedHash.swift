internal import CSodium

extension BLAKE2b {
    /// Keyed BLAKE2b (`crypto_generichash` with a key): a MAC, or an id that says nothing
    /// about the key without it. The key is 16…64 bytes and is read straight from guarded
    /// memory.
    public static func keyedHash(_ message: [UInt8], key: SecretBytes, outputCount: Int = 32) throws -> [UInt8] {
        _ = Sodium.ready
        precondition((16...64).contains(outputCount), "BLAKE2b output length out of range")
        guard (16...64).contains(key.count) else {
            throw CryptoError.invalidLength(what: "BLAKE2b key", expected: "16...64", actual: key.count)
        }
        var out = [UInt8](repeating: 0, count: outputCount)
        let rc = out.withNonNullMutablePointer { o, _ in
            message.withNonNullPointer { m, mCount in
                key.withUnsafeBytes { k in
                    crypto_generichash(
                        o, outputCount, m, UInt64(mCount), k.baseAddress!.assumingMemoryBound(to: UInt8.self), k.count)
                }
            }
        }
        precondition(rc == 0, "crypto_generichash failed with valid lengths")
        return out
    }
}
