import DiaryCrypto
import Foundation

/// The layout of a sealed attachment object (docs/FORMAT.md §7.6, "Attachment objects"):
///
/// ```
/// u8 envelope version = 1 | u8 kind = 4 | [24] secretstream header | chunk 0 | chunk 1 | …
/// ```
/// Chunk i seals bytes `[i·65536, (i+1)·65536)` of `P = Pad(plaintext)`, with associated data
/// `"diary.a1" ‖ vault id ‖ object id ‖ u64 i`, tagged FINAL if it is the last, else MESSAGE.
/// Everything here is arithmetic: total for any input, so a hostile length cannot trap it.
public enum AttachmentObject {
    public static let version: UInt8 = 1
    public static let kind: UInt8 = 4
    /// Version, kind and the stream header.
    public static let prefixLength = 2 + SecretStream.headerByteCount
    /// Bytes of `P` per chunk; every chunk but the last is exactly this long.
    public static let chunkLength = AttachmentLimits.chunkLength
    /// A stored chunk is its plaintext plus this.
    public static let chunkOverhead = SecretStream.chunkOverhead
    /// The longest stored chunk.
    public static let storedChunkLength = chunkLength + chunkOverhead
    static let domain: [UInt8] = Array("diary.a1".utf8)

    /// §6's bucket for `length` bytes, extended past 64 MiB with the same rule (at least 512;
    /// above, a multiple of `2^(e-3)` where `2^e` is the largest power of two not above
    /// `length + 1`), so a large object's size reveals only its bucket. Nil outside
    /// `0…maximumLength`.
    public static func paddedLength(for length: UInt64) -> UInt64? {
        guard length <= AttachmentLimits.maximumLength else { return nil }
        let needed = length + 1
        let floor = UInt64(LengthPadding.minimumBucket)
        if needed <= floor { return floor }
        let exponent = UInt64.bitWidth - 1 - needed.leadingZeroBitCount
        let step = UInt64(1) << (exponent - 3)
        return (needed + step - 1) / step * step
    }

    /// The number of chunks of the object of a `length`-byte file (nil outside the limits).
    public static func chunkCount(for length: UInt64) -> UInt64? {
        guard let padded = paddedLength(for: length) else { return nil }
        return (padded + UInt64(chunkLength) - 1) / UInt64(chunkLength)
    }

    /// The exact stored length of the object of a `length`-byte file:
    /// `26 + Pad(L) + 17 · ceil(Pad(L) / 65536)`. Nil outside `1…maximumLength`: no object
    /// holds an empty file. A reader refuses any object of another length before decrypting.
    public static func storedLength(for length: UInt64) -> UInt64? {
        guard length >= 1, let padded = paddedLength(for: length), let chunks = chunkCount(for: length) else {
            return nil
        }
        return UInt64(prefixLength) + padded + UInt64(chunkOverhead) * chunks
    }

    /// The largest object any valid record describes (that of a 4 GiB file): the stores'
    /// read limit.
    public static let maximumStoredLength = storedLength(for: AttachmentLimits.maximumLength)!

    /// The associated data of chunk `index`.
    static func associatedData(vaultID: UUID, objectID: UUID, chunk index: UInt64) -> [UInt8] {
        var ad = domain
        ad.reserveCapacity(domain.count + 40)
        withUnsafeBytes(of: vaultID.uuid) { ad.append(contentsOf: $0) }
        withUnsafeBytes(of: objectID.uuid) { ad.append(contentsOf: $0) }
        withUnsafeBytes(of: index.bigEndian) { ad.append(contentsOf: $0) }
        return ad
    }
}

/// Why an attachment could not be sealed or opened. Typed, for the caller to word.
public enum AttachmentError: Error, Equatable, Sendable {
    /// A file of no bytes: nothing to attach.
    case empty
    /// A file longer than `AttachmentLimits.maximumLength`.
    case tooLarge(limit: UInt64)
    /// The stored object is not the one the record describes: `reason` says how it failed.
    case damaged(objectID: UUID, reason: AttachmentDamage)
}

/// How a stored attachment object failed its checks.
public enum AttachmentDamage: Equatable, Sendable {
    /// The record's length is outside the format's limits.
    case invalidRecord
    /// The object does not have the stored length the record's plaintext length implies.
    case wrongLength(expected: UInt64, actual: UInt64)
    /// The version or kind byte is not 1 / 4.
    case wrongPrefix
    /// Chunk `chunk` did not authenticate (changed, moved, from another object, wrong key).
    case chunkRefused(chunk: UInt64)
    /// Chunk `chunk` carries the wrong tag (FINAL early, or not FINAL at the end).
    case wrongTag(chunk: UInt64)
    /// The padding after the plaintext is not exactly `0x80` then zeros.
    case badPadding
    /// The stored bytes do not hash to the record's stored hash.
    case hashMismatch
}
