import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// The cheap part of `diary audit`'s warnings, repeated on stderr by every command that opens
/// the vault: a weak key derivation cost and a vault directory or header file open to others.
/// People run `audit` rarely; a setting that weakens every guess or exposes the files should
/// not wait for it. Cost: the header already read, and two `lstat` calls.
enum SettingsWarnings {
    /// Prints one `diary: warning: …` line per finding. `kdfChanging`: the command is about to
    /// set a new cost (`passwd --kdf`), so the current one is not worth a warning.
    static func report(_ info: VaultInfo, at directory: URL, kdfChanging: Bool = false) {
        for warning in warnings(info, at: directory, kdfChanging: kdfChanging) { Output.warning(warning) }
    }

    static func warnings(_ info: VaultInfo, at directory: URL, kdfChanging: Bool = false) -> [String] {
        var result: [String] = []
        // The test-only cost is chosen on purpose and announced at `init`; repeating it on every
        // command of a test suite would only bury the warnings the tests look for.
        if info.kdf.isBelowDefault, !kdfChanging, !KDFPreset.insecureTestSwitch {
            result.append(AuditFindings.kdfWarning(info.kdf))
        }
        for file in VaultExposure.mainFiles(at: directory, store: info.store) where file.isTooOpen {
            result.append(AuditFindings.modeWarning(file, in: directory))
        }
        return result
    }
}
