import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Why the text given as an invite code is not one.
public enum InviteCodeError: Error, Equatable, Sendable {
    /// Not Crockford base32 of the right length.
    case malformed
    /// The last two bytes are not the checksum of the rest: a mistyped character.
    case badChecksum
    /// A code of a format this build does not know.
    case unsupportedVersion(Int)
}

/// What a member prints to invite a machine and the machine reads to join (docs/FORMAT.md §12,
/// Invites): the invite's id, its secret, and the first half of the inviter's chain head, so a
/// joiner can tell the chain it is shown is the one its inviter follows.
///
/// The text is Crockford base32 of `u8 1 ‖ id[8] ‖ secret[16] ‖ head[16] ‖ checksum[2]`
/// (checksum: CRC-16/CCITT-FALSE of what precedes it, big-endian), in groups of four. A CRC
/// rather than a hash: a CRC of degree 16 catches every error burst of 16 bits or fewer, so
/// every mistyped character (5 bits) and every swap of two neighbours (10 bits) is caught,
/// where a truncated hash misses one change in 65,536.
public struct InviteCode {
    static let version: UInt8 = 1
    static let idByteCount = 8
    static let secretByteCount = 16
    static let headByteCount = 16
    static let checksumByteCount = 2
    static let byteCount = 1 + idByteCount + secretByteCount + headByteCount + checksumByteCount
    static let proofLabel = Array("diary.sync.join.v2".utf8)

    var inviteID: [UInt8]
    var secret: SecretBytes
    /// The first 16 bytes of the inviter's head hash.
    var head: [UInt8]

    /// A new invite for a chain whose head hash is `head` (its first 16 bytes are kept).
    static func draw(head: [UInt8]) throws -> InviteCode {
        precondition(head.count >= headByteCount, "a head hash is 32 bytes")
        return InviteCode(
            inviteID: SecureRandom.bytes(count: idByteCount), secret: try SecretBytes(randomCount: secretByteCount),
            head: Array(head.prefix(headByteCount)))
    }

    init(inviteID: [UInt8], secret: SecretBytes, head: [UInt8]) {
        self.inviteID = inviteID
        self.secret = secret
        self.head = head
    }

    /// The code as a person types it: upper case, groups of four joined by `-`.
    public var text: String {
        var payload = [Self.version] + inviteID + secret.withUnsafeBytes { Array($0) } + head
        defer { secureZero(&payload) }
        payload += Self.checksum(payload)
        let digits = Array(CrockfordBase32.encode(payload))
        return stride(from: 0, to: digits.count, by: 4)
            .map { String(digits[$0..<min($0 + 4, digits.count)]) }
            .joined(separator: "-")
    }

    /// Reads a code as typed: any case, `-` and spaces ignored, O read as 0 and I, L as 1.
    public init(text: String) throws(InviteCodeError) {
        guard var bytes = CrockfordBase32.decode(text.filter { $0 != "-" && $0 != " " }), !bytes.isEmpty else {
            throw .malformed
        }
        defer { secureZero(&bytes) }
        guard bytes.count == Self.byteCount else {
            throw bytes[0] == Self.version ? .malformed : .unsupportedVersion(Int(bytes[0]))
        }
        let body = Array(bytes[0..<Self.byteCount - Self.checksumByteCount])
        guard
            constantTimeEquals(bytes[(Self.byteCount - Self.checksumByteCount)...], Self.checksum(body))
        else { throw .badChecksum }
        guard bytes[0] == Self.version else { throw .unsupportedVersion(Int(bytes[0])) }
        var secret = Array(bytes[(1 + Self.idByteCount)..<(1 + Self.idByteCount + Self.secretByteCount)])
        do {
            self.secret = try SecretBytes(consuming: &secret)
        } catch {
            // Only running out of guarded memory fails here; it is not the code's fault, but
            // this initialiser can only say the code cannot be used.
            throw .malformed
        }
        inviteID = Array(bytes[1...Self.idByteCount])
        head = Array(bytes[(1 + Self.idByteCount + Self.secretByteCount)..<(Self.byteCount - Self.checksumByteCount)])
    }

    /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection), big-endian.
    static func checksum(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt16 = 0xFFFF
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
        }
        return [UInt8(crc >> 8), UInt8(crc & 0xFF)]
    }

    /// What a joiner proves it holds the invite's secret with: BLAKE2b-256 keyed by the
    /// secret over `"diary.sync.join.v2" ‖ vault id ‖ machine id ‖ public key ‖ str16 name ‖
    /// head hash[32]`.
    static func proof(
        secret: SecretBytes, vaultID: UUID, machine: UUID, publicKey: [UInt8], name: String, head: [UInt8]
    ) throws -> [UInt8] {
        precondition(
            publicKey.count == Ed25519.publicKeyByteCount && head.count == 32, "a public key and a full head hash")
        var w = ByteWriter()
        w.append(proofLabel)
        w.uuid(vaultID)
        w.uuid(machine)
        w.append(publicKey)
        w.string16(name)
        w.append(head)
        return try BLAKE2b.keyedHash(w.bytes, key: secret, outputCount: 32)
    }
}

/// Crockford's base32: digits and upper-case letters without I, L, O and U; no padding.
enum CrockfordBase32 {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[(buffer >> bits) & 31])
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`, or nil for a character outside the alphabet or a last digit
    /// whose unused bits are not zero (so each byte string has exactly one text).
    static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var out: [UInt8] = []
        var buffer = 0
        var bits = 0
        for character in text.uppercased().utf8 {
            guard let value = value(of: character) else { return nil }
            buffer = (buffer << 5 | value) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        guard bits < 5, buffer & ((1 << bits) - 1) == 0 else { return nil }
        return out
    }

    private static func value(of character: UInt8) -> Int? {
        switch character {
        case UInt8(ascii: "O"): return 0
        case UInt8(ascii: "I"), UInt8(ascii: "L"): return 1
        default: return alphabet.firstIndex(of: character)
        }
    }
}
