import DiaryApp
import Foundation

/// The config file's settings for this command, read once, and the vault they choose with the
/// global options (`VaultChoice` in DiaryApp holds the order).
enum Settings {
    /// The process's environment, read once.
    static let environment = DiaryEnvironment()

    /// The config file, as read on first use (a command that never asks never reads it).
    static let loaded: Result<DiaryConfig, ConfigError> = Result { () throws(ConfigError) in
        try ConfigFile(environment: environment).load()
    }

    /// The settings; a file that cannot be read ends the command with its error. Asked before
    /// anything is opened or written (when a command picks its vault), so stopping here leaves
    /// nothing half done.
    static var current: DiaryConfig {
        switch loaded {
        case .success(let config): return config
        case .failure(let error): fail(error)
        }
    }

    /// The settings for what only shapes output (colour, the date pattern): a broken file
    /// counts as none here, and is reported where a command reads its settings in earnest.
    static var forOutput: DiaryConfig { (try? loaded.get()) ?? DiaryConfig() }

    /// The vault the global options choose (`VaultChoice.resolve`); a refused choice (an
    /// unknown journal, `--vault` with `-j`) ends the command with its error.
    static func vault(_ options: GlobalOptions) -> VaultChoice {
        do {
            return try VaultChoice.resolve(
                vaultOption: options.vault, journalOption: options.journal, environment: environment, config: current)
        } catch {
            fail(error)
        }
    }

    /// Where `init` or `sync join` makes a new vault (`path`: `--vault` or `--to`), and the
    /// journal name to register it under once made (`VaultChoice.forNewVault`).
    static func newVault(_ options: GlobalOptions, path: String?) -> (directory: URL, register: String?) {
        do {
            return try VaultChoice.forNewVault(
                path: path, journalOption: options.journal, environment: environment, config: current)
        } catch {
            fail(error)
        }
    }

    /// Registers the new vault at `directory` as the journal `name`, and says so.
    static func register(_ name: String, at directory: URL) throws {
        try ConfigFile(environment: environment).update { (config: inout DiaryConfig) throws(ConfigError) in
            try config.addJournal(name, path: directory.standardizedFileURL.path)
        }
        Output.note("registered it as the journal '\(name)': use it with -j \(name)")
    }

    /// Reports `error` and exits; the sessions already started are finished first.
    static func fail(_ error: ConfigError) -> Never {
        CommandSessions.finishAfterFailure()
        ConfigWording.report(error).exit()
    }
}
