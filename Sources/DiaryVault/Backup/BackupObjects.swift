import Foundation

/// The attachment objects of a backup (records of type 6), as its reader finds them: where
/// each piece lies in the file, never the bytes.
///
/// Strict (docs/FORMAT.md §10): an object starts with its piece 0 (the 26-byte prefix of
/// version 1, kind 4), its pieces follow one record after the other, numbered 1, 2, … with no
/// gap and no other record between them, every piece but the last a whole stored chunk, and the
/// whole the exact length of some attachment's object. An object that breaks a rule is damaged
/// as a whole: it is kept in `damaged` with the reason, so the entries referencing it lose that
/// attachment only.
package struct BackupObjects {
    /// One piece: where its bytes lie in the file.
    package struct Piece {
        let offset: Int
        let length: Int
    }

    /// The objects whose pieces make up a whole object, by id.
    package private(set) var objects: [UUID: [Piece]] = [:]
    /// Objects that break a rule, by id, with the reason.
    package private(set) var damaged: [UUID: String] = [:]
    private var current: (id: UUID, pieces: [Piece])?

    /// Takes piece `number` of object `id`, whose bytes (`length` of them) start at `offset`;
    /// `prefix` holds the first two bytes of piece 0.
    mutating func take(id: UUID, number: UInt32, offset: Int, length: Int, prefix: [UInt8]) {
        let piece = Piece(offset: offset, length: length)
        if number == 0 {
            close()
            if objects[id] != nil || damaged[id] != nil {
                fail(id, "appears twice")
            } else if length != AttachmentObject.prefixLength
                || prefix != [AttachmentObject.version, AttachmentObject.kind]
            {
                fail(id, "its first piece is not an attachment object's prefix")
            } else {
                current = (id, [piece])
            }
            return
        }
        guard let open = current, open.id == id, open.pieces.count == Int(number) else {
            if current?.id == id { current = nil }
            fail(id, "piece \(number) out of order or without the pieces before it")
            return
        }
        guard open.pieces.count == 1 || open.pieces.last!.length == AttachmentObject.storedChunkLength else {
            current = nil
            return fail(id, "piece \(number - 1) is shorter than a chunk but not the last")
        }
        current?.pieces.append(piece)
    }

    /// Ends the object being read (another record follows, or the file ends).
    mutating func close() {
        guard let open = current else { return }
        current = nil
        let total = open.pieces.reduce(0) { $0 + $1.length }
        guard AttachmentObject.isValidStoredLength(UInt64(total)) else {
            return fail(open.id, "its pieces make \(total) bytes, no attachment's length")
        }
        objects[open.id] = open.pieces
    }

    private mutating func fail(_ id: UUID, _ reason: String) {
        objects[id] = nil
        if damaged[id] == nil { damaged[id] = reason }
    }

    /// The stored length of object `id`.
    package func length(of id: UUID) -> UInt64? {
        objects[id].map { UInt64($0.reduce(0) { $0 + $1.length }) }
    }
}
