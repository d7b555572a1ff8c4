import ArgumentParser
import DiaryApp
import DiaryCrypto
import DiaryStore
import DiarySync
import DiaryVault
import Foundation

/// `diary sync`: one diary on several machines, through git or a synced folder.
struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync this vault with a git remote or a synced folder.",
        discussion: """
            `diary sync` alone publishes this machine's changes and takes in the other \
            machines' (the same as `diary sync now`). It prints on stderr what moved and any \
            conflicts. Set up with `diary sync init` on the first machine and `diary sync join` \
            on each other one.

            The remote holds only sealed, write-once records with random names; each machine \
            checks that nothing it saw there was removed, rewound or replaced, and refuses to \
            sync (status 65) when something was, naming what it saw. See the README's "Using \
            diary on two machines" and docs/FORMAT.md section 12.

            EXAMPLE
              diary sync init git@example.org:diary.git
              diary sync init --folder ~/Sync/diary
              diary sync join git@example.org:diary.git --to ~/diary
              diary sync
            """,
        subcommands: [SyncNow.self, SyncInit.self, SyncJoin.self, SyncStop.self],
        defaultSubcommand: SyncNow.self)
}

/// Options naming a remote: a git URL argument or `--folder PATH`.
struct RemoteOptions: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "A git remote: a path to a bare repository, ssh://..., or host:path.", valueName: "git-remote"))
    var git: String?

    @Option(
        help: ArgumentHelp("A folder a file-sync tool replicates (Syncthing, Dropbox, ...), instead of git.",
                           valueName: "path"),
        completion: .directory)
    var folder: String?

    @Option(help: ArgumentHelp("This machine's name in conflicts and messages (default: the host name).",
                               valueName: "name"))
    var name: String?

    func validate() throws {
        switch (git, folder) {
        case (nil, nil): throw ValidationError("name a git remote, or a folder with --folder PATH")
        case (.some, .some): throw ValidationError("name either a git remote or --folder, not both")
        default: break
        }
        if let name, name.isEmpty || name.utf8.count > 200 || name.unicodeScalars.contains(where: Printable.needsEscape) {
            throw ValidationError("--name must be 1 to 200 printable characters")
        }
    }

    var location: RemoteLocation {
        if let folder {
            return .folder(URL(fileURLWithPath: (folder as NSString).expandingTildeInPath).standardizedFileURL.path)
        }
        let url = git!
        // A local path is made absolute: the clone lives elsewhere, and a relative path would
        // then name another place.
        if url.hasPrefix("/") || url.hasPrefix(".") || url.hasPrefix("~") || FileManager.default.fileExists(atPath: url) {
            return .git(URL(fileURLWithPath: (url as NSString).expandingTildeInPath).standardizedFileURL.path)
        }
        return .git(url)
    }

    var machineName: String { name ?? ProcessInfo.processInfo.hostName }
}

struct SyncNow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Publish this machine's changes and take in the others' (the default).",
        usage: "diary sync [now] [<options>]",
        discussion: """
            Uses the unlocked session's key (or asks for the passphrase). When another machine \
            rotated the vault key, asks for the passphrase set there to follow it (on a \
            terminal, again if the one typed does not open it). Exits 65 when the \
            remote contradicts what this machine saw before (rewound, a record removed, replaced \
            or forged); nothing is changed then.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        let engine = try SyncEngine(
            vault: vault, stateDirectory: session.stateDirectory,
            passphrase: { try SyncPassphrase.ask($0, session: session) },
            progress: progress.update)
        let report = try engine.sync()
        progress.finish()
        try SyncMessages.print(report, vault: vault, session: session)
    }
}

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
        try SyncMessages.print(report, vault: vault, session: session)
    }
}

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
        let target = to.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true).standardizedFileURL }
            ?? global.vaultURL
        if let names = try? FileManager.default.contentsOfDirectory(atPath: target.path), !names.isEmpty {
            throw SyncError.targetNotEmpty(target.path)
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
        Output.note("created a \(vault.store.rawValue) vault at \(target.path) from \(Printable.escaped(remote.location.description))")
        try SyncMessages.print(report, vault: vault, session: session)
    }
}

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
        let info = try session.inspect()
        let setup = (info.id, session.directory)
        try confirmDestructive(
            "forgetting this machine's sync state", question: "Stop syncing \(session.directory.path) on this machine?", yes: yes)
        guard let remote = try SyncLifecycle.stop(
            vaultID: setup.0, vaultDirectory: setup.1, stateDirectory: session.stateDirectory) else {
            throw SyncError.notSetUp
        }
        Output.note("this vault no longer syncs with \(Printable.escaped(remote.description)) on this machine; the vault and the remote are unchanged")
    }
}

/// The progress of a long sync, on stderr when it is a terminal.
final class SyncProgressLine {
    private let applying = Progress("applying")

    func update(_ step: SyncProgress) {
        if case .applying(let done, let total) = step, total >= 100 { applying.update(done, total) }
    }

    func finish() { applying.finish() }
}

/// What a sync prints: on stderr, one line per kind of change, then conflicts and anything
/// pending or worth a note.
enum SyncMessages {
    static func print(_ report: SyncReport, vault: Vault, session: DiarySession) throws {
        var moved: [String] = []
        if report.sent > 0 { moved.append("sent \(report.sent) change(s)") }
        if report.keyChangePublished { moved.append("published the new passphrase or key") }
        if report.added > 0 { moved.append("added \(report.added)") }
        if report.changed > 0 { moved.append("changed \(report.changed)") }
        if report.deleted > 0 { moved.append("deleted \(report.deleted)") }
        if report.keyChanged { moved.append("took in the new vault key") }
        if !moved.isEmpty {
            Output.note(moved.joined(separator: ", "))
        } else if report.notes.isEmpty {
            Output.note("up to date")
        }
        for note in report.notes { Output.note(Printable.escaped(note)) }
        for line in report.pending { Output.note("pending: \(Printable.escaped(line))") }
        for id in report.newConflicts {
            Output.warning("entry \(EntryFormat.shortID(id)) was changed on two machines: a conflict")
        }
        if !report.conflicts.isEmpty {
            Output.hint("\(report.conflicts.count) conflict(s): `diary conflicts` shows them, `diary resolve ID --keep mine|theirs|both` ends one")
        }
        // A key followed from another machine: the agent is handed it (KeyChanges' one flow).
        if report.keyChanged { try KeyChanges(session).keyFollowed(vault) }
    }
}

/// The passphrase a sync needs (see `PassphraseNeed`): the session's rule (a passphrase file
/// answers once, the terminal up to `DiarySession.passphraseTries` times), the terminal's words.
enum SyncPassphrase {
    static func ask(_ need: PassphraseNeed, session: DiarySession) throws -> SecretBytes? {
        try session.passphrase(for: need)
    }
}
