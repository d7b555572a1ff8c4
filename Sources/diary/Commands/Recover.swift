import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary recover`: store (or wipe) the text of an edit whose `diary` was killed.
struct Recover: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Store the text of an edit that was not saved (a failed save, a killed diary).",
        usage: "diary recover [<options>]",
        discussion: """
            `new` and `edit` keep the text in a private directory on a memory file system \
            (diary-edit-PID-START-XXXXXX under $XDG_RUNTIME_DIR, else /dev/shm) while the editor \
            runs. When the text cannot be stored (a full disk, or any other reason), diary keeps \
            that directory on purpose and says so (text piped or given to `new` is kept in such a \
            directory too when it cannot be stored); if diary is killed outright (SIGKILL, a \
            crash), the directory stays too. Either way the plaintext stays there, in memory, \
            until reboot. Every command that opens the vault looks for such directories of this \
            vault whose diary no longer runs: on a terminal it offers to recover them, otherwise \
            it says on stderr what it found. Directories of a diary that still runs are left \
            alone.

            recover stores each text in the vault as the command would have: the edit it was \
            (with the --date given to `edit`, adding only the #tags the edit wrote), or a new \
            entry when it was one (dated as `new` meant it: its --date, else when its editor \
            opened; with its --tag options, the #tags in its text, and --star), or when its \
            entry was deleted since. An edit is never stored over a change made after it began \
            (a later edit, a sync): then the text becomes a new entry beside it (with its date, \
            tags and star), and recover names both. It prints the entry's id on stdout and wipes the directory. \
            --discard wipes them without storing anything, after confirmation (--yes without a \
            terminal). A text that cannot be stored (the disk is still full; not UTF-8, over 8 MiB) \
            is left where it is, and recover says so: run it again once the cause is fixed.

            EXAMPLE
              diary recover
              diary recover --discard --yes
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Wipe the leftover texts instead of storing them.")
    var discard = false

    @Flag(help: "With --discard: do not ask.")
    var yes = false

    func run() throws {
        let vault = try global.session().openVault(offerRecovery: false)
        let found = InterruptedEdits.find(vault: vault.id)
        guard !found.isEmpty else {
            Output.note("no interrupted edits of this vault")
            return
        }
        if discard {
            let count = found.count == 1 ? "1 interrupted edit" : "\(found.count) interrupted edits"
            try confirmDestructive(
                "discarding \(count)", question: "Wipe \(count) without storing the text?", yes: yes)
            for edit in found {
                try MemoryDirectory.open(edit.path).wipe()
                Output.note("wiped \(edit.path)")
            }
            return
        }
        for edit in found {
            let outcome: InterruptedEdits.Outcome
            do {
                outcome = try InterruptedEdits.recover(edit, into: vault)
            } catch {
                // A text that cannot be stored yet (the disk is still full) stays where it is.
                throw FileManager.default.fileExists(atPath: edit.path)
                    ? TextKept(error: error, path: edit.path) : error
            }
            InterruptedEdits.report(outcome, from: edit)
            switch outcome {
            case .added(let id), .updated(let id), .unchanged(let id), .addedBesideChanged(let id, _):
                Output.data(EntryFormat.fullID(id))
            case .empty: break
            }
        }
    }
}
