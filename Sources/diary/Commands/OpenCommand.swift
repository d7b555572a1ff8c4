import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary open`: look at an attachment without leaving it on disk.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open an attachment in a viewer.",
        usage: "diary open [<options>] <id> [<name>]",
        discussion: """
            Copies the attachment NAME of entry ID (NAME may be left out when the entry has \
            only one) into a private directory in memory, the one the editor uses \
            ($XDG_RUNTIME_DIR, else /dev/shm; never a disk), mode 0600, once the whole \
            attachment authenticated; then runs the viewer on it and waits.

            The viewer is $DIARY_OPENER (a command line, split by the shell as $EDITOR is, \
            with the file's path added as its last argument), else xdg-open. With \
            $DIARY_OPENER, the copy is wiped (overwritten, then unlinked) when it exits: use a \
            viewer that stays until you close it (`DIARY_OPENER='evince'`, `'feh'`, `'mpv'`). \
            xdg-open returns at once while the program it started is still reading, so with it \
            the copy stays until the next diary command, whatever it is, which wipes every \
            copy left by a diary that has ended (so does the command after a diary that was \
            killed).

            EXAMPLE
              diary open 1b4e
              DIARY_OPENER=feh diary open 1b4e heron.jpg
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Argument(help: "The attachment's name (default: the entry's only one).")
    var name: String?

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let entryID = try vault.resolve(id.lowercased())
        let record = try AttachmentChoice.record(named: name, in: try session.read { try $0.entry(entryID) })
        let configured = ProcessInfo.processInfo.environment["DIARY_OPENER"].flatMap { $0.isEmpty ? nil : $0 }
        let opener = configured ?? "xdg-open"
        let directory = try MemoryDirectory.create(prefix: OpenedCopies.namePrefix())
        SignalCleanup.install()
        SignalCleanup.rememberFiles([record.name], beside: record.name, in: directory)
        // xdg-open returns before its viewer has read the file: that copy is left for the next
        // command to wipe (OpenedCopies); every other way out wipes it here.
        var leave = false
        defer {
            SignalCleanup.forgetFile()
            if leave { close(directory.fd) } else { directory.wipe() }
        }
        let file: String
        // Not fetched by a sync yet (pending): fetched now; if it cannot be, reading says it is
        // missing, and names the copies on the remote the fetch refused.
        let fetch = (try? PendingAttachment.fetchIfNeeded(record, of: vault, stateDirectory: session.stateDirectory))
        let refused = (fetch ?? nil)?.refused.filter { $0.object == record.objectID } ?? []
        do {
            file = try OpenedCopies.write(record, of: vault, into: directory)
        } catch let error as CLIError {
            throw error
        } catch {
            throw AttachmentReadFailure(name: record.name, entry: entryID, underlying: error, refusedCopies: refused)
        }
        let status = try Editor.run(opener, file: file, what: "the viewer")
        guard status == 0 else { throw ViewerFailed(command: opener, status: status) }
        if configured == nil {
            leave = true
            Output.note("the copy stays in \(directory.path) until the next diary command")
        }
    }
}
