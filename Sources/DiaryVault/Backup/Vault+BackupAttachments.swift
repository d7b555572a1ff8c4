import DiaryStore
import Foundation

extension Vault {
    /// Writes every attachment object of the snapshot as records of type 6, piece by piece:
    /// the 26-byte prefix, then each stored chunk, in order. Streamed: one chunk in memory.
    ///
    /// Every object the store holds is written, unreferenced ones too: the backup is made
    /// without the key, so it cannot tell which ones the sealed entries reference (a restore,
    /// which has the key, leaves the unreferenced ones out). An object whose length fits no
    /// attachment, or whose prefix is not an attachment's, is copied as found and reported,
    /// as a damaged entry is.
    static func writeAttachments(
        from reader: any StoreReader, to writer: inout BackupFile.Writer, findings: inout [Damage]
    ) throws {
        for id in try reader.attachmentIDs().sorted(by: { $0.sortKey < $1.sortKey }) {
            let length: Int
            do {
                guard let found = try reader.attachmentLength(id) else { continue }
                length = found
            } catch {
                findings.append(Damage(object: .attachmentObject(id), reason: "cannot be read, not copied: \(error)"))
                continue
            }
            if !AttachmentObject.isValidStoredLength(UInt64(length)) {
                findings.append(
                    Damage(object: .attachmentObject(id), reason: "\(length) bytes: no attachment's length"))
            }
            var pieces = PieceSplitter(id: id, total: length)
            _ = try reader.readAttachment(id) { bytes in
                try pieces.take(bytes) { try writer.record(type: BackupFile.attachmentType, payload: $0) }
            }
            if pieces.prefixDamaged {
                findings.append(
                    Damage(object: .attachmentObject(id), reason: "not an attachment object (version or kind)"))
            }
        }
    }
}

/// Cuts an object's stored bytes, which the store hands out in pieces of its own size, into
/// the pieces of the backup format: the prefix, then each stored chunk.
private struct PieceSplitter {
    let id: UUID
    let total: Int
    private var buffer: [UInt8] = []
    private var piece: UInt32 = 0
    private var consumed = 0
    private(set) var prefixDamaged = false

    init(id: UUID, total: Int) {
        self.id = id
        self.total = total
        buffer.reserveCapacity(AttachmentObject.storedChunkLength)
    }

    /// The length of the piece being filled.
    private var wanted: Int {
        let unit = piece == 0 ? AttachmentObject.prefixLength : AttachmentObject.storedChunkLength
        return min(unit, total - consumed)
    }

    mutating func take(_ bytes: UnsafeRawBufferPointer, _ write: ([UInt8]) throws -> Void) throws {
        var at = 0
        while at < bytes.count {
            guard consumed < total else {
                throw VaultError.storeDamaged(path: id.uuidString.lowercased(), detail: "longer than its length")
            }
            let n = min(wanted - buffer.count, bytes.count - at)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + n)]))
            at += n
            guard buffer.count == wanted else { continue }
            if piece == 0 {
                prefixDamaged =
                    buffer.count < 2 || buffer[0] != AttachmentObject.version
                    || buffer[1] != AttachmentObject.kind
            }
            var payload = id.bytes
            payload.reserveCapacity(20 + buffer.count)
            withUnsafeBytes(of: piece.bigEndian) { payload.append(contentsOf: $0) }
            payload += buffer
            try write(payload)
            consumed += buffer.count
            piece += 1
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
