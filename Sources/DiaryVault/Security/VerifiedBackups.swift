import DiaryStore
import Foundation

/// Remembers, outside any vault, when a backup of each vault was last verified, so that
/// `diary audit` can warn when none was verified recently.
///
/// One small file per vault id in the per-user state directory, `verified-backup-<id>`, holding
/// `diary-verified-backup 1` and the time in milliseconds since 1970 on a second line. It holds
/// no secrets; the directory is 0700 and the file 0600 all the same, because vault ids link a
/// user to their vaults.
public struct VerifiedBackups: Sendable {
    static let prefix = "verified-backup-"
    static let firstLine = "diary-verified-backup 1"
    static let maximumFileSize = 256

    public let stateDirectory: URL

    /// The record under `stateDirectory`, the machine's diary state directory (the session's,
    /// shared with `IndexWitness`).
    public init(stateDirectory: URL) {
        self.stateDirectory = stateDirectory
    }

    func fileURL(_ vaultID: UUID) -> URL {
        stateDirectory.appendingPathComponent(Self.prefix + vaultID.uuidString.lowercased())
    }

    /// Records that a backup of `vaultID` was verified clean at `date` (atomic replace).
    public func record(vaultID: UUID, at date: Date = Date()) throws {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let parent = stateDirectory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw VaultError.io(path: parent.path, detail: "cannot create directory")
        }
        try storeCall {
            try DurableFile.makeDirectory(stateDirectory)
            try DurableFile.write(Array("\(Self.firstLine)\n\(millis)\n".utf8), to: fileURL(vaultID))
        }
    }

    /// When a backup of `vaultID` was last verified clean, or nil if never (or if the record
    /// is not one we wrote: it is then ignored, and the next `record` replaces it).
    public func lastVerified(vaultID: UUID) throws -> Date? {
        let bytes = try storeCall { try DurableFile.read(fileURL(vaultID), limit: Self.maximumFileSize) }
        guard let bytes, let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0] == Substring(Self.firstLine), lines[2].isEmpty,
            let millis = Int64(lines[1]), millis >= 0
        else { return nil }
        return Date(timeIntervalSince1970: Double(millis) / 1000)
    }

    /// The vault id a backup file belongs to, read from the header inside it (no key needed).
    public static func vaultID(ofBackup file: URL) throws -> UUID {
        // Only the header record is read: the file may be large, and it was just verified.
        guard let header = try BackupReader(file).headerRecord() else {
            throw VaultError.backupDamaged(path: file.path, detail: "no header record")
        }
        do {
            return try VaultHeader.decode(header).vaultID
        } catch {
            throw VaultError.backupDamaged(path: file.path, detail: "header: \(error)")
        }
    }
}
