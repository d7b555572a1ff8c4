import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A restored vault while it is being written: in a temporary directory (`.tmp-restore-…`)
/// beside its final place, renamed onto it only when complete, so that a restore refused
/// late, interrupted or out of disk space never leaves a vault with part of the backup in
/// the place the user named. (A crash can leave the temporary directory; it holds only
/// sealed objects.)
final class RestoreStaging {
    let opened: Vault.OpenedBackup
    let header: VaultHeader
    let temporary: URL
    let target: URL
    private var backend: (any VaultStore)?

    init(_ opened: Vault.OpenedBackup, initial: StoreChange, store: StoreKind?, next target: URL) throws {
        var header = opened.header
        if let store, store != header.store {
            // The store kind is authenticated in the header, so the slots are sealed anew: only
            // with the key the passphrase gives.
            guard let kek = opened.kek else { throw VaultError.wrongKey }
            header.store = store
            try header.setSlots(opened.ring.all, kek: kek)
        }
        self.opened = opened
        self.header = header
        self.target = target
        let parent = target.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        temporary = parent.appendingPathComponent(".tmp-restore-\(UUID().uuidString.lowercased())")
        var change = initial
        change.header = header.encoded()
        backend = try storeCall { try StoreLayout.create(header.store, at: temporary, initial: change) }
    }

    func write(_ entries: [UUID: [UInt8]]) throws {
        guard !entries.isEmpty, let backend else { return }
        try storeCall { try backend.withWriteLock { try backend.apply(StoreChange(putEntries: entries)) } }
    }

    /// Stores an attachment object (see `VaultStore.putAttachment`).
    func putAttachment(_ id: UUID, _ write: (_ chunk: ([UInt8]) throws -> Void) throws -> Void) throws {
        guard let backend else { return }
        try storeCall { try backend.putAttachment(id, write) }
    }

    /// Rebuilds the index if asked, closes the store, renames the directory into place and
    /// opens the vault there.
    func finish(rebuildIndex: Bool) throws -> Vault {
        if rebuildIndex, let backend {
            try Vault(backend: backend, header: header, keyRing: opened.ring).reindex()
        }
        backend = nil  // closes the database before its directory moves
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            if code == ENOTEMPTY || code == EEXIST { throw VaultError.notAVault(path: target.path) }
            throw VaultError.io(path: target.path, detail: String(cString: strerror(code)))
        }
        do { try DurableFile.syncDirectory(target.deletingLastPathComponent()) } catch {
            throw VaultError.io(path: target.path, detail: "\(error)")
        }
        let store = try storeCall { try StoreLayout.open(at: target) }
        return try Vault(backend: store, header: header, keyRing: opened.ring)
    }

    func discard() {
        backend = nil
        try? FileManager.default.removeItem(at: temporary)
    }
}
