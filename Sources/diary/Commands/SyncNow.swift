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

            Attachments travel as files of their own: this machine uploads the ones its \
            changes reference, and fetches the ones the other machines' entries reference. An \
            entry arrives even before its attachments do; those are pending, and every sync \
            tries them again. With --no-attachments they are not fetched (uploads still \
            happen) until a later sync.

            Once the remote is read (so a device enrolled or revoked on another machine is \
            known here first), takes in the entries capture devices dropped into the vault \
            directory's inbox/ and, on a folder remote, into the remote's inbox/ (`diary \
            capture --to FOLDER`): they are published in this same sync, then removed from the \
            remote's inbox; an item that is refused (a revoked device, a replay, damage) is \
            moved into inbox/rejected/ and said once. A git remote has no inbox.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Do not fetch attachments now: they stay pending until a later sync.")
    var noAttachments = false

    func run() throws {
        let session = global.session()
        try session.requireSyncing()
        // The vault directory's inbox waits until the remote is read: a revocation there wins.
        session.takesCaptureInboxInAtOpen = false
        let vault = try session.openVault()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        let engine = try SyncEngine(
            vault: vault, stateDirectory: session.stateDirectory,
            passphrase: { try session.passphrase(for: $0) },
            progress: progress.update)
        engine.fetchesAttachments = !noAttachments
        engine.takeInVaultInbox = { session.takeInCaptureInbox() }
        let report = try engine.sync()
        progress.finish()
        SyncMessages.print(report)
        try KeyChanges(session).afterSync(report, vault: vault)
    }
}
