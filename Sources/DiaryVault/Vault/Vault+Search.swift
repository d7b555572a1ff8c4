import DiaryCrypto
import DiaryStore
import Foundation

/// What a search found: the matching entries, newest first (at most the filter's limit), and
/// the entries it could not search because they failed to open or are not the copy the index
/// recorded, newest first (reported so damage is never silent).
public struct SearchResult: Equatable, Sendable {
    public let matches: [EntrySummary]
    public let damaged: [UUID]
}

extension Vault {
    /// Entries whose text contains `query`, ignoring case and diacritics (Unicode aware),
    /// newest first; as `search(all:filter:)` with one term.
    public func search(_ query: String, filter: EntryFilter = EntryFilter()) throws -> SearchResult {
        try search(all: [query], filter: filter)
    }

    /// Entries whose text contains every one of `terms` (in any order, anywhere), ignoring case
    /// and diacritics (Unicode aware), newest first. A term is matched as it is, spaces
    /// included, so a phrase is one term; blank terms are ignored. Only entries that pass
    /// `filter` are decrypted; entries the index does not list are not searched.
    public func search(all terms: [String], filter: EntryFilter = EntryFilter()) throws -> SearchResult {
        var unlimited = filter
        unlimited.limit = nil
        let queries = terms.map { TextMatcher.Query($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try sealedIndex.ensureAllPages()
        // Every page is in memory now; the scan reads rows from this copy in place.
        var scan = SearchScan(
            index: sealedIndex.index, filter: unlimited,
            matcher: EntryBatchMatcher(vaultID: header.vaultID, keyRing: keyRing, queries: queries))
        do {
            // One snapshot, read in bulk by the store (SQLite: cursors over key ranges of the
            // table; files: the index's ids, opened by name, in id order): `readEntry` for each
            // id cost more than decrypting.
            try storeCall {
                try backend.withSnapshot { reader in
                    guard let scanner = reader as? EntryScanning else {
                        return try reader.forEachEntry { id, sealed in scan.take(id, sealed) }
                    }
                    try searchInPlace(scanner, reader, into: &scan)
                }
            }
            scan.drain()
        } catch {
            // A row or file that cannot be read stops the scan. Start over with one lookup per
            // id, so the failure is contained to the entries it hits, as a damaged entry should be.
            scan.restart()
            try searchEntryByEntry(list(unlimited), into: &scan)
        }
        try settle(&scan)
        return scan.result(limit: filter.limit)
    }

    /// The scan on every core (`ParallelSearch`), then the entries it could not decide read
    /// again on their own, in the same snapshot, and decided by `scan` as any other.
    private func searchInPlace(_ scanner: EntryScanning, _ reader: any StoreReader, into scan: inout SearchScan) throws
    {
        let fast = ParallelSearch(index: scan.index, filter: scan.filter, matcher: scan.matcher)
        // Only the entries the search wants: the files store then opens them by name instead of
        // listing `entries/` (a listing, a parse and a sort of every name, on one thread).
        let take: EntryScanBody = { w, id, sealed in fast.take(w, id, sealed) }
        if scanner.readsByID {
            try scanner.scanEntries(among: fast.listed, workers: fast.workerCount, take)
        } else {
            try scanner.scanEntries(workers: fast.workerCount, take)
        }
        scan.add(matched: fast.matches)
        for id in fast.suspects {
            let stored: [UInt8]?
            do { stored = try reader.readEntry(id) } catch {
                scan.addDamaged(id)
                continue
            }
            guard let sealed = stored else { continue }  // deleted meanwhile
            scan.take(id, sealed)
        }
    }

    /// The scan's fallback: each listed entry read on its own; one that cannot be read is damaged.
    private func searchEntryByEntry(_ summaries: [EntrySummary], into scan: inout SearchScan) throws {
        try storeCall {
            try backend.withSnapshot { reader in
                for summary in summaries {
                    let stored: [UInt8]?
                    do { stored = try reader.readEntry(summary.id) } catch {
                        scan.damaged.append(summary)
                        continue
                    }
                    guard let sealed = stored else { continue }  // deleted meanwhile
                    scan.take(summary.id, sealed)
                }
            }
        }
        scan.drain()
    }

    /// Entries whose stored copy was not the one the index recorded: written since by another
    /// process (matched now, as the index now has them), or an older copy put back (damaged).
    private func settle(_ scan: inout SearchScan) throws {
        let differing = scan.differing
        guard !differing.isEmpty else { return }
        try sealedIndex.load()
        for (summary, sealed) in differing {
            if try sealedIndex.recordsSeal(sealed, of: summary.id) {
                // Reported as the index now has it (another process may have retitled it).
                let current = sealedIndex.index.pages[sealedIndex.index.pageNumber(of: summary.id)]?.row(summary.id)?
                    .summary
                scan.matchNow(summary.id, sealed, as: current ?? summary)
            } else {
                scan.damaged.append(summary)
            }
        }
    }
}

/// One pass of `Vault.search` over the stored entries: rows are read in place from the index's
/// pages (a summary, with its strings, is built only for the entries reported), and decryption
/// runs on the matcher's batch while the scan reads the next one.
struct SearchScan {
    let index: PagedIndex
    let filter: EntryFilter
    let matcher: EntryBatchMatcher
    private(set) var matches: [EntrySummary] = []
    var damaged: [EntrySummary] = []
    /// Entries whose stored copy is not the one the index recorded: decided after the scan,
    /// never matched stale.
    private(set) var differing: [(EntrySummary, [UInt8])] = []
    private var pending: [(id: UUID, sealed: [UInt8])] = []
    private var inFlight: EntryBatchMatcher.Job?

    init(index: PagedIndex, filter: EntryFilter, matcher: EntryBatchMatcher) {
        self.index = index
        self.filter = filter
        self.matcher = matcher
        pending.reserveCapacity(EntryBatchMatcher.batchSize)
    }

    /// One stored entry: queued for the matcher if the index lists it, it passes the filter,
    /// and it is the copy the index recorded.
    mutating func take(_ id: UUID, _ sealed: [UInt8]) {
        let page = index.page(of: id)
        let (found, row) = page.position(of: id)
        guard found, IndexListing.passes(filter, page, row) else { return }
        guard page.sealTag(ofRowAt: row).matches(sealed) else {
            return differing.append((page.summary(at: row), sealed))
        }
        pending.append((id, sealed))
        if pending.count == EntryBatchMatcher.batchSize { flush() }
    }

    /// Hands what is pending to the matcher, which works on it while the scan reads the next
    /// batch; first collects the batch handed over before.
    private mutating func flush() {
        if let job = inFlight { report(matcher.finish(job)) }
        inFlight = pending.isEmpty ? nil : matcher.start(pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Flushes and waits for the last batch.
    mutating func drain() {
        flush()
        if let job = inFlight { report(matcher.finish(job)) }
        inFlight = nil
    }

    /// Forgets everything found: the entries are read again (the batch in flight is waited
    /// for, its results dropped).
    mutating func restart() {
        if let job = inFlight { _ = matcher.finish(job) }
        (matches, damaged, differing, pending, inFlight) = ([], [], [], [], nil)
    }

    /// Entries `ParallelSearch` found matching, as the index lists them.
    mutating func add(matched ids: [UUID]) {
        for id in ids { matches.append(index.page(of: id).row(id)!.summary) }
    }

    /// An entry the index lists that could not be read: damaged.
    mutating func addDamaged(_ id: UUID) {
        damaged.append(index.page(of: id).row(id)!.summary)
    }

    /// Matches one entry at once, reported as `summary`.
    mutating func matchNow(_ id: UUID, _ sealed: [UInt8], as summary: EntrySummary) {
        report(matcher.finish(matcher.start([(id, sealed)])), as: summary)
    }

    /// The matches newest first, cut to `limit`, and the damaged entries newest first. The scan
    /// ran in store order: only these need sorting, not every row.
    func result(limit: Int?) -> SearchResult {
        var sorted = matches.sorted(by: EntrySummary.newestFirst)
        if let limit { sorted = Array(sorted.prefix(max(limit, 0))) }
        return SearchResult(matches: sorted, damaged: damaged.sorted(by: EntrySummary.newestFirst).map(\.id))
    }

    /// Files the matcher's results, each entry as the index lists it unless `given`.
    private mutating func report(_ results: [(id: UUID, hit: Bool?)], as given: EntrySummary? = nil) {
        for (id, hit) in results {
            if hit == false { continue }
            let summary = given ?? index.page(of: id).row(id)!.summary
            if hit == nil { damaged.append(summary) } else { matches.append(summary) }
        }
    }
}
