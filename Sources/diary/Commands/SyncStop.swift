import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync stop`: forget the remote on this machine.
struct SyncStop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop syncing this vault on this machine.",
        usage: "diary sync stop [<options>]",
        discussion: """
            Forgets the remote and what this machine saw of it (its state under \
            $XDG_STATE_HOME/diary/sync, including a git clone). The local vault and the remote \
            are left as they are; `diary sync init` can then name another remote (a remote of \
            this vault is joined with the entries this machine has). Asks for confirmation on a \
            terminal; scripts pass --yes. Needs no key.

            EXAMPLE
              diary sync stop && diary sync init --folder ~/Sync/diary-2027
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        let session = global.session()
        try session.requireSyncing()
        let info = try session.inspect()
        let setup = (info.id, session.directory)
        try confirmDestructive(
            "forgetting this machine's sync state",
            question: "Stop syncing \(Printable.escaped(session.directory.path)) on this machine?",
            yes: yes)
        guard
            let remote = try SyncLifecycle.stop(
                vaultID: setup.0, vaultDirectory: setup.1, stateDirectory: session.stateDirectory)
        else {
            throw SyncError.notSetUp
        }
        Output.note(
            "this vault no longer syncs with \(Printable.escaped(remote.description)) on this machine; the vault and the remote are unchanged"
        )
    }
}
