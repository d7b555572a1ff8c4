import Foundation

/// Which vault a command uses, and what named it.
///
/// The order: `--vault PATH` or `-j NAME` (both at once is a usage error), then
/// `$DIARY_VAULT`, then the config's default journal (`journal`), then the default place
/// (`$XDG_DATA_HOME/diary`, else `~/.local/share/diary`). `-j` is a choice made for this one
/// command, so it wins over the shell's `$DIARY_VAULT`, as `--vault` does.
public struct VaultChoice: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        case vaultOption
        case journalOption(String)
        case environment
        case defaultJournal(String)
        case defaultPlace
    }

    public let directory: URL
    public let source: Source

    /// The journal's name when a name chose the vault.
    public var journal: String? {
        switch source {
        case .journalOption(let name), .defaultJournal(let name): name
        default: nil
        }
    }

    public static func resolve(
        vaultOption: String?, journalOption: String?, environment: DiaryEnvironment, config: DiaryConfig
    ) throws(ConfigError) -> VaultChoice {
        if vaultOption != nil && journalOption != nil { throw .vaultAndJournal }
        if let vaultOption {
            return VaultChoice(directory: environment.vaultDirectory(option: vaultOption), source: .vaultOption)
        }
        if let name = journalOption {
            return VaultChoice(directory: try journal(name, environment, config), source: .journalOption(name))
        }
        if let path = environment.variables["DIARY_VAULT"], !path.isEmpty {
            return VaultChoice(directory: environment.userPath(path), source: .environment)
        }
        if let name = config.defaultJournal {
            return VaultChoice(directory: try journal(name, environment, config), source: .defaultJournal(name))
        }
        return VaultChoice(directory: environment.defaultVaultDirectory, source: .defaultPlace)
    }

    /// Where `init` or `sync join` makes a new vault, and the name to register it under once
    /// made (nil when nothing is to be registered).
    ///
    /// `path` is the place the command was given (`--vault`, or `sync join --to`). With
    /// `-j NAME`: a registered name is its path (another `path` is refused: the name is taken);
    /// a new name registers `path`, else `$XDG_DATA_HOME/diary-NAME` beside the default vault.
    /// Without `-j`, the usual order of `resolve`.
    public static func forNewVault(
        path: String?, journalOption: String?, environment: DiaryEnvironment, config: DiaryConfig
    ) throws(ConfigError) -> (directory: URL, register: String?) {
        guard let name = journalOption else {
            let choice = try resolve(vaultOption: path, journalOption: nil, environment: environment, config: config)
            return (choice.directory, nil)
        }
        guard JournalName.isValid(name) else { throw .badJournalName(name) }
        if let registered = config.journals[name] {
            let directory = environment.userPath(registered)
            if let path, environment.userPath(path) != directory {
                throw .journalExists(name: name, path: registered)
            }
            return (directory, nil)
        }
        if let path { return (environment.userPath(path), name) }
        let beside = environment.defaultVaultDirectory.deletingLastPathComponent()
        return (beside.appendingPathComponent("diary-" + name, isDirectory: true), name)
    }

    private static func journal(
        _ name: String, _ environment: DiaryEnvironment, _ config: DiaryConfig
    ) throws(ConfigError) -> URL {
        guard let path = config.journals[name] else {
            throw .unknownJournal(name: name, known: config.journalNames)
        }
        return environment.userPath(path)
    }
}

/// Whether output is coloured: the `color` setting, the terminal and the environment.
public enum ColorChoice {
    /// `never`: no. `always`: yes, also into a pipe and whatever `NO_COLOR` or `TERM` say,
    /// because no-color.org lets a user's own configuration override `NO_COLOR`. `auto`: only on
    /// a terminal, with `NO_COLOR` unset or empty and `TERM` not `dumb`.
    public static func enabled(_ setting: ColorSetting, isTerminal: Bool, environment: [String: String]) -> Bool {
        switch setting {
        case .never: false
        case .always: true
        case .auto: isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}

/// The editor command, in git's order: `$DIARY_EDITOR` (for this command or shell, as
/// `$GIT_EDITOR`), then the config's `editor` (as `core.editor`: the editor chosen for diary),
/// then `$VISUAL`, then `$EDITOR` (every program's), then `vi`.
public enum EditorChoice {
    public static func command(environment: [String: String], config: DiaryConfig) -> String {
        func set(_ value: String?) -> String? {
            guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        return set(environment["DIARY_EDITOR"]) ?? set(config.editor) ?? set(environment["VISUAL"])
            ?? set(environment["EDITOR"]) ?? "vi"
    }
}
