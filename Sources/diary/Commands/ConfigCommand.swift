import ArgumentParser
import DiaryApp
import Foundation

/// `diary config`: read and change the config file's settings.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read or change the settings in the config file.",
        discussion: """
            The config file is $XDG_CONFIG_HOME/diary/config.toml (else \
            ~/.config/diary/config.toml), in TOML. It holds no secret and no entry text. It is \
            read strictly: an unknown key or a bad value stops every command with an error \
            naming the line. Options and the environment win over it.

            KEYS
              journal          the default journal (a name from `diary journal list`)
              store            sqlite or files: the store `init` and `sync join` make
              editor           the editor (after $DIARY_EDITOR, before $VISUAL, $EDITOR)
              unlock.timeout   `diary unlock --timeout` without the option (e.g. 30m)
              unlock.max       `diary unlock --max` without the option (e.g. 4h)
              template         `diary new`'s template when it opens the editor on no text
              color            auto (default), always (even with NO_COLOR) or never
              date.format      list's and show's dates, a pattern: yyyy-MM-dd HH:mm
              journals.NAME    a named journal's vault directory (see `diary journal`)

            `set` and `unset` rewrite the whole file (atomically; a new file is mode 0600, and a \
            symbolic link is kept: the file it points to is rewritten); comments in it are not kept.

            EXAMPLE
              diary config set unlock.timeout 30m
              diary config get color
              diary config list
            """,
        subcommands: [ConfigGet.self, ConfigSet.self, ConfigUnset.self, ConfigList.self])

    /// What diary uses for a key that is not set, for `config get`'s hint.
    static func defaultDescription(_ key: ConfigKey) -> String {
        switch key {
        case .journal: "$DIARY_VAULT, else \(Settings.environment.defaultVaultDirectory.path)"
        case .store: "sqlite"
        case .editor: "$DIARY_EDITOR, else $VISUAL, else $EDITOR, else vi"
        case .unlockTimeout: Unlock.defaultTimeout.defaultValueDescription
        case .unlockMax: Unlock.defaultMax.defaultValueDescription
        case .template: "no template"
        case .color: "auto"
        case .dateFormat: "the locale's dates"
        }
    }
}

/// `diary config get KEY`: the value alone on stdout.
struct ConfigGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a setting's value.",
        usage: "diary config get <key>",
        discussion: """
            Prints the value alone on stdout. A key that is not set prints nothing on stdout and \
            exits 1, saying on stderr what diary uses instead (as `git config` exits 1). An \
            unknown key is a usage error (64).
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The setting (`diary config --help` lists them).", valueName: "key"))
    var key: String

    func run() throws {
        let name = try ConfigSettingName(key)
        if let value = Settings.current.value(of: name) {
            Output.data(Printable.escaped(value))
            return
        }
        Output.error("'\(name.text)' is not set")
        if case .key(let key) = name { Output.hint("unset, diary uses: \(ConfigCommand.defaultDescription(key))") }
        throw SilentExit(code: .failure)
    }
}

/// `diary config set KEY VALUE`.
struct ConfigSet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set a setting.",
        usage: "diary config set <key> <value>",
        discussion: """
            Checks the value as the file is checked when read (a duration for unlock.*, a known \
            word for store and color, a registered journal for journal, a pattern that prints \
            something for date.format), and refuses a bad one with status 64, writing nothing.

            EXAMPLE
              diary config set date.format "yyyy-MM-dd HH:mm"
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The setting.", valueName: "key"))
    var key: String

    @Argument(help: ArgumentHelp("Its new value.", valueName: "value"))
    var value: String

    func run() throws {
        let name = try ConfigSettingName(key)
        try ConfigFile(environment: Settings.environment).update { (config: inout DiaryConfig) throws(ConfigError) in
            try config.set(name, to: value)
        }
    }
}

/// `diary config unset KEY`.
struct ConfigUnset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unset",
        abstract: "Remove a setting, so its default applies.",
        usage: "diary config unset <key>",
        discussion: """
            A key that was not set is left so, and said on stderr (status 0). Unsetting \
            journals.NAME forgets that journal (as `diary journal remove`), never its vault.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The setting.", valueName: "key"))
    var key: String

    func run() throws {
        let name = try ConfigSettingName(key)
        guard Settings.current.value(of: name) != nil else {
            Output.note("'\(name.text)' was not set")
            return
        }
        guard case .journal(let journal) = name else {
            try ConfigFile(environment: Settings.environment).update {
                (config: inout DiaryConfig) throws(ConfigError) in
                _ = config.unset(name)
            }
            return
        }
        // As `diary journal remove`, which says when the default went with the journal.
        try JournalRemove.forget(journal)
    }
}

/// `diary config list`: every setting that is set.
struct ConfigList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Print every setting that is set, as `key = value` lines.",
        usage: "diary config list",
        discussion: """
            One line per setting on stdout, the value as it is in the file (not quoted); the \
            named journals last, as `journals.NAME = PATH`.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        for (name, value) in Settings.current.listing { Output.data("\(name) = \(Printable.escaped(value))") }
    }
}
