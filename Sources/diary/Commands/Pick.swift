import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary pick`: choose an entry interactively with fzf and print its id.
struct Pick: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick",
        abstract: "Pick an entry interactively (with fzf) and print its id.",
        usage: "diary pick [<options>]",
        discussion: """
            Opens fzf (https://github.com/junegunn/fzf; Debian and Ubuntu: `apt install fzf`) \
            on one line per entry, newest first: date, title and tags. Type to narrow the \
            lines; the preview beside them is the entry as `diary show` prints it. Enter \
            prints the chosen entry's full id on stdout, so commands can take it:

              diary edit $(diary pick)

            Esc or Ctrl-C, or Enter when no line matches, prints nothing and exits with status 1.

            The preview asks only the unlock agent for the key (never a passphrase, never a \
            passphrase file): run `diary unlock` first, or the preview says the vault is locked. \
            The list itself is read as any command reads the vault.

            The filters are list's: --from, --to and --on (dates, as `diary list` takes them), \
            --tag and --starred offer only the matching entries; -n N the newest N.

            EXAMPLE
              diary edit $(diary pick)
              diary show $(diary pick --tag travel)
              diary pick --from 2024-01-01 --starred
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: EntryFilterOptions

    @Option(
        name: [.customShort("n"), .customLong("limit")],
        help: ArgumentHelp("Only the newest n entries.", valueName: "n"))
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("-n must be at least 1") }
    }

    func run() throws {
        // Said before the passphrase: without fzf there is nothing to pick with.
        guard let fzf = Picker.find() else {
            Output.error("fzf is not installed; `diary pick` chooses entries with it")
            Output.hint("install it (Debian and Ubuntu: apt install fzf), or use `diary list` and an id")
            throw SilentExit(code: .failure)
        }
        let session = global.session()
        try session.openVault()
        var filter = filters.filter
        filter.limit = limit
        let summaries = try session.read { vault in try vault.list(filter) }
        guard !summaries.isEmpty else {
            if filter == EntryFilter() { throw CLIError.noEntries }
            Output.error("no entry matches these filters")
            throw SilentExit(code: .failure)
        }
        let lines = Picker.lines(summaries)
        let preview = Picker.previewCommand(vault: session.directory.path)
        switch try Picker.choose(lines, fzf: fzf, preview: preview) {
        case .chosen(let id):
            Output.data(id)
        case .nothingMatched, .cancelled:
            // Status 1, as fzf's own for no match: diary's exit statuses stay its documented few.
            throw SilentExit(code: .failure)
        case .failed(let status):
            Output.error("fzf failed (exit status \(status))")
            throw SilentExit(code: .failure)
        }
    }
}
