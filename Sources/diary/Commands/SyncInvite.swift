import ArgumentParser
import DiaryApp
import DiarySync
import Foundation

/// `diary sync invite`: a one-time code that lets another machine join.
struct SyncInvite: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Print a one-time code that lets another machine join.",
        usage: "diary sync invite [<options>]",
        discussion: """
            Prints the code on stdout (nothing else). Give it to the new machine by a way you \
            trust (say it, type it), and run `diary sync join REMOTE --invite CODE` there. The \
            code names the membership chain as this machine holds it, so the new machine checks \
            that the remote shows it the same chain; its secret proves the new machine to this \
            one, which admits it at its next `diary sync`. A code works once. The new machine \
            still needs the vault's passphrase.

            EXAMPLE
              diary sync invite --name phone
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: "What the invite is for (shown when it is used).")
    var name: String?

    func run() throws {
        let session = global.session()
        try session.requireSyncing()
        let vault = try session.openVault()
        let code = try SyncMembership.invite(vault: vault, stateDirectory: session.stateDirectory, name: name)
        Output.data(code)
        Output.note(
            "on the new machine: diary sync join REMOTE --invite \(code); then run `diary sync` here to admit it")
    }
}

/// `diary sync members`: who may write to the remote.
struct SyncMembers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List the machines that are members of this vault's sync.",
        usage: "diary sync members [<options>]",
        discussion: """
            One line per machine on stdout: its name, the fingerprint of its signing key (compare \
            it with `diary sync members` on that machine), and whether it is this machine or was \
            removed. Only members' signed records are read by the others.

            EXAMPLE
              diary sync members
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let session = global.session()
        try session.requireSyncing()
        let vault = try session.openVault()
        let status = try SyncMembership.status(vault: vault, stateDirectory: session.stateDirectory)
        for line in SyncStatusLines.members(status) { Output.data(line) }
    }
}

/// `diary sync remove`: a member leaves; the key changes with it.
struct SyncRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a machine from this vault's sync, and rotate the key.",
        usage: "diary sync remove [<options>] <name>",
        discussion: """
            Asks for the passphrase, rotates the vault key (as `diary rekey`) and, at the next \
            `diary sync`, states that the machine is no longer a member: from then on the other \
            machines read none of its records written after what this machine had read of it, \
            and it cannot read what is written under the new key. If whoever has that machine \
            may know the passphrase, also change it (`diary passwd`). Asks for confirmation on a \
            terminal; scripts pass --yes.

            EXAMPLE
              diary sync remove old-laptop && diary sync
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The member's name, as `diary sync members` shows it.")
    var name: String

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        try global.session().requireSyncing()
        try confirmDestructive(
            "removing a member", question: "Remove '\(Printable.escaped(name))' from this vault's sync?", yes: yes)
        let progress = Progress("re-encrypting")
        defer { progress.finish() }
        let outcome = try KeyChanges(global.session()).removeMember(named: name, progress: progress.update)
        progress.finish()
        if let error = outcome.agentNotTold { throw error }
        Output.note(
            "'\(Printable.escaped(name))' will be removed at the next `diary sync`; the vault key was rotated")
    }
}
