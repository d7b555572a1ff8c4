import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Writes a consistent snapshot of the vault (header, index, index pages, every sealed
    /// entry) to a new single file. Ciphertext only: nothing is decrypted on the way. Refuses to overwrite.
    public func backup(to file: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws {
        var writer = try BackupFile.Writer(creating: file)
        do {
            try storeCall {
                try backend.withSnapshot { reader in
                    try writer.record(type: BackupFile.headerType, payload: reader.readHeader())
                    if let index = try reader.readIndex() {
                        try writer.record(type: BackupFile.indexType, payload: index)
                    }
                    for (page, sealed) in try reader.readIndexPages().sorted(by: { $0.key < $1.key }) {
                        try writer.record(type: BackupFile.indexPageType, payload: [UInt8(page)] + sealed)
                    }
                    let total = try reader.entryIDs().count
                    var done = 0
                    progress?(0, total)
                    try reader.forEachEntry { id, sealed in
                        try writer.record(type: BackupFile.entryType, payload: id.bytes + sealed)
                        done += 1
                        if done % 256 == 0 || done == total { progress?(done, total) }
                    }
                }
            }
            try writer.finish()
        } catch {
            // A half-written backup must not look like a backup.
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// Restores a backup into a new vault at `directory` (missing or empty), after checking
    /// every object in it. `store` defaults to the store the backup was taken from.
    public static func restore(
        backup file: URL, to directory: URL, passphrase: SecretBytes, store: StoreKind? = nil
    ) throws -> Vault {
        let contents = try BackupFile.read(file)
        var header = try decodeBackupHeader(contents.header, file: file)
        let kek = try header.deriveKEK(try Passphrase.normalized(passphrase))
        let ring: KeyRing
        do { ring = try header.unwrap(kek: kek) } catch { throw VaultError.wrongPassphrase }
        let report = Verifier(vaultID: header.vaultID, keyRing: ring).check(
            sealedIndex: contents.index, indexPages: contents.indexPages, entries: contents.entries)
        guard report.isClean else {
            throw VaultError.backupDamaged(path: file.path, detail: report.damaged.map(\.description).joined(separator: "; "))
        }
        if let store, store != header.store {
            // The store kind is authenticated in the header, so the slots are sealed anew.
            header.store = store
            try header.setSlots(ring.all, kek: kek)
        }
        let change = StoreChange(
            header: header.encoded(), index: contents.index,
            putEntries: Dictionary(uniqueKeysWithValues: contents.entries), putIndexPages: contents.indexPages)
        let backend = try storeCall { try StoreLayout.create(header.store, at: directory, initial: change) }
        return try Vault(backend: backend, header: header, keyRing: ring)
    }

    /// Authenticates every object in a backup file with `passphrase` and lists the damage.
    public static func verifyBackup(_ file: URL, passphrase: SecretBytes) throws -> VerifyReport {
        let contents: BackupFile.Contents
        do {
            contents = try BackupFile.read(file)
        } catch VaultError.backupDamaged(_, let detail) {
            return VerifyReport(checkedEntries: 0, damaged: [Damage(object: .backupFile, reason: detail)])
        }
        let header = try decodeBackupHeader(contents.header, file: file)
        let ring = try unwrap(header, passphrase: passphrase)
        return Verifier(vaultID: header.vaultID, keyRing: ring).check(
            sealedIndex: contents.index, indexPages: contents.indexPages, entries: contents.entries)
    }

    private static func decodeBackupHeader(_ bytes: [UInt8], file: URL) throws -> VaultHeader {
        let header: VaultHeader
        do {
            header = try VaultHeader.decode(bytes)
        } catch .unsupportedVersion(let v) {
            throw VaultError.unsupportedVersion(found: v, supported: Int(VaultHeader.currentVersion))
        } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "header: \(error)")
        }
        do { try header.kdf.validate() } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "header: \(error)")
        }
        return header
    }
}
