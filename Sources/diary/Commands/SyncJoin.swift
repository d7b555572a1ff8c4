import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync join`: a local vault built from a remote.
struct SyncJoin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Build a local vault on this machine from a remote.",
        usage: "diary sync join [<options>] [<git-remote>]",
        discussion: """
            Takes an invite: run `diary sync invite` on a machine that already syncs and pass \
            its code with --invite. Asks for the vault's passphrase (or reads --passphrase-file), \
            then creates a vault at --to (default: --vault, $DIARY_VAULT or the default place), \
            which must not exist or be empty, and fills it from the remote. The passphrase is asked \
            for once the remote is found to hold a vault. A vault made elsewhere than where \
            diary looks by default is named with how to use it: --vault DIR on each command, \
            or DIARY_VAULT=DIR in the environment; with --journal NAME (-j) the new vault is \
            registered as the named journal NAME instead (at --to, else at a NAME already \
            registered, else at $XDG_DATA_HOME/diary-NAME). It checks that the \
            remote shows the membership chain the invite names, and asks to join; the inviting \
            machine admits it at its next `diary sync`, and from then on this machine's changes \
            are published. A --folder must exist (the synced folder arrived here). Nothing is left \
            behind when it fails.

            EXAMPLE
              diary sync join git@example.org:diary.git --invite K3Q9-… --to ~/diary
              diary sync join --folder ~/Sync/diary --invite K3Q9-… --store files
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var remote: RemoteOptions

    @Option(help: ArgumentHelp("Where to create the local vault.", valueName: "path"), completion: .directory)
    var to: String?

    @Option(
        help:
            "How entries are stored here: sqlite or files (each machine chooses; default: the config's store, else sqlite)."
    )
    var store: StoreKind?

    @Option(help: ArgumentHelp("The code `diary sync invite` printed on a machine that syncs.", valueName: "code"))
    var invite: String?

    func run() throws {
        guard let invite else { throw SyncError.inviteNeeded }
        let code = try InviteCodeInput.parse(invite)
        try remote.requireExistingFolder(joining: true)
        // --to (else --vault) is the place; -j NAME registers the vault there, or is the place.
        let (target, journal) = Settings.newVault(global, path: to ?? global.vault)
        let store = store ?? Settings.current.store ?? .sqlite
        if let names = try? FileManager.default.contentsOfDirectory(atPath: target.path), !names.isEmpty {
            throw SyncError.targetNotEmpty(path: target.path)
        }
        let session = global.session(directory: target)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let progress = SyncProgressLine()
        defer { progress.finish() }
        // The passphrase is asked for once the remote is fetched and holds a vault (a missing
        // repository is said first), and again after a wrong one, as at any prompt.
        let (vault, report) = try SyncLifecycle.join(
            remote: remote.location, to: target, store: store, machineName: remote.machineName, invite: code,
            stateDirectory: session.stateDirectory, progress: progress.update,
            openingHeader: { open in
                try session.withCurrentPassphrase(.syncedVault) { passphrase in (try open(passphrase), passphrase) }
            })
        progress.finish()
        session.created(vault)
        Output.note(
            "created a \(vault.store.rawValue) vault at \(target.path) from \(Printable.escaped(remote.location.description))"
        )
        if let journal {
            try Settings.register(journal, at: target)
        } else {
            VaultPlace.sayHowToUse(target, defaultVault: global.vaultURL)
        }
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
