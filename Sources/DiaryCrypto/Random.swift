internal import CSodium
import Foundation

/// Randomness from libsodium's CSPRNG (getrandom(2) on Linux).
public enum SecureRandom {
    /// `count` random bytes.
    public static func bytes(count: Int) -> [UInt8] {
        _ = Sodium.ready
        var out = [UInt8](repeating: 0, count: count)
        out.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { randombytes_buf(base, raw.count) }
        }
        return out
    }

    /// A random (version 4, RFC 9562) UUID.
    public static func uuid() -> UUID {
        var b = bytes(count: 16)
        b[6] = (b[6] & 0x0F) | 0x40  // version 4
        b[8] = (b[8] & 0x3F) | 0x80  // RFC variant
        return UUID(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
