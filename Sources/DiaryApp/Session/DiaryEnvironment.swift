import Foundation

/// The environment variables diary's own rules depend on, read in one place.
///
/// The values come from a dictionary given at the start (the process's environment in the CLI,
/// a test's own elsewhere), so a test never changes the process's environment to move the vault
/// or the state directory, and no module below reads `HOME` or `XDG_*` behind the session's back.
public struct DiaryEnvironment: Sendable {
    public let variables: [String: String]

    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The vault directory: `option` (`--vault`), else `$DIARY_VAULT`, else
    /// `$XDG_DATA_HOME/diary`, else `~/.local/share/diary`.
    public func vaultDirectory(option: String? = nil) -> URL {
        if let path = option ?? value("DIARY_VAULT") { return userPath(path) }
        return defaultVaultDirectory
    }

    /// Where the vault is when neither `--vault` nor `$DIARY_VAULT` names one:
    /// `$XDG_DATA_HOME/diary`, else `~/.local/share/diary`.
    public var defaultVaultDirectory: URL {
        if let data = value("XDG_DATA_HOME"), data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("diary", isDirectory: true)
        }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".local/share/diary", isDirectory: true)
    }

    /// The config file: `$XDG_CONFIG_HOME/diary/config.toml`, else
    /// `~/.config/diary/config.toml` (a relative or empty `XDG_CONFIG_HOME` is ignored, as the
    /// XDG base directory rules say).
    public var configFile: URL {
        let base =
            value("XDG_CONFIG_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }.map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        return base.appendingPathComponent("diary/config.toml", isDirectory: false)
    }

    /// A directory path as a person typed it (`~/work`, `work`, `/srv/diary`): `~` against this
    /// environment's `HOME`, a relative path against the working directory.
    public func userPath(_ path: String) -> URL {
        URL(fileURLWithPath: expandingTilde(path), isDirectory: true).standardizedFileURL
    }

    /// `$XDG_STATE_HOME/diary`, else `$HOME/.local/state/diary` (the XDG base directory rules:
    /// a relative or empty `XDG_STATE_HOME` is ignored): this machine's records of each vault
    /// (witnesses, verified backups, sync state).
    public var stateDirectory: URL {
        if let state = value("XDG_STATE_HOME"), state.hasPrefix("/") {
            return URL(fileURLWithPath: state, isDirectory: true).appendingPathComponent("diary", isDirectory: true)
        }
        let absoluteHome = variables["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
        return URL(fileURLWithPath: absoluteHome, isDirectory: true)
            .appendingPathComponent(".local/state/diary", isDirectory: true)
    }

    /// The current passphrase's file: `option` (`--passphrase-file`), else `$DIARY_PASSPHRASE_FILE`.
    public func passphraseFile(option: String? = nil) -> String? { option ?? value("DIARY_PASSPHRASE_FILE") }

    /// The new passphrase's file: `option` (`--new-passphrase-file`), else `$DIARY_NEW_PASSPHRASE_FILE`.
    public func newPassphraseFile(option: String? = nil) -> String? { option ?? value("DIARY_NEW_PASSPHRASE_FILE") }

    /// `$XDG_RUNTIME_DIR` if set: where the editor's private files go when it is a memory file
    /// system (the agent's socket directory has rules of its own, in `AgentPaths`).
    public var runtimeDirectory: String? { value("XDG_RUNTIME_DIR") }

    /// `DIARY_INSECURE_TEST_KDF=1`: TEST ONLY (documented as such); exactly `1` turns it on.
    public var insecureTestKDF: Bool { variables["DIARY_INSECURE_TEST_KDF"] == "1" }

    private var home: String { value("HOME") ?? NSHomeDirectory() }

    private func value(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    /// `~` and `~/…` against this environment's `HOME` (`~user` as the system knows it).
    private func expandingTilde(_ path: String) -> String {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home + path.dropFirst() }
        return (path as NSString).expandingTildeInPath
    }
}
