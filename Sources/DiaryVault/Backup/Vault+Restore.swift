import DiaryCrypto
import DiaryStore
import Foundation

/// What `Vault.salvage` restored from a damaged backup, and what it could not.
public struct SalvageReport {
    public let vault: Vault
    /// Entries (by id, or by record position when the record no longer names one), index pages
    /// and other records that were not restored, each with the reason.
    public let lost: [Damage]
    /// The damage the backup holds, as `verifyBackup` reports it.
    public let damage: [Damage]
    /// Attachments (by entry and name) whose object an intact backup does not hold: the vault
    /// did not when it was backed up. Their entries are restored without them.
    public var absent: [Damage] = []
}

extension Vault {
    /// Authenticates every object in a backup file with `passphrase` and lists the damage:
    /// one finding per damaged record (by entry id when the record still names one, else by
    /// its byte offset), each sealed object checked on its own, and the end record's checksum
    /// as one more finding. Reads the file record by record, in bounded memory.
    public static func verifyBackup(_ file: URL, passphrase: SecretBytes) throws -> VerifyReport {
        try verifyBackup(file, key: .passphrase(passphrase))
    }

    /// `verifyBackup`, opened with `key`: a vault key that is not the one the backup was made
    /// under throws `wrongKey` before anything is reported.
    public static func verifyBackup(_ file: URL, key: BackupKey) throws -> VerifyReport {
        let reader = try BackupReader(file)
        try reader.scan()
        var damage = reader.findings.map(Self.damage(of:))
        guard let opened = try openBackupHeader(reader, key: key, damage: &damage) else {
            return VerifyReport(checkedEntries: 0, damaged: damage)
        }
        let verifier = Verifier(vaultID: opened.header.vaultID, keyRing: opened.ring)
        let expected = verifier.expectations(sealedIndex: reader.index, indexPages: reader.indexPages)
        damage += expected.damage
        var (templates, devices) = (0, 0)
        var references: [UUID: [UUID]] = [:]
        try forEachBackupEntry(reader, verifier: verifier, expected: expected) { record, _, judged in
            if let found = Verifier.damage(judged.verdict, id: record.id) { damage.append(located(found, record)) }
            if judged.isTemplate { templates += 1 }
            if judged.isCaptureDevice { devices += 1 }
            for object in judged.objects { references[object, default: []].append(record.id) }
        }
        damage += Verifier.missing(expected, present: Set(reader.entries.map(\.id)))
        let objects = try checkBackupAttachments(
            reader, references: references, vaultID: opened.header.vaultID, keyRing: opened.ring)
        // In a backup whose framing, record count and checksum are intact, an absent object is
        // one the vault did not hold; otherwise the damage may be what lost it.
        let intact = reader.findings.isEmpty
        var report = VerifyReport(
            checkedEntries: reader.entries.count, checkedTemplates: templates,
            damaged: damage + objects.damage + (intact ? [] : objects.absent),
            checkedAttachments: objects.checked, unreferencedAttachments: objects.unreferenced)
        if intact { report.absentAttachments = objects.absent }
        report.checkedAttachmentRecords = objects.attachments
        report.checkedCaptureDevices = devices
        return report
    }

    /// Restores a backup into a new vault at `directory` (missing or empty), after checking
    /// every object in it; any damage refuses the whole backup (see `salvage`). `store`
    /// defaults to the store the backup was taken from.
    public static func restore(
        backup file: URL, to directory: URL, passphrase: SecretBytes, store: StoreKind? = nil
    ) throws -> Vault {
        try restore(backup: file, to: directory, key: .passphrase(passphrase), store: store)
    }

    /// `restore`, opened with `key`. A vault key cannot seal the header anew for another store
    /// (that takes the passphrase): with `store` other than the backup's it throws `wrongKey`.
    public static func restore(
        backup file: URL, to directory: URL, key: BackupKey, store: StoreKind? = nil
    ) throws -> Vault {
        try restoreRecords(backup: file, to: directory, key: key, store: store, salvage: false).vault
    }

    /// `restore`, with what it found: `absent` names the attachments the backup does not hold.
    public static func restoreReporting(
        backup file: URL, to directory: URL, key: BackupKey, store: StoreKind? = nil
    ) throws -> SalvageReport {
        try restoreRecords(backup: file, to: directory, key: key, store: store, salvage: false)
    }

    /// Restores every authentic entry of a damaged backup into a new vault at `directory`.
    ///
    /// The header must be intact: without it nothing opens, and this throws. Each entry record
    /// is authenticated on its own; an entry that fails, that the backup's intact index shows
    /// to be another copy than the one it records (an older copy put back), or that the index
    /// records but no record holds, is left out and listed in `lost`. An authentic entry whose
    /// page of the index is damaged cannot be compared and is restored. The index is rebuilt
    /// from the restored entries, since the backup's own cannot be trusted to match them. No
    /// entry is ever restored with other plaintext than it was sealed with: every one kept
    /// opened under its own id. A clean backup is restored exactly as `restore` does.
    public static func salvage(
        backup file: URL, to directory: URL, passphrase: SecretBytes, store: StoreKind? = nil
    ) throws -> SalvageReport {
        try salvage(backup: file, to: directory, key: .passphrase(passphrase), store: store)
    }

    /// `salvage`, opened with `key` (see `restore(backup:to:key:store:)`).
    public static func salvage(
        backup file: URL, to directory: URL, key: BackupKey, store: StoreKind? = nil
    ) throws -> SalvageReport {
        try restoreRecords(backup: file, to: directory, key: key, store: store, salvage: true)
    }

    /// The sealed entries a restore writes at a time: memory stays bounded by this (plus one
    /// record), not by the size of the backup. The files store holds a batch twice (the
    /// entries and its journal of them): 8 MiB keeps a restore of 100,000 entries under 96 MiB.
    static let restoreBatchBytes = 8 << 20

    /// Both restores in one pass over the entry records. The vault is built in a temporary
    /// directory next to `directory` and renamed into place at the end, so that whatever
    /// happens (damage found late, a crash, a full disk) `directory` holds a complete vault
    /// or none.
    private static func restoreRecords(
        backup file: URL, to directory: URL, key: BackupKey, store: StoreKind?, salvage: Bool
    ) throws -> SalvageReport {
        try refuseOccupied(directory)
        let reader = try BackupReader(file)
        try reader.scan()
        var damage = reader.findings.map(Self.damage(of:))
        guard let opened = try openBackupHeader(reader, key: key, damage: &damage) else {
            throw VaultError.backupDamaged(
                path: file.path,
                detail: (salvage ? "the header record is damaged, so nothing can be salvaged: " : "")
                    + damage.map(\.description).joined(separator: "; "))
        }
        let verifier = Verifier(vaultID: opened.header.vaultID, keyRing: opened.ring)
        let expected = verifier.expectations(sealedIndex: reader.index, indexPages: reader.indexPages)
        damage += expected.damage
        if !salvage, !damage.isEmpty {
            throw VaultError.backupDamaged(path: file.path, detail: damage.map(\.description).joined(separator: "; "))
        }
        // The index is rebuilt at the end if anything turns out damaged; until then the
        // backup's own is written, as a clean restore keeps it.
        let initial =
            damage.isEmpty
            ? StoreChange(index: reader.index, putIndexPages: reader.indexPages) : StoreChange()
        let staging = try RestoreStaging(opened, initial: initial, store: store, next: directory)
        do {
            // Only the index is rebuilt, so only its damage and framing damage are "lost".
            var lost = damage.filter {
                switch $0.object {
                case .index, .backupRecord: return true
                default: return false
                }
            }
            let references = try copyEntries(
                reader, of: file, into: staging, verifier: verifier, expected: expected, salvage: salvage,
                damage: &damage, lost: &lost)
            // Into the staging directory, which becomes the vault only once complete: no vault
            // anyone opens has an entry before its objects.
            let objects = try checkBackupAttachments(
                reader, references: references, vaultID: opened.header.vaultID, keyRing: opened.ring, into: staging)
            let absent = try account(
                objects, intact: reader.findings.isEmpty, salvage: salvage, file: file, damage: &damage, lost: &lost)
            for missing in Verifier.missing(expected, present: Set(reader.entries.map(\.id))) {
                if !salvage { throw VaultError.backupDamaged(path: file.path, detail: missing.description) }
                lost.append(missing)
                damage.append(missing)
            }
            let vault = try staging.finish(rebuildIndex: !damage.isEmpty)
            var report = SalvageReport(
                vault: vault, lost: lost.sorted { $0.description < $1.description }, damage: damage)
            report.absent = absent
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Adds the attachments `objects` lost to `damage` and `lost` (or, without `salvage`,
    /// refuses); returns those absent from an `intact` backup: the vault did not hold them,
    /// which is no damage. The entry is restored as sealed; its record names an object it
    /// no longer has.
    private static func account(
        _ objects: AttachmentFindings, intact: Bool, salvage: Bool, file: URL, damage: inout [Damage],
        lost: inout [Damage]
    ) throws -> [Damage] {
        let failed = objects.damage + (intact ? [] : objects.absent)
        if !salvage, let first = failed.first {
            throw VaultError.backupDamaged(path: file.path, detail: first.description)
        }
        lost += failed
        damage += failed
        return intact ? objects.absent : []
    }

    /// Refuses a target that holds a vault or anything else, before any work: the vault is
    /// renamed onto it at the end, which only a missing or empty directory allows.
    private static func refuseOccupied(_ directory: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        if names.isEmpty { return }
        if (try? StoreLayout.detect(at: directory)) != nil { throw VaultError.alreadyExists(path: directory.path) }
        throw VaultError.notAVault(path: directory.path)
    }

    // MARK: - Shared steps

    /// A backup's header, decoded and opened.
    struct OpenedBackup {
        var header: VaultHeader
        let ring: KeyRing
        /// Nil when the backup was opened with its vault key: then the header cannot be sealed
        /// anew (another store kind needs the passphrase).
        let kek: SecretBytes?
    }

    /// Decodes and unwraps the backup's header. A header that is missing or damaged is added
    /// to `damage` and gives nil. A wrong passphrase throws, unless the file is damaged too:
    /// then the header may be what is damaged, and saying "wrong passphrase" could mislead.
    private static func openBackupHeader(
        _ reader: BackupReader, key: BackupKey, damage: inout [Damage]
    ) throws -> OpenedBackup? {
        guard let bytes = reader.header else { return nil }
        let header: VaultHeader
        do {
            header = try decodeBackupHeader(bytes, file: reader.url)
        } catch VaultError.backupDamaged(_, let detail) {
            damage.insert(Damage(object: .header, reason: detail), at: 0)
            return nil
        }
        let passphrase: SecretBytes
        switch key {
        case .vaultKey(let vaultKey, let generation):
            let ring = try ring(of: header, vaultKey: vaultKey, generation: generation, sealedIndex: reader.index)
            return OpenedBackup(header: header, ring: ring, kek: nil)
        case .passphrase(let given):
            passphrase = given
        }
        do {
            let kek = try header.deriveKEK(try Passphrase.normalized(passphrase))
            let ring: KeyRing
            do { ring = try header.unwrap(kek: kek) } catch CryptoError.authenticationFailed {
                throw VaultError.wrongPassphrase
            }
            return OpenedBackup(header: header, ring: ring, kek: kek)
        } catch VaultError.wrongPassphrase where !damage.isEmpty {
            damage.insert(
                Damage(object: .header, reason: "cannot be opened: a wrong passphrase, or a damaged header"), at: 0)
            return nil
        }
    }

    /// Reads each entry record back from the file and authenticates it on its own.
    private static func forEachBackupEntry(
        _ reader: BackupReader, verifier: Verifier, expected: Verifier.Expectations,
        _ body: (BackupReader.EntryRecord, [UInt8], Verifier.Judgement) throws -> Void
    ) throws {
        for record in reader.entries {
            let sealed = try reader.payload(of: record)
            try body(record, sealed, verifier.judge(id: record.id, sealed: sealed, expectations: expected))
        }
    }

    /// A finding of the backup reader, in the vocabulary of `verify`.
    /// Copies the backup's entry records into `staging` in batches of `restoreBatchBytes`,
    /// adding what is damaged or replayed to `damage` and `lost`; without `salvage` the first
    /// damaged record stops the restore. Returns the attachment objects the restored entries
    /// reference, by object.
    private static func copyEntries(
        _ reader: BackupReader, of file: URL, into staging: RestoreStaging, verifier: Verifier,
        expected: Verifier.Expectations, salvage: Bool, damage: inout [Damage], lost: inout [Damage]
    ) throws -> [UUID: [UUID]] {
        var batch: [UUID: [UInt8]] = [:]
        var batchBytes = 0
        var references: [UUID: [UUID]] = [:]
        for record in reader.entries {
            let sealed = try reader.payload(of: record)
            let judged = verifier.judge(id: record.id, sealed: sealed, expectations: expected)
            let verdict = judged.verdict
            if let found = Verifier.damage(verdict, id: record.id) {
                damage.append(located(found, record))
                if !salvage {
                    throw VaultError.backupDamaged(
                        path: file.path, detail: damage.map(\.description).joined(separator: "; "))
                }
            }
            switch verdict {
            case .intact, .notInIndex:
                batch[record.id] = sealed
                batchBytes += sealed.count
                for object in judged.objects { references[object, default: []].append(record.id) }
            case .replayed, .damaged:
                lost.append(located(Verifier.damage(verdict, id: record.id)!, record))
            }
            if batchBytes >= restoreBatchBytes {
                try staging.write(batch)
                batch = [:]
                batchBytes = 0
            }
        }
        try staging.write(batch)
        return references
    }

    private static func damage(of finding: BackupReader.Finding) -> Damage {
        if let id = finding.entry {
            return Damage(
                object: .entry(id), reason: (finding.offset.map { "record at byte \($0): " } ?? "") + finding.detail)
        }
        if let offset = finding.offset { return Damage(object: .backupRecord(offset: offset), reason: finding.detail) }
        return Damage(object: .backupFile, reason: finding.detail)
    }

    /// `damage` with the position of the entry's record, so a record whose id itself is
    /// damaged can still be found in the file.
    private static func located(_ damage: Damage, _ record: BackupReader.EntryRecord) -> Damage {
        Damage(
            object: damage.object, reason: "\(damage.reason) (record at byte \(record.offset))",
            reindexRepairs: damage.reindexRepairs)
    }

    private static func decodeBackupHeader(_ bytes: [UInt8], file: URL) throws -> VaultHeader {
        let header: VaultHeader
        do {
            header = try VaultHeader.decode(bytes)
        } catch .unsupportedVersion(let v) {
            throw VaultError.unsupportedVersion(found: v, supported: Int(VaultHeader.currentVersion))
        } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "\(error)")
        }
        do { try header.kdf.validate() } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "\(error)")
        }
        return header
    }
}

extension Damage.Object {
    /// The entry this damage names, if any.
    public var entryID: UUID? {
        if case .entry(let id) = self { return id }
        return nil
    }
}
