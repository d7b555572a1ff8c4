import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary reindex`: rebuild the index from the entries.
struct Reindex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild the index from the entries.",
        usage: "diary reindex [<options>]",
        discussion: """
            The index (titles, dates, stars, tags) is a sealed cache and the vault's list of \
            which entries exist. When it is missing or damaged, every command says so and \
            nothing else can be written until `reindex` rebuilds it from the entries.

            This machine remembers the newest index it saw of the vault. If entries it saw are \
            missing, or older copies of them were put back (or the whole vault is an older \
            copy), every command refuses and names them; `reindex` then refuses too, unless \
            --accept-older says that the older state is what you want (a backup restored in \
            place on purpose, say). Otherwise restore the newer copy from a backup. On a vault \
            that syncs, accepting deletes and undoes nothing on the other machines: the next sync \
            fetches back the entries the older state lacks and publishes its older copies beside \
            the newer versions (see `diary conflicts`), never over them.

            It also removes attachment objects that no entry references (an attach cut short \
            leaves one; `diary verify` notes them) and says how many, unless an entry does not \
            open: it may reference any object, so then none is removed.

            EXAMPLES
              diary reindex
              diary reindex --accept-older
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Accept that entries this machine saw are missing or older, and continue from the vault as it is.")
    var acceptOlder = false

    func run() throws {
        let session = global.session()
        let vault = try session.openVault(entrySet: .report)
        let report = try session.entrySet.report(for: vault) ?? vault.checkEntrySet()
        if report.isLoss {
            let lines = EntrySetWords.describe(report, vault: vault.directory)
            guard acceptOlder else {
                for line in lines { Output.talk("diary: \(Printable.escaped(line))") }
                throw CLIError.entriesLost(vault: vault.directory.path)
            }
            Output.warning("accepting the vault as it is; this machine forgets:")
            for line in lines where line.hasPrefix("  ") { Output.talk(Printable.escaped(line)) }
            try session.acceptOlderState(of: vault)
        }
        let count = try vault.reindex(minimumGeneration: report.seenGeneration ?? 0)
        let (templates, devices) = (try vault.templates().count, try vault.captureDevices().count)
        let counted = EntryCountWords.describe(
            entries: count - templates - devices, templates: templates, captureDevices: devices)
        Output.note("reindexed \(counted)")
        let sweep = try vault.sweepUnreferencedAttachments()
        if sweep.removed > 0 {
            Output.note(
                "removed \(sweep.removed) attachment object\(sweep.removed == 1 ? "" : "s") no entry references")
        }
        if let first = sweep.unopened.first {
            let more = sweep.unopened.count > 1 ? " and \(sweep.unopened.count - 1) more" : ""
            Output.note(
                "removed no attachment objects: entry \(first.uuidString.lowercased())\(more) does not open "
                    + "and may reference any of them (`diary verify` names the damage)")
        }
    }
}
