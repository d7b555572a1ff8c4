import DiaryStore
import DiaryVault
import Foundation

/// Deletions made on purpose, told to sync before they happen.
///
/// Why: sync finds local changes by comparing the local vault with what it last saw there, and
/// a vault can go back in time without anyone deleting anything (an older backup restored in
/// place, `reindex --accept-older`, a file-sync tool putting back old files). An entry missing
/// for such a reason must be fetched back from the remote, not deleted on every machine: so
/// only an entry named here is published as a deletion (`LocalDiff`).
public enum SyncDeletions {
    /// Notes `ids` as deleted on purpose, then runs `delete`, both under the sync lock: a sync
    /// never runs between the two (it would find the entries still there and drop the note).
    /// Without sync for this vault on this machine, only runs `delete`.
    public static func deleting<T>(
        _ ids: [UUID], vault: Vault, stateDirectory: URL, _ delete: () throws -> T
    ) throws -> T {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard try setup.remote() != nil, !ids.isEmpty else { return try delete() }
        return try setup.lock.withLock(exclusive: true) {
            let store = StateStore(
                directory: setup.directory, vaultID: vault.id,
                key: try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id))
            try store.setDeletions(try store.deletions().union(ids))
            return try delete()
        }
    }

    /// Notes `ids` as deleted on purpose (a no-op when the vault does not sync here). The
    /// caller deletes them next; `deleting` also keeps a sync from running in between.
    public static func note(_ ids: [UUID], vault: Vault, stateDirectory: URL) throws {
        try deleting(ids, vault: vault, stateDirectory: stateDirectory) {}
    }
}

/// The deletion journal's plaintext: `version u8 | count u32 | count × id[16]`.
enum DeletionJournal {
    static let version: UInt8 = 1

    static func encode(_ ids: Set<UUID>) -> [UInt8] {
        var w = ByteWriter(capacity: 5 + ids.count * 16)
        w.u8(version)
        w.u32(UInt32(ids.count))
        for id in ids.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) { w.uuid(id) }
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> Set<UUID> {
        var r = ByteReader(bytes)
        guard try r.u8() == version else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        let ids = Set(try (0..<Int(try r.u32())).map { _ in try r.uuid() })
        try r.expectEnd()
        return ids
    }
}
