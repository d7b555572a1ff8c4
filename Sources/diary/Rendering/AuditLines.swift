import DiaryApp
import DiaryCrypto
import Foundation

/// `diary audit` for people (lines) and for programs (`audit --json`), from DiaryApp's
/// `AuditFindings`.
extension AuditFinding {
    /// The warning as `audit` and every command's settings check print it (after `warning:`).
    var text: String {
        switch self {
        case .weakKeyDerivation(let kdf):
            return
                "key derivation \(kdf) is below the default \(KDFParameters.moderate); run `diary passwd --kdf moderate`"
        case .tooOpen(let path, let mode, let isDirectory):
            let wanted = isDirectory ? "0700" : "0600"
            return
                "\(path) has mode \(AuditFindings.octal(mode)), wider than \(wanted); run `chmod \(wanted.dropFirst()) \(path)`"
        case .editorLeftover(let path):
            return
                "leftover editor directory \(path) may hold an entry's text; unless a `diary edit` is still running, `diary recover` stores it (or `--discard` wipes it)"
        case .interruptedRotation:
            return "a key rotation was interrupted; run `diary rekey` to finish it"
        case .informativeEntryTimes:
            return "some entry files carry real modification times; editing those entries hides them"
        case .noRecentBackup(let days):
            return
                "no backup of this vault was verified in the last \(days) days; run `diary backup FILE` then `diary verify FILE`"
        }
    }
}

extension AuditFindings {
    /// The editor directories that a `diary edit` killed before its cleanup left behind.
    static func editorLeftovers() -> [String] {
        guard let base = MemoryDirectory.base() else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return names.filter { $0.hasPrefix("diary-edit-") }.sorted().map { "\(base)/\($0)" }
    }

    static func kdfWarning(_ kdf: KDFParameters) -> String { AuditFinding.weakKeyDerivation(kdf).text }

    static func modeWarning(_ file: VaultExposure.FileFacts, in directory: URL) -> String {
        AuditFinding.tooOpen(file, in: directory).text
    }

    var warnings: [String] { findings.map(\.text) }

    /// The report as lines: facts first, then `warning:` lines.
    var lines: [String] {
        let info = exposure.info
        var lines = [
            "vault: \(exposure.directory.path)",
            "store: \(info.store.rawValue)",
            "readable without the passphrase:",
            "  vault id: \(info.id.uuidString.lowercased())",
            "  format version: \(info.formatVersion)",
            "  key derivation: \(info.kdf)",
            "  key generation: \(info.keyGenerations.map(String.init).joined(separator: ", "))",
            "  entries: \(exposure.entryCount)",
            "  entry sizes (sealed, padded): \(Self.sizesText(exposure.sizeHistogram))",
            "  attachments: \(exposure.attachmentCount)",
            "  attachment sizes (sealed, padded): \(Self.sizesText(exposure.attachmentHistogram))",
            "  entry times: \(timesText)",
            "  files: \(exposure.files.count) (\(exposure.tooOpen.isEmpty ? "modes ok" : "\(exposure.tooOpen.count) too open"))",
            "last verified backup: \(lastVerifiedBackup.map(DateOutput.iso) ?? "never")",
        ]
        let warnings = self.warnings
        lines += warnings.map { "warning: \($0)" }
        if warnings.isEmpty { lines.append("no warnings") }
        return lines
    }

    private static func sizesText(_ histogram: [(size: Int, count: Int)]) -> String {
        if histogram.isEmpty { return "none" }
        return histogram.map { "\($0.size) B × \($0.count)" }.joined(separator: ", ")
    }

    private var timesText: String {
        switch exposure.entryTimes {
        case .oneFile: return "one file for all entries: its times date only the vault's last write"
        case .hidden:
            return "hidden (entry files carry random times); inode change times on this disk still date writes"
        case .informative: return "informative (some entry files carry real modification times)"
        }
    }

    static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    var report: AuditReport {
        let info = exposure.info
        return AuditReport(
            vault: exposure.directory.path, store: info.store.rawValue, vaultID: info.id.uuidString.lowercased(),
            formatVersion: info.formatVersion,
            kdf: .init(opsLimit: info.kdf.opsLimit, memLimit: info.kdf.memLimit, belowDefault: info.kdf.isBelowDefault),
            keyGenerations: info.keyGenerations, entryCount: exposure.entryCount,
            entrySizes: exposure.sizeHistogram.map { .init(size: $0.size, count: $0.count) },
            attachmentCount: exposure.attachmentCount,
            attachmentSizes: exposure.attachmentHistogram.map { .init(size: $0.size, count: $0.count) },
            entryTimes: exposure.entryTimes.rawValue,
            files: exposure.files.map {
                .init(path: $0.path, mode: Self.octal($0.mode), size: $0.size, tooOpen: $0.isTooOpen)
            },
            lastVerifiedBackup: lastVerifiedBackup.map(DateOutput.iso), warnings: warnings)
    }
}

/// `diary audit --json`.
struct AuditReport: Encodable {
    struct KDF: Encodable {
        let opsLimit: UInt64
        let memLimit: UInt64
        let belowDefault: Bool
    }
    struct SizeCount: Encodable {
        let size: Int
        let count: Int
    }
    struct File: Encodable {
        let path: String
        let mode: String
        let size: Int
        let tooOpen: Bool
    }
    let vault: String
    let store: String
    let vaultID: String
    let formatVersion: Int
    let kdf: KDF
    let keyGenerations: [UInt32]
    let entryCount: Int
    let entrySizes: [SizeCount]
    let attachmentCount: Int
    let attachmentSizes: [SizeCount]
    let entryTimes: String
    let files: [File]
    let lastVerifiedBackup: String?
    let warnings: [String]
}
