internal import CSodium

/// Unkeyed BLAKE2b (`crypto_generichash`): checksums and content hashes, never for secrecy.
public enum BLAKE2b {
    /// The hash of `bytes`, `outputCount` bytes long (16…64; 32 by default).
    public static func hash(_ bytes: [UInt8], outputCount: Int = 32) -> [UInt8] {
        _ = Sodium.ready
        precondition((16...64).contains(outputCount), "BLAKE2b output length out of range")
        var out = [UInt8](repeating: 0, count: outputCount)
        let rc = out.withNonNullMutablePointer { o, _ in
            bytes.withNonNullPointer { i, iCount in
                crypto_generichash(o, outputCount, i, UInt64(iCount), nil, 0)
            }
        }
        precondition(rc == 0, "crypto_generichash failed with valid lengths")
        return out
    }
}

/// Constant-time equality of two public byte strings of equal length (tags, hashes).
public func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    _ = Sodium.ready
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in sodium_memcmp(x.baseAddress!, y.baseAddress!, a.count) == 0 }
    }
}
