import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync now` (and `diary sync` alone): one sync.
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
        try session.requireSyncing()
        let vault = try session.openVault()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        let engine = try SyncEngine(
            vault: vault, stateDirectory: session.stateDirectory,
            passphrase: { try session.passphrase(for: $0) },
            progress: progress.update)
        let report = try engine.sync()
        progress.finish()
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
