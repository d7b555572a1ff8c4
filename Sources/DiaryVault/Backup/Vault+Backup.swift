import DiaryCrypto
import DiaryStore
import Foundation

extension SealedVault {
    /// Writes a backup without any key (see `Vault.writeBackup`): a locked vault can be
    /// backed up, and the command never asks for a passphrase.
    /// `tracking` is told the temporary file being written (nil once it is gone), for a
    /// caller that removes it if the process is interrupted.
    @discardableResult
    public func backup(
        to file: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        tracking: @escaping (String?) -> Void = { _ in }
    ) throws -> [Damage] {
        try Vault.writeBackup(of: backend, to: file, progress: progress, tracking: tracking)
    }
}

extension Vault {
    /// Writes a backup of this vault; the key is not used (see `writeBackup`).
    @discardableResult
    public func backup(to file: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> [Damage] {
        try Self.writeBackup(of: backend, to: file, progress: progress)
    }

    /// Writes a consistent snapshot of the store (header, index, index pages, every sealed
    /// entry, every attachment object) to a new single file. Ciphertext only: nothing is opened on the way, so no key
    /// is needed. Refuses to overwrite.
    ///
    /// What is copied is checked for structure (the header decodes and its KDF cost is in
    /// bounds; every sealed object has the shape of its kind). A damaged header is refused:
    /// without it no backup can ever be opened. Any other damaged object is copied as it is,
    /// because the rest of the backup is still worth having, and returned, so the caller can
    /// say what the backup holds damaged (a later `restore --salvage` leaves it out).
    static func writeBackup(
        of backend: any VaultStore, to file: URL, progress: ((_ done: Int, _ total: Int) -> Void)?,
        tracking: @escaping (String?) -> Void = { _ in }
    ) throws -> [Damage] {
        var findings: [Damage] = []
        var writer = try BackupFile.Writer(creating: file, tracking: tracking)
        do {
            try storeCall {
                try backend.withSnapshot { reader in
                    let header = try reader.readHeader()
                    do {
                        try VaultHeader.decode(header).kdf.validate()
                    } catch {
                        throw VaultError.headerDamaged("\(error)")
                    }
                    try writer.record(type: BackupFile.headerType, payload: header)
                    if let index = try reader.readIndex() {
                        if let problem = shapeProblem(index, kind: .index) {
                            findings.append(Damage(object: .index, reason: problem))
                        }
                        try writer.record(type: BackupFile.indexType, payload: index)
                    }
                    for (page, sealed) in try reader.readIndexPages().sorted(by: { $0.key < $1.key }) {
                        if let problem = shapeProblem(sealed, kind: IndexDirectory.kind(ofStored: page)) {
                            findings.append(Damage(object: .index, reason: "page \(page): \(problem)"))
                        }
                        let (type, number) = BackupFile.pageRecord(page)
                        try writer.record(type: type, payload: number + sealed)
                    }
                    let total = try reader.entryIDs().count
                    var done = 0
                    progress?(0, total)
                    try reader.forEachEntry { id, sealed in
                        if let problem = shapeProblem(sealed, kind: .entry) {
                            findings.append(Damage(object: .entry(id), reason: problem))
                        }
                        try writer.record(type: BackupFile.entryType, payload: id.bytes + sealed)
                        done += 1
                        if done % 256 == 0 || done == total { progress?(done, total) }
                    }
                    try writeAttachments(from: reader, to: &writer, findings: &findings)
                }
            }
            try writer.finish()
        } catch {
            // A half-written backup must not look like a backup (and `file` is not ours).
            writer.discard()
            throw error
        }
        return findings
    }

    /// Why `sealed` does not have the shape of a sealed object of `kind`, or nil.
    private static func shapeProblem(_ sealed: [UInt8], kind: ObjectKind) -> String? {
        do {
            _ = try Envelope.peek(sealed, expecting: kind)
            return nil
        } catch {
            return "\(error)"
        }
    }
}
