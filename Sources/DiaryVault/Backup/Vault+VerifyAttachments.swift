import DiaryCrypto
import DiaryStore
import Foundation

/// What checking the attachment objects of a vault or a backup found.
struct AttachmentFindings {
    var checked = 0
    /// The attachments (entry and name) of the `checked` objects: several may share one.
    var attachments = 0
    var damage: [Damage] = []
    var unreferenced: [UUID] = []
    /// Attachments whose object is not there at all (not damaged: absent), one per reference.
    var absent: [Damage] = []
}

extension Vault {
    /// Checks every object the entries reference, streamed (each once, however many entries
    /// share it): a failure names entry and attachment; a referenced object the store lacks is
    /// `absent` (pending on a vault that syncs, lost otherwise: the caller knows which). `references` maps each object to the entries that reference it; each entry is
    /// read and opened again for its records (the keys), one at a time.
    static func verifyAttachments(
        in reader: any StoreReader, references: [UUID: [UUID]], vaultID: UUID, keyRing: KeyRing
    ) throws -> AttachmentFindings {
        var found = AttachmentFindings()
        let stored = Set(try reader.attachmentIDs())
        found.unreferenced = stored.filter { references[$0] == nil }.sorted { $0.sortKey < $1.sortKey }
        for (object, entries) in references.sorted(by: { $0.key.sortKey < $1.key.sortKey }) {
            var refs: [AttachmentCheck.Reference] = []
            for id in entries {
                // An entry that does not open was reported by the entry scan already.
                guard let sealed = try reader.readEntry(id),
                    let entry = try? SealedEntry.open(sealed, id: id, vaultID: vaultID, keyRing: keyRing)
                else { continue }
                refs += entry.references(to: object, id: id)
            }
            guard !refs.isEmpty else { continue }
            guard stored.contains(object) else {
                found.absent += AttachmentCheck(objectID: object, vaultID: vaultID, references: refs, storedLength: nil)
                    .fail("its object is not in the vault (not fetched by sync yet, or lost)")
                continue
            }
            found.checked += 1
            found.attachments += refs.count
            found.damage += checkStoredObject(object, refs: refs, in: reader, vaultID: vaultID)
        }
        return found
    }

    /// One stored object read through an `AttachmentCheck`; a store that cannot read it
    /// (a link, a file of a size no object has) fails every reference.
    private static func checkStoredObject(
        _ object: UUID, refs: [AttachmentCheck.Reference], in reader: any StoreReader, vaultID: UUID
    ) -> [Damage] {
        do {
            let length = try reader.attachmentLength(object)
            let check = AttachmentCheck(
                objectID: object, vaultID: vaultID, references: refs, storedLength: length.map(UInt64.init))
            guard check.isAlive else { return check.finish() }
            let present = try reader.readAttachment(object) { check.feed($0) }
            guard present else {
                return check.fail("its object is missing from the vault (not fetched by sync yet, or lost)")
            }
            return check.finish()
        } catch {
            let check = AttachmentCheck(objectID: object, vaultID: vaultID, references: refs, storedLength: nil)
            return check.fail("its object cannot be read: \(error)")
        }
    }
}
