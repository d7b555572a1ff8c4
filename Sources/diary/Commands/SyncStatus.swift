import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync status`: the remote, the members and when each was last heard from.
struct SyncStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the remote, the members and when each was last heard from.",
        usage: "diary sync status [<options>]",
        discussion: """
            Prints on stdout the remote, then one line per member: its name, fingerprint, the \
            records read of it, when its newest record says it was written and when this machine \
            last read a new record of it. A member not heard from for \
            \(SyncStatusLines.staleDays) days is marked stale: its machine may be off, or the \
            host may be keeping its records from this one. Reads only this machine's state: run \
            `diary sync` first for news.

            EXAMPLE
              diary sync status
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        try session.requireSyncing()
        let vault = try session.openVault()
        let status = try SyncMembership.status(vault: vault, stateDirectory: session.stateDirectory)
        for line in SyncStatusLines.status(status, now: Date()) { Output.data(line) }
        if status.members.contains(where: { SyncStatusLines.isStale($0, now: Date()) }) {
            Output.warning("a member has not been heard from for \(SyncStatusLines.staleDays) days or more")
        }
    }
}

/// `diary sync upgrade`: move a format-1 remote to format 2.
struct SyncUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Move this vault's remote from sync format 1 to format 2.",
        usage: "diary sync upgrade [<options>]",
        discussion: """
            Sync format 2 signs every record with the writing machine's own key and orders key \
            changes in a membership chain. The upgrade removes the format-1 files from the remote \
            and publishes every entry of this vault afresh, with this machine as the only member \
            (nothing in the local vault changes). On each other machine: `diary sync stop`, then \
            `diary sync init REMOTE --invite CODE` with a code from `diary sync invite` here; its \
            entries are published again, and identical ones make no conflict. Run it on the \
            machine that synced last. Asks for the passphrase, and for confirmation on a \
            terminal; scripts pass --yes. Cut short, it can be run again.

            EXAMPLE
              diary sync upgrade && diary sync invite --name laptop
            """)

    @OptionGroup var global: GlobalOptions
    @Option(
        help: ArgumentHelp("This machine's name in conflicts and messages (default: the host name).", valueName: "name")
    )
    var name: String?

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        try global.session().requireSyncing()
        try confirmDestructive(
            "replacing the remote's format-1 files",
            question: "Upgrade this vault's remote to sync format 2 (other machines must join again)?", yes: yes)
        let session = global.session()
        let (vault, passphrase) = try session.openWithPassphrase()
        let progress = SyncProgressLine()
        defer { progress.finish() }
        var report = try SyncUpgrade.upgrade(
            vault: vault, machineName: name ?? ProcessInfo.processInfo.hostName, passphrase: passphrase,
            stateDirectory: session.stateDirectory, progress: progress.update)
        progress.finish()
        report.keyChangePublished = false
        Output.note("the remote now uses sync format 2, with this machine as its only member")
        SyncMessages.print(report)
    }
}
