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

            EXIT STATUS
            \(ExitCode.helpTable)

            EXAMPLE
              diary init && diary unlock
              diary new "A quiet morning."
              diary list --starred
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Unlock.self, Lock.self, Status.self,
            New.self, List.self, Show.self, Edit.self, Delete.self,
            Star.self, Unstar.self, Tag.self, Search.self,
            Passwd.self, Rekey.self, Backup.self, Verify.self, Restore.self, Reindex.self,
            AgentCommand.self,
        ])
}
