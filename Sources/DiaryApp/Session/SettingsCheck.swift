import DiaryCrypto
import DiaryVault
import Foundation

/// The cheap part of `diary audit`'s warnings, repeated by every command that opens the vault:
/// a weak key derivation cost and a vault directory or header file open to others. People run
/// `audit` rarely; a setting that weakens every guess or exposes the files should not wait for
/// it. Cost: the header already read, and two `lstat` calls.
public enum SettingsCheck {
    /// One event per finding. `kdfChanging`: the command is about to set a new cost
    /// (`passwd --kdf`), so the current one is not worth a warning. `testKDF`: the test-only
    /// cost is chosen on purpose and announced at `init`; repeating it on every command of a
    /// test suite would only bury the warnings the tests look for.
    public static func findings(
        _ info: VaultInfo, at directory: URL, kdfChanging: Bool = false, testKDF: Bool = false
    ) -> [AppEvent] {
        var result: [AppEvent] = []
        if info.kdf.isBelowDefault, !kdfChanging, !testKDF {
            result.append(.weakKeyDerivation(info.kdf))
        }
        // A vault path that is a symbolic link (every command follows it): the directory it
        // leads to is what others could open, not the link, whose own mode is always 0777.
        let place = directory.resolvingSymlinksInPath()
        for file in VaultExposure.mainFiles(at: place, store: info.store) where file.isTooOpen {
            result.append(.vaultFileTooOpen(file, vault: place))
        }
        return result
    }
}
