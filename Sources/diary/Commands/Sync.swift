import ArgumentParser
import DiaryApp
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
            conflicts. Set up with `diary sync init` on the first machine; each other one joins \
            with an invite (`diary sync invite` on a member, `diary sync join --invite` there).

            The remote holds only sealed, write-once records, each signed by the machine that \
            wrote it, and a chain of signed statements that says who the members are and which \
            key is current. Each machine reads only members' records, checks that nothing it saw \
            was removed, rewound or replaced, and refuses to sync (status 65) when something \
            was, naming what it saw. See docs/GUIDE.md, "Using diary on two machines", and \
            docs/FORMAT.md section 12.

            EXAMPLE
              diary sync init git@example.org:diary.git
              diary sync invite --name laptop
              diary sync join git@example.org:diary.git --invite K3Q9-… --to ~/diary
              diary sync members
              diary sync
            """,
        subcommands: [
            SyncNow.self, SyncInit.self, SyncJoin.self, SyncInvite.self, SyncMembers.self, SyncStatusCommand.self,
            SyncRemove.self, SyncStop.self, SyncUpgradeCommand.self,
        ],
        defaultSubcommand: SyncNow.self)
}

extension DiarySession {
    /// Refuses a vault that does not sync on this machine before anything is asked (a
    /// passphrase, a confirmation): the sync state's clear `config` says so without any key.
    func requireSyncing() throws {
        let info = try inspect()
        let remote = try SyncLifecycle.remote(
            vaultID: info.id, vaultDirectory: directory, stateDirectory: stateDirectory)
        guard remote != nil else { throw SyncError.notSetUp }
    }
}
