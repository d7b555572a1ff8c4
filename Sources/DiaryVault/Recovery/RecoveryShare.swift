import DiaryCrypto
import DiaryStore
import Foundation

/// One share of a recovery key, as a person keeps it (docs/FORMAT.md, Recovery shares).
///
/// Bytes: `u8 version = 1 ‖ [8] share-set id ‖ [16] vault id ‖ u8 K ‖ u8 N ‖ u8 x ‖ [32] y`;
/// the text is `CheckedBase32` of them in groups of six. Any K of the N shares of a set rebuild
/// the key (`RecoveryShares.combine`); fewer say nothing about it.
public struct RecoveryShare: Sendable {
    public static let version: UInt8 = 1
    public static let shareSetIDByteCount = 8
    static let yByteCount = 32
    static let byteCount = 1 + shareSetIDByteCount + 16 + 3 + yByteCount
    /// The most shares a set may have.
    public static let maximumCount = 16

    /// The same for every share of one split, new at each split.
    public let shareSetID: [UInt8]
    public let vaultID: UUID
    /// How many shares rebuild the key (K).
    public let threshold: Int
    /// How many shares were made (N).
    public let count: Int
    /// This share's x, 1…N.
    public let x: Int
    /// P(x) for each byte of the key.
    let y: SecretBytes

    init(shareSetID: [UInt8], vaultID: UUID, threshold: Int, count: Int, x: Int, y: SecretBytes) {
        self.shareSetID = shareSetID
        self.vaultID = vaultID
        self.threshold = threshold
        self.count = count
        self.x = x
        self.y = y
    }

    /// The share set id as 16 lower-case hex digits.
    /// True when `other` holds the same value as this share (compared in constant time): two
    /// files numbered alike but differing are not one share given twice.
    public func holdsTheSameValue(as other: RecoveryShare) -> Bool { y.constantTimeEquals(other.y) }

    public var shareSetHex: String { shareSetID.map { String(format: "%02x", $0) }.joined() }

    /// The share as a person types it: upper case, groups of six joined by `-`.
    public var text: String {
        var bytes = encoded()
        defer { secureZero(&bytes) }
        return CheckedBase32.encode(bytes)
    }

    /// Reads a share as typed (any case, separators and line breaks ignored). Checks the share
    /// alone: it decodes, its version is known and its fields can be.
    public init(text: String) throws {
        var bytes: [UInt8]
        do throws(CheckedBase32.Error) {
            bytes = try CheckedBase32.decode(text, expectedByteCount: Self.byteCount)
        } catch .wrongLength(let expected, let got) {
            try Self.explainOtherLength(text)
            throw RecoveryShareError.mistyped(.wrongLength(expected: expected, got: got))
        } catch {
            throw RecoveryShareError.mistyped(error)
        }
        defer { secureZero(&bytes) }
        try self.init(decoded: bytes)
    }

    private init(decoded bytes: [UInt8]) throws {
        guard bytes[0] == Self.version else { throw RecoveryShareError.unknownVersion(bytes[0]) }
        var reader = ByteReader(bytes, offset: 1)
        let shareSetID = try reader.take(Self.shareSetIDByteCount)
        let vaultID = try reader.uuid()
        let (threshold, count, x) = (Int(try reader.u8()), Int(try reader.u8()), Int(try reader.u8()))
        guard 2 <= threshold, threshold <= count, count <= Self.maximumCount, 1 <= x, x <= count else {
            throw RecoveryShareError.invalidFields
        }
        var y = try reader.take(Self.yByteCount)
        try reader.expectEnd()
        self.init(
            shareSetID: shareSetID, vaultID: vaultID, threshold: threshold, count: count, x: x,
            y: try SecretBytes(consuming: &y))
    }

    /// A text of another length whose checks match is no typo: a recovery key given as a
    /// share, or a share of another version (which may have another length).
    private static func explainOtherLength(_ text: String) throws {
        guard var other = try? CheckedBase32.decodeAnyLength(text), !other.isEmpty else { return }
        defer { secureZero(&other) }
        if other.count == yByteCount { throw RecoveryShareError.recoveryKeyNotShare }
        if other[0] != version { throw RecoveryShareError.unknownVersion(other[0]) }
    }

    /// The share's bytes (the caller zeroes them).
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.byteCount)
        writer.u8(Self.version)
        writer.append(shareSetID)
        writer.uuid(vaultID)
        writer.u8(UInt8(threshold))
        writer.u8(UInt8(count))
        writer.u8(UInt8(x))
        writer.append(y)
        return writer.bytes
    }
}
