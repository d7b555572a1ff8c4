import DiaryCrypto
import DiaryStore
import Foundation

/// What `resealAttachments` did.
public struct AttachmentResealOutcome: Sendable, Equatable {
    /// Objects sealed again under a fresh key and a new id.
    public var resealed: Int
    /// Attachments left as they were because their object is missing or damaged (`verify`
    /// says more), by entry and name.
    public var failed: [Damage]
}

extension Vault {
    /// The attachment objects sealed under an older key generation than the current one, with
    /// the entries that reference each (from the index, which must be sound).
    public func attachmentsBelowCurrentGeneration() throws -> [UUID: [UUID]] {
        try storeCall { try sealedIndex.ensureAllPages() }
        guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
        return Self.objectsBelow(keyRing.current.generation, in: sealedIndex.index)
    }

    /// Seals every attachment object whose records carry an older generation than the current
    /// key's again (`rekey --attachments`, after the key was rotated): each is read and checked
    /// whole, sealed under a fresh key as a new object with the current generation's dedup
    /// hash (none when it was attached with dedup off), and then one atomic change points
    /// every entry that references it at the new object and deletes the old one. Memory holds
    /// a chunk, never an object.
    ///
    /// Resumable: an interruption leaves each object either done or not (at worst a new object
    /// no entry references yet, which `verify` notes and `reindex` removes); a second call
    /// goes on with those still below the current generation. `afterEach` runs after each
    /// object (tests interrupt there).
    public func resealAttachments(
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil, afterEach: (() throws -> Void)? = nil
    ) throws -> AttachmentResealOutcome {
        guard !rotationInterrupted else { throw VaultError.rotationInterrupted }
        let pending = try attachmentsBelowCurrentGeneration().keys.sorted { $0.sortKey < $1.sortKey }
        var outcome = AttachmentResealOutcome(resealed: 0, failed: [])
        progress?(0, pending.count)
        for (done, object) in pending.enumerated() {
            if let failed = try resealObject(object) {
                outcome.failed += failed
            } else {
                outcome.resealed += 1
            }
            progress?(done + 1, pending.count)
            try afterEach?()
        }
        return outcome
    }

    /// Seals one object again, all under the write lock (no other writer can change its
    /// entries or remove it meanwhile). Nil when done; the damage when it could not be read.
    private func resealObject(_ object: UUID) throws -> [Damage]? {
        try storeCall {
            try backend.withWriteLock {
                try refreshHeaderUnderLock()
                try sealedIndex.refreshUnderLock()
                guard sealedIndex.state == .ok else { throw VaultError.indexNeedsRepair }
                try sealedIndex.ensureAllPages()
                let target = keyRing.current
                guard let ids = Self.objectsBelow(target.generation, in: sealedIndex.index)[object] else { return nil }
                var entries: [Entry] = []
                for entry in ids {
                    // An entry that does not open cannot be pointed at a new object: the old one stays.
                    guard let opened = try? storedObject(entry) else {
                        return [
                            Damage(
                                object: .entry(entry),
                                reason: "cannot be opened; its attachments were left as they were")
                        ]
                    }
                    entries.append(opened)
                }
                guard let old = entries.lazy.flatMap({ $0.attachments }).first(where: { $0.objectID == object })
                else { return nil }
                let fresh: AttachmentRecord
                do {
                    fresh = try copySealed(old, keys: target)
                } catch let error where Self.isObjectFailure(error) {
                    let refs = zip(ids, entries).flatMap { $1.references(to: object, id: $0) }
                    return AttachmentCheck(objectID: object, vaultID: id, references: refs, storedLength: nil)
                        .fail(AttachmentCheck.reason(error))
                }
                do {
                    try repoint(entries, from: object, to: fresh)
                } catch {
                    try? backend.apply(StoreChange(deleteAttachments: [fresh.objectID]))
                    throw error
                }
                return nil
            }
        }
    }

    /// Reads `old`'s object, checking every chunk, and seals its plaintext as it comes into a
    /// new object; returns the new object's record (name, type and time added kept). Nothing
    /// of the new object remains unless the old one authenticated whole.
    private func copySealed(_ old: AttachmentRecord, keys: GenerationKeys) throws -> AttachmentRecord {
        guard let stored = try backend.attachmentLength(old.objectID) else {
            throw VaultError.attachmentMissing(old.objectID)
        }
        let opener = try AttachmentOpener(record: old, vaultID: id, storedLength: UInt64(stored))
        let objectID = SecureRandom.uuid()
        let key = try SecretStream.keygen()
        let sealer = try AttachmentSealer(
            vaultID: id, objectID: objectID, key: key, dedupKey: old.isDedupable ? keys.dedupKey : nil)
        var sealed: AttachmentSealer.Sealed?
        try backend.putAttachment(objectID) { chunk in
            let found = try backend.readAttachment(old.objectID) { bytes in
                try opener.feed(bytes) { try sealer.push($0, emit: chunk) }
            }
            guard found else { throw VaultError.attachmentMissing(old.objectID) }
            try opener.finish()
            sealed = try sealer.finish(emit: chunk)
        }
        guard let sealed, sealed.length == old.length else {
            throw AttachmentError.damaged(objectID: old.objectID, reason: .invalidRecord)
        }
        return AttachmentRecord(
            objectID: objectID, streamKey: key, length: sealed.length, storedHash: sealed.storedHash,
            generation: keys.generation, dedupHash: sealed.dedupHash, added: old.added, name: old.name,
            mediaType: old.mediaType)
    }

    /// One atomic change: every entry's records of `object` replaced by `fresh` (each keeping
    /// its own name, type and time added), and the old object deleted.
    private func repoint(_ entries: [Entry], from object: UUID, to fresh: AttachmentRecord) throws {
        try write(ids: entries.map(\.id), allPages: true) { index in
            var puts: [UUID: [UInt8]] = [:]
            for var entry in entries {
                entry.attachments = entry.attachments.map { record in
                    guard record.objectID == object else { return record }
                    return AttachmentRecord(
                        objectID: fresh.objectID, streamKey: fresh.streamKey, length: fresh.length,
                        storedHash: fresh.storedHash, generation: fresh.generation, dedupHash: fresh.dedupHash,
                        added: record.added, name: record.name, mediaType: record.mediaType)
                }
                let sealed = try sealEntry(entry)
                puts[entry.id] = sealed
                index[entry.id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            }
            // Part of a key rotation (`rekey --attachments`): each object's entries re-sealed
            // would otherwise empty their segments of the scan copy, one object at a time.
            var change = StoreChange(putEntries: puts, deleteAttachments: [object])
            change.reseals = true
            return (change, ())
        }
    }

    /// Whether `error` is the object's own fault (missing, damaged), not the machine's.
    private static func isObjectFailure(_ error: any Error) -> Bool {
        switch error {
        case is AttachmentError, VaultError.attachmentMissing, StoreError.corrupt: return true
        default: return false
        }
    }

    /// Objects some row records under a generation below `generation`, with their entries.
    static func objectsBelow(_ generation: UInt32, in index: PagedIndex) -> [UUID: [UUID]] {
        var found: [UUID: [UUID]] = [:]
        for row in index.allRows() {
            for summary in row.summary.attachments where summary.generation < generation {
                if found[summary.objectID]?.contains(row.summary.id) != true {
                    found[summary.objectID, default: []].append(row.summary.id)
                }
            }
        }
        return found
    }
}
