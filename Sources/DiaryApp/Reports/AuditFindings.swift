import DiaryCrypto
import DiaryVault
import Foundation

/// One warning of `diary audit`, as a value the CLI words.
public enum AuditFinding: Equatable, Sendable {
    /// The key derivation cost is below the default.
    case weakKeyDerivation(KDFParameters)
    /// A vault file or directory others may read; `path` is the full path.
    case tooOpen(path: String, mode: UInt32, isDirectory: Bool)
    /// A `diary-edit-…` directory left by a `diary edit` killed before its cleanup; it may hold
    /// an entry's plaintext (in memory, but readable until removed or reboot).
    case editorLeftover(path: String)
    /// More than one key generation: a key rotation did not finish.
    case interruptedRotation
    /// Some entry files carry real modification times.
    case informativeEntryTimes
    /// No backup of this vault was verified within `maxAgeDays`.
    case noRecentBackup(maxAgeDays: Int)

    /// The finding for a file of `exposure` that is too open, its path made whole.
    public static func tooOpen(_ file: VaultExposure.FileFacts, in directory: URL) -> AuditFinding {
        let path = file.path == "." ? directory.path : directory.appendingPathComponent(file.path).path
        return .tooOpen(path: path, mode: file.mode, isDirectory: file.isDirectory)
    }
}

/// The facts and warnings of `diary audit`, computed from a measured vault.
public struct AuditFindings: Sendable {
    /// A backup verified longer ago than this is not "recent".
    public static let backupMaxAgeDays = 30

    public let exposure: VaultExposure
    public let lastVerifiedBackup: Date?
    /// `diary-edit-…` directories left in the editor's memory directory.
    public let editorLeftovers: [String]
    public let now: Date

    public init(exposure: VaultExposure, lastVerifiedBackup: Date?, editorLeftovers: [String], now: Date) {
        self.exposure = exposure
        self.lastVerifiedBackup = lastVerifiedBackup
        self.editorLeftovers = editorLeftovers
        self.now = now
    }

    /// The warnings, in the order the report lists them.
    public var findings: [AuditFinding] {
        var result: [AuditFinding] = []
        let kdf = exposure.info.kdf
        if kdf.isBelowDefault { result.append(.weakKeyDerivation(kdf)) }
        for file in exposure.tooOpen { result.append(.tooOpen(file, in: exposure.directory)) }
        for path in editorLeftovers { result.append(.editorLeftover(path: path)) }
        if exposure.info.keyGenerations.count > 1 { result.append(.interruptedRotation) }
        if exposure.entryTimes == .informative { result.append(.informativeEntryTimes) }
        if !backupIsRecent { result.append(.noRecentBackup(maxAgeDays: Self.backupMaxAgeDays)) }
        return result
    }

    /// A backup was verified within `backupMaxAgeDays` of `now`.
    public var backupIsRecent: Bool {
        guard let lastVerifiedBackup else { return false }
        return now.timeIntervalSince(lastVerifiedBackup) <= Double(Self.backupMaxAgeDays) * 86_400
    }
}
