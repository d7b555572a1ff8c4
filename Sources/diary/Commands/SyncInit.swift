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
            Always asks for the passphrase, even while unlocked: the vault header is published \
            (it is what a joining machine opens with the passphrase). What needs no passphrase is \
            checked first: a vault that already syncs (`diary sync stop` ends that), a git remote \
            that cannot be reached or holds another vault (it is cloned before the question), a \
            folder that does not exist (create it first: a mistyped path would never sync) or \
            holds other files. The remote must be empty (this machine becomes \
            its first member), or already hold this vault: then it takes an invite from a member \
            (`diary sync invite` there, --invite here), and this vault's entries are published \
            once that member admits it. A git remote is cloned into $XDG_STATE_HOME/diary/sync. \
            Then runs a first sync.

            EXAMPLE
              git init --bare /srv/diary.git && diary sync init /srv/diary.git
              diary sync init --folder ~/Sync/diary
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var remote: RemoteOptions

    @Option(
        help: ArgumentHelp(
            "For a remote that already holds this vault: the code `diary sync invite` printed there.",
            valueName: "code"))
    var invite: String?

    func run() throws {
        let code = try invite.map(InviteCodeInput.parse)
        let session = global.session()
        // What can be refused without a key is refused before the passphrase is asked for.
        let info = try session.inspect()
        let checked = try SyncLifecycle.checkBeforeStart(
            vaultID: info.id, vaultDirectory: session.directory, remote: remote.location,
            stateDirectory: session.stateDirectory, hasInvite: code != nil)
        defer { checked.discard() }
        try remote.requireExistingFolder(joining: false)
        let (vault, passphrase) = try session.openWithPassphrase()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        var report = try SyncLifecycle.initialize(
            vault: vault, remote: remote.location, machineName: remote.machineName, passphrase: passphrase,
            stateDirectory: session.stateDirectory, invite: code, checked: checked, progress: progress.update)
        progress.finish()
        Output.note("this vault now syncs with \(Printable.escaped(remote.location.description))")
        report.keyChangePublished = false  // the first header, not a change
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
