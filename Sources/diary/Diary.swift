import ArgumentParser

/// The root command: an encrypted diary for the terminal.
struct Diary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diary",
        abstract: "An encrypted diary for the terminal.",
        discussion: """
            Entries are sealed with XChaCha20-Poly1305 under a vault key that your passphrase \
            (through Argon2id) wraps. `diary unlock` starts an agent that holds the key for a \
            while, so later commands do not ask again; `diary lock` ends the session.

            Which key a command uses: the agent's, if one holds this vault's key; else the \
            passphrase file (--passphrase-file or $DIARY_PASSPHRASE_FILE); else a prompt on the \
            terminal. A passphrase is never taken from an argument or an environment value.

            ENVIRONMENT
              DIARY_VAULT                the vault directory (like --vault)
              DIARY_PASSPHRASE_FILE      a file whose first line is the passphrase
              DIARY_NEW_PASSPHRASE_FILE  the same for a new passphrase (init, passwd)
              VISUAL, EDITOR             the editor (may carry arguments); default vi
              LC_ALL, LC_TIME, LANG      the locale of dates, in this order
              NO_COLOR                   set: never colour the output
              XDG_RUNTIME_DIR            the agent's socket and the editor's file (tmpfs)
              XDG_DATA_HOME              the default vault is $XDG_DATA_HOME/diary
              XDG_STATE_HOME             verified backups are noted in $XDG_STATE_HOME/diary
              DIARY_INSECURE_TEST_KDF    TEST ONLY: =1 makes `init` use a deliberately weak
                                         Argon2id cost so test suites run fast; never set
                                         it for a real diary

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
            New.self, List.self, Show.self, Edit.self, Delete.self,
            Star.self, Unstar.self, Tag.self, Search.self,
            Passwd.self, Rekey.self, Backup.self, Verify.self, Restore.self, Reindex.self,
            Import.self, Export.self, Audit.self, Recover.self,
            AgentCommand.self,
        ])
}
