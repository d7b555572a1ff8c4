import DiaryStore
import Foundation

/// The attachments of an index row (docs/FORMAT.md §7.6): when the row's flags have bit 2,
/// its source is followed by `count u8 (1…255) | count × (object id[16] | length u64 |
/// dedup hash[32] | generation u32 | name str16)`. Enough for `list` and for finding an
/// identical file already stored; the keys stay in the sealed entries.
extension IndexPage {
    /// One attachment before its name.
    static let attachmentFixedLength = 16 + 8 + AttachmentCodec.hashLength + 4

    /// True when the row's entry has attachments.
    func hasAttachments(rowAt i: Int) -> Bool { rows[offsets[i] + 40] & EntryCodec.attachmentsFlag != 0 }

    /// Validates the attachment list at `start` with the rules of an entry's records
    /// (`AttachmentCodec.check`, names unique up to letter case) and returns where it ends.
    func checkAttachments(at start: Int) throws -> Int {
        guard start < rows.count else { throw FormatError.truncated }
        let count = Int(rows[start])
        guard count >= 1 else { throw FormatError.invalidField("attachment count") }
        var at = start + 1
        var names = Set<String>()
        for _ in 0..<count {
            guard rows.count - at >= Self.attachmentFixedLength else { throw FormatError.truncated }
            let length = uint64(at: at + 16)
            let generation = uint32(at: at + 24 + AttachmentCodec.hashLength)
            at += Self.attachmentFixedLength
            var nameAt = at
            at = try checkString(at: at)
            let name = string(at: &nameAt)
            try AttachmentCodec.check(length: length, generation: generation, name: name)
            guard names.insert(AttachmentName.key(name)).inserted else {
                throw FormatError.invalidField("attachment names")
            }
        }
        return at
    }

    /// The attachment list at `i` (checked by `decode`), moving `i` past it.
    func attachments(at i: inout Int) -> [AttachmentSummary] {
        let count = Int(rows[i])
        i += 1
        var list: [AttachmentSummary] = []
        list.reserveCapacity(count)
        for _ in 0..<count {
            let hashStart = i + 24
            let objectID = uuid(at: i)
            let length = uint64(at: i + 16)
            let dedupHash = Array(rows[hashStart..<hashStart + AttachmentCodec.hashLength])
            let generation = uint32(at: hashStart + AttachmentCodec.hashLength)
            i += Self.attachmentFixedLength
            list.append(
                AttachmentSummary(
                    objectID: objectID, length: length, dedupHash: dedupHash, generation: generation,
                    name: string(at: &i)))
        }
        return list
    }

    static func writeAttachments(_ list: [AttachmentSummary], to w: inout ByteWriter) {
        precondition((1...AttachmentLimits.maximumPerEntry).contains(list.count), "attachment count")
        w.u8(UInt8(list.count))
        for a in list {
            precondition(a.dedupHash.count == AttachmentCodec.hashLength, "dedup hash length")
            w.uuid(a.objectID)
            w.u64(a.length)
            w.append(a.dedupHash)
            w.u32(a.generation)
            w.string16(a.name)
        }
    }
}
