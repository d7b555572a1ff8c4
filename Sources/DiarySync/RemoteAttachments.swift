import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Attachment objects through a sync remote (docs/FORMAT.md §12.1): each one a file of its own,
/// `attachments/<machine>/<object id>`, the stored object exactly as a local store holds it.
///
/// No signature is needed on these files: the record that references an object (signed and
/// sealed) carries its length and the hash of its stored bytes, and a copy is taken only when
/// it has exactly that length and hash. Objects stream from file to store (memory holds a
/// piece of at most 1 MiB and one chunk); no link is followed (`RemoteTree`).
struct RemoteAttachments {
    let tree: RemoteTree
    let vault: Vault
    /// This machine: it writes only in its own folder.
    let me: UUID
    /// A synced folder delivers files in pieces: a copy shorter than its object is still
    /// arriving there, not damage (in git, files arrive whole).
    let inFolder: Bool

    /// Every object file on the remote by object id, with its paths (one per machine folder
    /// that holds it). Names of other forms and `.tmp-*` files are not objects.
    func copies() -> [UUID: [String]] {
        var found: [UUID: [String]] = [:]
        for folder in tree.list(RemoteLayout.attachmentsDirectory) where RemoteLayout.machineID(fromHex: folder) != nil
        {
            let directory = "\(RemoteLayout.attachmentsDirectory)/\(folder)"
            for name in ((try? tree.listing(directory)) ?? RemoteTree.Listing()).files {
                if let id = RemoteLayout.objectID(fromName: name) {
                    found[id, default: []].append("\(directory)/\(name)")
                }
            }
        }
        return found
    }

    /// Removes what an upload of this machine cut short left in its own folder (nobody else
    /// writes there): in git it would be committed, in a synced folder copied to every machine.
    func removeOwnTemporaries() {
        let folder = RemoteLayout.attachmentFolder(machine: me)
        for name in tree.list(folder) where name.hasPrefix(DurableFile.tempPrefix) { tree.remove("\(folder)/\(name)") }
    }

    // MARK: Publishing

    /// Uploads the objects `records` name that the local store holds and no machine's folder
    /// holds at their stored length, into this machine's folder: streamed from the store,
    /// kept only when they hash to their record's stored hash. Returns how many were
    /// uploaded, and the objects whose copy here failed that (not uploaded). An object the
    /// local store lacks (pending here too) is left to the machine that has it.
    func upload(_ records: [AttachmentRecord]) throws -> (uploaded: Int, damagedHere: [UUID]) {
        var done = Set<UUID>()
        var uploaded = 0
        var damagedHere: [UUID] = []
        var onRemote: [UUID: [String]]?
        for record in records where done.insert(record.objectID).inserted {
            guard let expected = AttachmentObject.storedLength(for: record.length) else { continue }
            do {
                guard try vault.storedAttachmentLength(record.objectID) != nil else { continue }
            } catch VaultError.storeDamaged {
                damagedHere.append(record.objectID)
                continue
            }
            if onRemote == nil { onRemote = copies() }
            let path = RemoteLayout.attachmentPath(machine: me, object: record.objectID)
            let there = onRemote?[record.objectID] ?? []
            // A file of the remote is never rewritten: one already in this machine's folder stays.
            if there.contains(path) || there.contains(where: { tree.stamp($0)?.size == expected }) { continue }
            try tree.makeFolder(RemoteLayout.attachmentFolder(machine: me))
            if try uploadOne(record, expected: expected, to: path) {
                uploaded += 1
            } else {
                damagedHere.append(record.objectID)
            }
        }
        return (uploaded, damagedHere)
    }

    /// Streams the stored object of `record` to `path`; false, leaving nothing there, when the
    /// local copy is not `expected` bytes hashing to the record's stored hash.
    private func uploadOne(_ record: AttachmentRecord, expected: UInt64, to path: String) throws -> Bool {
        do {
            try tree.write(to: path) { put in
                let hasher = BLAKE2b.Hasher()
                var length: UInt64 = 0
                let found = try vault.readStoredAttachment(record.objectID) {
                    hasher.update($0)
                    length += UInt64($0.count)
                    try put($0)
                }
                guard found, length == expected, constantTimeEquals(hasher.finish(), record.storedHash) else {
                    throw NotTheRecordsObject()
                }
            }
            return true
        } catch is NotTheRecordsObject {
            return false
        } catch VaultError.storeDamaged {
            return false
        }
    }

    private struct NotTheRecordsObject: Error {}

    // MARK: Receiving

    /// Fetches the objects of `records` into the local store, from any machine's copy: a copy
    /// is taken only when its length is the one the record implies (checked before a byte is
    /// read) and its bytes hash to the record's stored hash (checked as they stream into the
    /// store, which keeps nothing otherwise). A copy that fails is refused and the next one
    /// tried; an object with no copy taken stays pending.
    func fetch(_ records: [AttachmentRecord]) throws -> AttachmentFetch {
        var result = AttachmentFetch()
        guard !records.isEmpty else { return result }
        let onRemote = copies()
        for record in records {
            guard let expected = AttachmentObject.storedLength(for: record.length) else { continue }
            var taken = false
            for path in onRemote[record.objectID] ?? [] where !taken {
                guard let size = tree.stamp(path)?.size else { continue }
                guard size == expected else {
                    if !(inFolder && size < expected) {
                        result.refused.append(
                            RefusedAttachment(
                                object: record.objectID, path: path,
                                reason: .wrongLength(expected: expected, actual: size)))
                    }
                    continue
                }
                do {
                    _ = try vault.storeFetchedAttachment(record) { take in
                        _ = try tree.stream(path, size: expected, take)
                    }
                    taken = true
                } catch AttachmentError.damaged(_, let reason) {
                    result.refused.append(RefusedAttachment(object: record.objectID, path: path, reason: reason))
                }
            }
            if taken { result.fetched.insert(record.objectID) } else { result.pending.insert(record.objectID) }
        }
        return result
    }
}
