import DiaryApp
import DiaryVault
import Foundation

/// Compares every vault a command opens with this machine's witness of it (`IndexWitness`),
/// and keeps the witness current through the command's writes.
///
/// Why: someone with write access to the vault's files (a sync service, a shared disk) can
/// delete entries together with the index, or put back an older copy; everything left still
/// authenticates. What this machine saw last is the record that tells. A loss stops every
/// command until the user acts (`reindex --accept-older`, or a restore); a damaged index
/// without a loss is a warning, and only `reindex` may write until it is repaired.
enum EntrySetWatch {
    // One command runs on one thread; these are touched only from it.
    nonisolated(unsafe) private static var watched: [Vault] = []
    static let stateDirectory = IndexWitness.defaultStateDirectory()
    /// What the comparison at open found, per vault: commands that report it themselves
    /// (`verify`, `reindex`) use it instead of comparing again.
    nonisolated(unsafe) private static var reports: [ObjectIdentifier: EntrySetReport] = [:]

    /// The comparison made when `vault` was opened by this command, if one was.
    static func report(for vault: Vault) -> EntrySetReport? { reports[ObjectIdentifier(vault)] }

    enum Mode {
        /// Refuse a vault that lost entries (every ordinary command).
        case enforce
        /// Only compare: the command reports the result itself (`verify`, `reindex`).
        case report
    }

    /// Attaches the witness, compares, and in `enforce` mode throws on a loss after saying
    /// what is gone. Returns the report.
    @discardableResult
    static func opened(_ vault: Vault, mode: Mode = .enforce) throws -> EntrySetReport {
        watched.append(vault)
        vault.attach(IndexWitness(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory))
        // A comparison that cannot run is not skipped: the command stops with the reason.
        let report = try vault.checkEntrySet()
        reports[ObjectIdentifier(vault)] = report
        if mode == .enforce { try enforce(report, vault: vault) }
        return report
    }

    private static func enforce(_ report: EntrySetReport, vault: Vault) throws {
        if report.recordUnreadable {
            Output.warning("this machine's record of \(vault.directory.path) could not be read; it was started again")
        }
        if report.isLoss {
            for line in describe(report, vault: vault) { Output.talk("diary: \(line)") }
            throw CLIError.entriesLost(vault: vault.directory.path)
        }
        if report.indexDamaged {
            reportedDamage.insert(ObjectIdentifier(vault))
            warnIndexDamaged(report, vault: vault)
        }
    }

    /// Vaults whose damaged index was already reported by this command.
    nonisolated(unsafe) private static var reportedDamage: Set<ObjectIdentifier> = []

    /// After a read: an index found damaged since the vault was opened (a page that does not
    /// match its root) is compared with the witness now, as at open.
    static func afterRead(_ vault: Vault) throws {
        guard vault.indexState != .ok, !reportedDamage.contains(ObjectIdentifier(vault)) else { return }
        let report = try vault.checkEntrySet()
        try enforce(report, vault: vault)
    }

    /// A vault this command created or restored: its witness starts now.
    static func created(_ vault: Vault) {
        do {
            let report = try opened(vault, mode: .report)
            if report.isLoss {
                for line in describe(report, vault: vault) { Output.talk("diary: \(line.replacingOccurrences(of: "error: ", with: "warning: "))") }
                Output.hint("`diary reindex --accept-older` continues from the restored copy")
            }
        } catch {
            Output.warning("could not start this machine's record of \(vault.directory.path): \(error)")
        }
    }

    /// At exit: says when a write could not update this machine's record (the write stood).
    static func finish() {
        for vault in watched {
            if let failure = vault.witnessFailure {
                Output.warning("could not update this machine's record of \(vault.directory.path): \(failure)")
            }
        }
        watched.removeAll()
        reports.removeAll()
    }

    static func warnIndexDamaged(_ report: EntrySetReport, vault: Vault) {
        Output.warning("the index of \(vault.directory.path) is missing or damaged; "
            + "only `diary reindex` can write until it is repaired")
        if report.noRecord {
            Output.warning("this machine has no earlier record of this vault: "
                + "entries deleted or rolled back before now cannot be detected")
        }
    }

    /// What was lost, in words: a headline, then one line per entry (id and entry date only:
    /// messages never carry entry text).
    static func describe(_ report: EntrySetReport, vault: Vault) -> [String] {
        let seen = report.seenOn.map { " on " + day($0) } ?? ""
        var parts: [String] = []
        if !report.missing.isEmpty {
            parts.append("\(count(report.missing.count)) this machine saw \(report.missing.count == 1 ? "is" : "are") missing")
        }
        if !report.older.isEmpty {
            parts.append("\(count(report.older.count)) \(report.older.count == 1 ? "is an older copy" : "are older copies")")
        }
        var lines = ["error: the vault at \(vault.directory.path) is older than the copy this machine saw\(seen)"
            + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))]
        if report.olderKey {
            lines.append("error: its key is older than the one this machine saw (a copy from before `diary rekey`)")
        }
        if report.indexDamaged { lines.append("error: its index is missing or damaged") }
        for entry in report.missing { lines.append("  missing:     \(entry.id.uuidString.lowercased())  dated \(day(entry.date))") }
        for entry in report.older { lines.append("  older copy:  \(entry.id.uuidString.lowercased())  dated \(day(entry.date))") }
        return lines
    }

    private static func count(_ n: Int) -> String { n == 1 ? "1 entry" : "\(n) entries" }

    private static func day(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = .current
        return formatter.string(from: date)
    }
}
