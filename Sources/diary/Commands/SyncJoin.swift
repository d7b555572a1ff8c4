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
            Asks for the vault's passphrase (or reads --passphrase-file), then creates a vault at \
            --to (default: --vault, $DIARY_VAULT or the default place), which must not exist or \
            be empty, and fills it from the remote. Nothing is left behind when it fails.

            EXAMPLE
              diary sync join git@example.org:diary.git --to ~/diary
              diary sync join --folder ~/Sync/diary --store files
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var remote: RemoteOptions

    @Option(help: ArgumentHelp("Where to create the local vault.", valueName: "path"), completion: .directory)
    var to: String?

    @Option(help: "How entries are stored here: sqlite or files (each machine chooses).")
    var store: StoreKind = .sqlite

    func run() throws {
        let target =
            to.map {
                URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true).standardizedFileURL
            }
            ?? global.vaultURL
        if let names = try? FileManager.default.contentsOfDirectory(atPath: target.path), !names.isEmpty {
            throw SyncError.targetNotEmpty(path: target.path)
        }
        let session = global.session(directory: target)
        let passphrase = try session.currentPassphrase(.syncedVault)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
        let progress = SyncProgressLine()
        defer { progress.finish() }
        let (vault, report) = try SyncLifecycle.join(
            remote: remote.location, to: target, store: store, machineName: remote.machineName,
            passphrase: passphrase, stateDirectory: session.stateDirectory, progress: progress.update)
        progress.finish()
        session.created(vault)
        Output.note(
            "created a \(vault.store.rawValue) vault at \(target.path) from \(Printable.escaped(remote.location.description))"
        )
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
