import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync init`: start syncing this vault.
struct SyncInit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start syncing this vault with a remote.",
        usage: "diary sync init [<options>] [<git-remote>]",
        discussion: """
            Always asks for the passphrase: the vault header is published (it is what a joining \
            machine opens with the passphrase). The remote must be empty, or already hold this \
            vault; a git remote is cloned into $XDG_STATE_HOME/diary/sync. Then runs a first sync.

            EXAMPLE
              git init --bare /srv/diary.git && diary sync init /srv/diary.git
              diary sync init --folder ~/Sync/diary
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var remote: RemoteOptions

    func run() throws {
        let session = global.session()
        let (vault, passphrase) = try session.openWithPassphrase()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        var report = try SyncLifecycle.initialize(
            vault: vault, remote: remote.location, machineName: remote.machineName, passphrase: passphrase,
            stateDirectory: session.stateDirectory, progress: progress.update)
        progress.finish()
        Output.note("this vault now syncs with \(Printable.escaped(remote.location.description))")
        report.keyChangePublished = false  // the first header, not a change
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
