import DiaryCrypto
import DiaryStore
import Foundation

/// The attachment records of an entry plaintext of version 3 (docs/FORMAT.md §7.6):
/// `count u8 (1…255) | count × record`, a record being `object id[16] | stream key[32] |
/// length u64 | stored hash[32] | generation u32 | dedup hash[32] | added i64 | name str16 |
/// media type str16`.
enum AttachmentCodec {
    static let keyLength = 32
    static let hashLength = 32
    /// A record before its name.
    static let fixedRecordLength = 16 + keyLength + 8 + hashLength + 4 + hashLength + 8
    /// The most the count and the records of one entry can take: 255 records with the longest
    /// name and media type (132 091 bytes).
    static let maximumLength =
        1 + AttachmentLimits.maximumPerEntry
        * (fixedRecordLength + 2 + AttachmentLimits.maximumNameBytes + 2 + AttachmentLimits.maximumMediaTypeBytes)

    static func write(_ records: [AttachmentRecord], to w: inout ByteWriter) {
        precondition((1...AttachmentLimits.maximumPerEntry).contains(records.count), "attachment count")
        w.u8(UInt8(records.count))
        for record in records {
            precondition(record.streamKey.count == keyLength, "stream key length")
            precondition(record.storedHash.count == hashLength && record.dedupHash.count == hashLength, "hash length")
            w.uuid(record.objectID)
            w.append(record.streamKey)
            w.u64(record.length)
            w.append(record.storedHash)
            w.u32(record.generation)
            w.append(record.dedupHash)
            w.i64(record.added.millisecondsSince1970)
            w.string16(record.name)
            w.string16(record.mediaType)
        }
    }

    /// Reads the count and the records, refusing anything a writer could not have written
    /// (`check`, names that fold to the same key, media types that are not `type/subtype`).
    /// With `building` false (search's fast path) it checks the same and returns nothing, so no
    /// key leaves the plaintext; with it, each key goes straight into guarded memory.
    static func read(_ r: inout RawReader, building: Bool) throws -> [AttachmentRecord] {
        let count = Int(try r.u8())
        guard count >= 1 else { throw FormatError.invalidField("attachment count") }
        var records: [AttachmentRecord] = []
        var names = Set<String>()
        for _ in 0..<count {
            let objectID = try r.take(16)
            let key = try r.take(keyLength)
            let length = try r.bigEndian(8)
            let storedHash = try r.take(hashLength)
            let generation = UInt32(try r.bigEndian(4))
            let dedupHash = try r.take(hashLength)
            let added = Int64(bitPattern: try r.bigEndian(8))
            let name = try r.string16()
            let mediaType = try r.string16()
            try check(length: length, generation: generation, name: name)
            guard Date.storableMilliseconds.contains(added) else { throw FormatError.invalidField("time") }
            guard AttachmentName.isValidMediaType(mediaType) else { throw FormatError.invalidField("media type") }
            guard names.insert(AttachmentName.key(name)).inserted else {
                throw FormatError.invalidField("attachment names")
            }
            guard building else { continue }
            records.append(
                AttachmentRecord(
                    objectID: UUID(bytes: Array(objectID)),
                    streamKey: try SecretBytes(count: keyLength) { $0.copyMemory(from: key) },
                    length: length, storedHash: Array(storedHash), generation: generation,
                    dedupHash: Array(dedupHash), added: Date(millisecondsSince1970: added), name: name,
                    mediaType: mediaType))
        }
        return records
    }

    /// The rules an entry's record and an index row's attachment share: a length of 1 … 4 GiB,
    /// a generation of at least 1 (generations start at 1, §4), a valid name. Names are unique
    /// within an entry after `AttachmentName.key`: the caller keeps the set.
    static func check(length: UInt64, generation: UInt32, name: String) throws {
        guard (1...AttachmentLimits.maximumLength).contains(length) else {
            throw FormatError.invalidField("attachment length")
        }
        guard generation >= 1 else { throw FormatError.invalidField("attachment generation") }
        guard AttachmentName.isValid(name) else { throw FormatError.invalidField("attachment name") }
    }
}
