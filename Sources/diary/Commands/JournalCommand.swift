import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary journal`: named vaults, chosen with `-j NAME` on any command.
struct JournalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "Name vaults, to choose one with -j NAME.",
        discussion: """
            A journal is a name for a vault directory, kept in the config file's [journals] \
            table. `-j NAME` (or --journal NAME), before or after any command, uses that vault. \
            Which vault a command uses: --vault or -j (not both), else $DIARY_VAULT, else the \
            default journal (`diary journal default`), else $XDG_DATA_HOME/diary.

            `diary init -j NAME` and `diary sync join -j NAME` register the vault they make.

            EXAMPLE
              diary journal add work ~/work-diary
              diary -j work new
              diary journal default work
            """,
        subcommands: [JournalAdd.self, JournalList.self, JournalRemove.self, JournalDefault.self])
}

/// `diary journal add NAME PATH`.
struct JournalAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Name a vault directory.",
        usage: "diary journal add <name> <path>",
        discussion: """
            Records PATH (made absolute) under NAME; the vault need not exist yet (`diary init \
            -j NAME` makes it there). A name is letters, digits, - and _, at most 64. A name \
            already registered is refused.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The journal's name.", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("The vault directory.", valueName: "path"), completion: .directory)
    var path: String

    func run() throws {
        let directory = Settings.environment.userPath(path)
        try ConfigFile(environment: Settings.environment).update { (config: inout DiaryConfig) throws(ConfigError) in
            try config.addJournal(name, path: directory.path)
        }
        let shown = Printable.escaped(directory.path)
        if (try? Vault.inspect(at: directory)) == nil {
            Output.note(
                "added the journal '\(name)' at \(shown); no vault is there yet: `diary init -j \(name)` makes one")
        } else {
            Output.note("added the journal '\(name)' at \(shown)")
        }
    }
}

/// `diary journal list`.
struct JournalList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the named journals.",
        usage: "diary journal list",
        discussion: """
            One line per journal on stdout: its name and its path, the default marked `*`.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    func run() throws {
        let config = Settings.current
        let width = config.journalNames.map(\.count).max() ?? 0
        for name in config.journalNames {
            let mark = name == config.defaultJournal ? "*" : " "
            let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
            Output.data("\(mark) \(padded)  \(Printable.escaped(config.journals[name]!))")
        }
    }
}

/// `diary journal remove NAME`.
struct JournalRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Forget a journal's name (its vault is kept).",
        usage: "diary journal remove <name>",
        discussion: """
            Removes NAME from the config file; the vault directory is not touched. When NAME was \
            the default journal, there is no default afterwards.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The journal's name.", valueName: "name"))
    var name: String

    func run() throws {
        let path = Settings.current.journals[name]
        try Self.forget(name) {
            Output.note("forgot the journal '\(name)'; its vault at \(Printable.escaped(path ?? "?")) is kept")
        }
    }

    /// Removes `name` from the config file, then says `done` and, when it was the default
    /// journal, that there is no default now (also for `diary config unset journals.NAME`).
    static func forget(_ name: String, done: () -> Void = {}) throws {
        var wasDefault = false
        try ConfigFile(environment: Settings.environment).update { (config: inout DiaryConfig) throws(ConfigError) in
            wasDefault = try config.removeJournal(name)
        }
        done()
        if wasDefault { Output.note("it was the default journal: there is no default now") }
    }
}

/// `diary journal default NAME`.
struct JournalDefault: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default",
        abstract: "Make a journal the default.",
        usage: "diary journal default <name>",
        discussion: """
            Commands without --vault or -j then use it, unless $DIARY_VAULT is set. \
            `diary config unset journal` removes the default.
            """)

    // Accepted, as on every command (main.swift moves `diary -j X config …` here), but
    // meaningless to the settings: not shown in the help.
    @OptionGroup(visibility: .hidden) var global: GlobalOptions

    @Argument(help: ArgumentHelp("The journal's name.", valueName: "name"))
    var name: String

    func run() throws {
        try ConfigFile(environment: Settings.environment).update { (config: inout DiaryConfig) throws(ConfigError) in
            try config.setDefaultJournal(name)
        }
        Output.note("'\(name)' is the default journal")
    }
}
