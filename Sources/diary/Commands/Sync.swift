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
