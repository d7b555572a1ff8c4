import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary search`: full-text search.
struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find entries containing every word or phrase given.",
        usage: "diary search [<options>] <text> ...",
        discussion: """
            Finds the entries whose title or text contains every TEXT, in any order; case \
            and diacritics are ignored, and a word also matches inside a longer word. An \
            argument with a space in it (quoted on the shell) is a phrase, matched as it is; \
            double quotes inside an argument mark phrases too ('"frozen lake" heron'). \
            Searching decrypts in memory. Takes the same filters as `list`, and prints the \
            same lines or JSON. On a terminal, each entry's line is followed by the lines of \
            its text that match (at most three), the matches in bold when colour is on.

            In a files vault, a search that reads 1,024 entries or more keeps a copy of the \
            sealed entries in one file, entries.pack, so the next search reads that file \
            instead of one file per entry. It is ciphertext only; an edit that keeps the \
            entry's size overwrites the part holding that entry with zeros, a delete or any \
            other change of an entry in it removes the whole file, and it is safe to delete at \
            any time (see the guide, "Searching").

            Exits with status 0 when an entry matched and 1 when none did (as grep does; \
            --json then prints []); any other status is an error.

            PRIVACY: the search text is an argument, so it is not private. While diary runs, \
            any user of this machine can read it in /proc/PID/cmdline (`ps` shows it), and your \
            shell keeps it in its history file.

            EXAMPLE
              diary search heron frost
              diary search "frozen lake" --from 2024-06-01
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("Words or phrases; an entry must contain all of them.", valueName: "text"))
    var text: [String]

    @OptionGroup var filters: FilterOptions

    func validate() throws {
        _ = try SearchQuery(validating: text)
    }

    func run() throws {
        let query = try SearchQuery(validating: text)
        ScanThreads.warmUp()
        let session = global.session()
        let vault = try session.openVault()
        let (found, damaged) = try session.read { vault in
            let result = try vault.search(all: query.terms, filter: filters.filter)
            return (result.matches, result.damaged)
        }
        if filters.json || isatty(STDOUT_FILENO) != 1 {
            try EntryFormat.printList(found, json: filters.json, vault: vault)
        } else {
            try printWithContext(found, vault: vault, terms: query.terms)
        }
        for id in damaged {
            Output.warning("entry \(EntryFormat.fullID(id)) is damaged and was not searched; run `diary verify`")
        }
        // grep's convention, so `if diary search ...; then` reads as it should.
        if found.isEmpty { throw SilentExit(code: .failure) }
    }

    /// Each entry's line, then the lines of its text that match. The text is opened again: the
    /// search kept no plaintext, and only the entries shown are opened.
    private func printWithContext(_ found: [EntrySummary], vault: Vault, terms: [String]) throws {
        let style = Style()
        let width = SearchContext.terminalWidth
        let lines = try ListLayout.lines(found, vault: vault, columns: width, style: style)
        for (summary, line) in zip(found, lines) {
            Output.data(line)
            // Changed or damaged since the scan: the line stands alone.
            guard let entry = try? vault.entry(summary.id) else { continue }
            for line in SearchContext.lines(of: entry.text, terms: terms, style: style, width: width) {
                Output.data(line)
            }
        }
    }
}
