import ArgumentParser
import DiaryApp

/// The root command: an encrypted diary for the terminal.
struct Diary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "An encrypted diary for the terminal.",
        // Shorter than ArgumentParser's, which names every global option and passes 80 columns;
        // still says that the vault options may come before the command.
        usage: "diary [--vault <path>] [-j <name>] [<options>] <subcommand>",
        discussion: """
            Entries are sealed with XChaCha20-Poly1305 under a vault key that your passphrase \
            (through Argon2id) wraps. `diary unlock` starts an agent that holds the key for a \
            while, so later commands do not ask again; `diary lock` ends the session.

            Which key a command uses: the agent's, if one holds this vault's key; else the \
            passphrase file (--passphrase-file or $DIARY_PASSPHRASE_FILE); else a prompt on the \
            terminal. A passphrase is never taken from an argument or an environment value.

            ENVIRONMENT
              DIARY_VAULT                the vault directory (like --vault)
              DIARY_EDITOR               the editor, before the config's `editor`
              DIARY_OPENER               the viewer of `diary open` (default xdg-open)
              DIARY_PASSPHRASE_FILE      a file whose first line is the passphrase
              DIARY_NEW_PASSPHRASE_FILE  the same for a new passphrase (init, passwd)
              VISUAL, EDITOR             the editor (may carry arguments); default vi
              LC_ALL, LC_TIME, LANG      the locale of dates, in this order
              NO_COLOR                   set: never colour the output
              TERM                       dumb: never colour the output
              PAGER, LESS                long output on a terminal (default less, LESS=FRX)
              XDG_RUNTIME_DIR            the agent's socket and the editor's file (tmpfs)
              XDG_DATA_HOME              the default vault is $XDG_DATA_HOME/diary
              XDG_STATE_HOME             verified backups and seen indexes, under diary/
              XDG_CONFIG_HOME            the config file is diary/config.toml in it

            EXIT STATUS
            \(ExitCode.helpTable)

            EXAMPLE
              diary init && diary unlock
              diary new
              diary list --starred
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Unlock.self, Lock.self, Status.self,
            New.self, List.self, Show.self, Read.self, Pick.self, Edit.self, Delete.self, TemplateCommand.self,
            Star.self, Unstar.self, Tag.self, Search.self,
            Attach.self, Detach.self, Attachments.self, OpenCommand.self, Extract.self,
            CalendarCommand.self, Stats.self,
            Passwd.self, Rekey.self, Backup.self, Verify.self, Restore.self, Reindex.self,
            Import.self, Export.self, Audit.self, Recover.self,
            Sync.self, Conflicts.self, Resolve.self, Capture.self, CaptureKeyCommand.self,
            ConfigCommand.self, JournalCommand.self,
            AgentCommand.self,
        ])

    /// Declared on the root too, so `--help`, the man page and the completion scripts know
    /// they may come before the command; main.swift moves them after it (CommandLineArguments).
    @OptionGroup var global: GlobalOptions

    /// What `diary` alone prints (on stderr, exit 64): a few lines, not the whole `--help`.
    ///
    /// No command is a usage error, like git's bare `git` (which exits 1); 64 is this tool's
    /// documented usage status, and stdout stays empty because nothing was asked for.
    static let shortUsage = """
        usage: diary <command> [options]

          diary init                create a vault (asks for a new passphrase)
          diary unlock / lock       start or end a session
          diary new / edit [ID]     write an entry in $EDITOR (or pipe text to `diary new`)
          diary list / show [ID]    newest first / one entry (default: the newest)
          diary search TEXT         find entries
          diary backup              a ciphertext-only backup file

        See `diary --help` for every command, `diary help COMMAND` for one.
        """
}

extension Diary {
    /// Every word ArgumentParser takes as a command: names, aliases, and its own `help`.
    static var commandNames: Set<String> {
        var names: Set<String> = ["help"]
        for command in configuration.subcommands {
            names.insert(command._commandName)
            names.formUnion(command.configuration.aliases)
        }
        return names
    }

    /// The commands a mistyped one may be corrected to: those `--help` shows.
    static var suggestedCommandNames: [String] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName } + ["help"]
    }
}
