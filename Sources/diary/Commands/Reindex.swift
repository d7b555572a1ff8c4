import ArgumentParser
import DiaryVault
import Foundation

/// `diary reindex`: rebuild the index from the entries.
struct Reindex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild the index from the entries.",
        discussion: """
            The index (titles, dates, stars, tags) is a sealed cache. If it is lost or damaged, \
            `list` rebuilds it in memory and says so; `reindex` writes the rebuilt one to disk.

            EXAMPLE
              diary reindex
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let vault = try VaultAccess(options: global).open()
        let count = try vault.reindex()
        Output.note("reindexed \(count) entr\(count == 1 ? "y" : "ies")")
    }
}
