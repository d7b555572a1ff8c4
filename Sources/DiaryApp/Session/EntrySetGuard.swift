import DiaryVault
import Foundation

/// Compares every vault a session opens with this machine's witness of it (`IndexWitness`),
/// again after every read, and keeps the witness current through the session's writes.
///
/// Why: someone with write access to the vault's files (a sync service, a shared disk) can
/// delete entries together with the index, or put back an older copy; everything left still
/// authenticates. What this machine saw last is the record that tells. A loss stops every
/// command until the user acts (`reindex --accept-older`, or a restore); a damaged index
/// without a loss is a warning, and only `reindex` may write until it is repaired.
///
/// One guard per session, touched from the session's thread only.
public final class EntrySetGuard {
    /// What to do with a loss found at open.
    public enum Mode: Sendable {
        /// Refuse a vault that lost entries (every ordinary command).
        case enforce
        /// Only compare: the command reports the result itself (`verify`, `reindex`).
        case report
    }

    public let stateDirectory: URL
    private let events: AppEventSink
    /// Vaults whose damaged index was already reported by this session.
    private var reportedDamage: Set<ObjectIdentifier> = []
    /// The vaults watched, in the order opened, and why each one's witness last failed to
    /// follow a write (absent: it followed).
    private var watched: [(slot: Int, vault: URL)] = []
    private var failures: [Int: Error] = [:]
    private var nextSlot = 0
    private var reports: [ObjectIdentifier: EntrySetReport] = [:]

    public init(stateDirectory: URL, events: @escaping AppEventSink) {
        self.stateDirectory = stateDirectory
        self.events = events
    }

    /// The comparison made when `vault` was opened by this session, if one was.
    public func report(for vault: Vault) -> EntrySetReport? { reports[ObjectIdentifier(vault)] }

    /// Attaches the witness, compares, and in `enforce` mode throws on a loss after saying
    /// what is gone. A comparison that cannot run is not skipped: the command stops with the
    /// reason.
    @discardableResult
    public func opened(_ vault: Vault, mode: Mode = .enforce) throws -> EntrySetReport {
        let slot = nextSlot
        nextSlot += 1
        watched.append((slot, vault.directory))
        vault.attach(IndexWitness(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)) {
            [weak self] failure in self?.failures[slot] = failure
        }
        let report = try vault.checkEntrySet()
        reports[ObjectIdentifier(vault)] = report
        if mode == .enforce {
            try enforce(report, vault: vault)
            // Nothing this machine saw is lost: an index of the old version is rewritten in the
            // current one now (one atomic change; the witness follows it). Failing (read-only
            // media), the old index still reads, and the next open tries again.
            if !report.indexDamaged { try? vault.migrateIndexIfNeeded() }
        }
        return report
    }

    /// After a read: an index found damaged since the vault was opened (a page that does not
    /// match its root) is compared with the witness now, as at open.
    public func afterRead(_ vault: Vault) throws {
        guard vault.indexState != .ok, !reportedDamage.contains(ObjectIdentifier(vault)) else { return }
        try enforce(try vault.checkEntrySet(), vault: vault)
    }

    /// A vault this session created or restored: its witness starts now. A copy older than
    /// one this machine saw is said, not refused (the user chose to put it here).
    public func created(_ vault: Vault) {
        do {
            let report = try opened(vault, mode: .report)
            if report.isLoss { events(.restoredOlderThanSeen(report, vault: vault.directory)) }
        } catch {
            events(.recordNotStarted(vault: vault.directory, reason: "\(error)"))
        }
    }

    /// A vault this session restored from a backup: the restore is the user's own act, so
    /// this machine's record of that path starts afresh from it. A record that remembers a
    /// newer copy there (an earlier restore into the same path, the vault that was there) is
    /// said, then replaced: the next command would otherwise refuse the vault as rolled back.
    /// Sync state is not touched (the next sync still fetches back what the remote holds).
    public func restored(_ vault: Vault) {
        do {
            let report = try opened(vault, mode: .report)
            guard report.isLoss || report.recordUnreadable else { return }
            if report.isLoss { events(.restoredOlderThanSeen(report, vault: vault.directory)) }
            let witness = IndexWitness(
                stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
            try FileManager.default.removeItem(at: witness.directory)
            // No record now: the comparison starts one from the restored vault.
            reports[ObjectIdentifier(vault)] = try vault.checkEntrySet()
        } catch {
            events(.recordNotStarted(vault: vault.directory, reason: "\(error)"))
        }
    }

    /// At the end of the command: a write that could not update this machine's record (the
    /// write stood) is said, once per vault.
    public func finish() {
        for (slot, vault) in watched {
            if let failure = failures[slot] { events(.recordNotUpdated(vault: vault, reason: "\(failure)")) }
        }
        watched.removeAll()
        failures.removeAll()
        reports.removeAll()
    }

    private func enforce(_ report: EntrySetReport, vault: Vault) throws {
        if report.recordUnreadable { events(.recordUnreadable(vault: vault.directory)) }
        if report.isLoss {
            events(.entriesLost(report, vault: vault.directory))
            throw AppError.entriesLost(vault: vault.directory.path)
        }
        if report.indexDamaged {
            reportedDamage.insert(ObjectIdentifier(vault))
            events(.indexDamaged(vault: vault.directory, noRecord: report.noRecord))
        }
    }
}
