import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Checks the attachment objects of a backup that the entries (`references`: object to
    /// entries) reference, each streamed piece by piece and authenticated against the records
    /// of its entries (read again from the file, one at a time); with `staging`, each object
    /// found intact is written there too, in the same pass (`putAttachment`: an object that
    /// fails is never stored). A damaged or missing object costs the attachments that reference
    /// it, named by entry and name; objects no entry references are left out (a note).
    static func checkBackupAttachments(
        _ reader: BackupReader, references: [UUID: [UUID]], vaultID: UUID, keyRing: KeyRing,
        into staging: RestoreStaging? = nil
    ) throws -> AttachmentFindings {
        var found = AttachmentFindings()
        let backupObjects = reader.attachments
        let present = Set(backupObjects.objects.keys).union(backupObjects.damaged.keys)
        found.unreferenced = present.filter { references[$0] == nil }.sorted { $0.sortKey < $1.sortKey }
        var records: [UUID: BackupReader.EntryRecord] = [:]
        for record in reader.entries where records[record.id] == nil { records[record.id] = record }
        for (object, entries) in references.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
            var refs: [AttachmentCheck.Reference] = []
            for id in entries {
                guard let record = records[id],
                    let entry = try? SealedEntry.open(
                        reader.payload(of: record), id: id, vaultID: vaultID, keyRing: keyRing)
                else { continue }
                refs += entry.references(to: object, id: id)
            }
            guard !refs.isEmpty else { continue }
            let check = AttachmentCheck(
                objectID: object, vaultID: vaultID, references: refs, storedLength: backupObjects.length(of: object))
            guard present.contains(object) else {
                found.absent += check.fail("its object is not in the backup")
                continue
            }
            found.checked += 1
            found.attachments += refs.count
            if let reason = backupObjects.damaged[object] {
                found.damage += check.fail("its object is damaged in the backup: \(reason)")
            } else if let pieces = backupObjects.objects[object] {
                found.damage += try copy(object, pieces, reader: reader, check: check, into: staging)
            }
        }
        return found
    }

    /// Streams one object's pieces through `check`, and into `staging` when there is one.
    private static func copy(
        _ object: UUID, _ pieces: [BackupObjects.Piece], reader: BackupReader, check: AttachmentCheck,
        into staging: RestoreStaging?
    ) throws -> [Damage] {
        guard check.isAlive else { return check.finish() }
        guard let staging else {
            for piece in pieces { check.feed(try reader.bytes(of: piece)) }
            return check.finish()
        }
        var damage: [Damage] = []
        do {
            try staging.putAttachment(object) { chunk in
                for piece in pieces {
                    let bytes = try reader.bytes(of: piece)
                    check.feed(bytes)
                    guard check.isAlive else { throw ObjectRefused() }
                    try chunk(bytes)
                }
                damage = check.finish()
                // Kept when some record finds it whole; the attachments it fails are reported.
                guard check.isAlive else { throw ObjectRefused() }
            }
        } catch is ObjectRefused {
            return damage.isEmpty ? check.finish() : damage
        }
        return damage
    }
}

/// Thrown inside `putAttachment` so that an object that failed its check is not stored.
private struct ObjectRefused: Error {}
