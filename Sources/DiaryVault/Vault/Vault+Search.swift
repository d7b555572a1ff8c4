import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Entries whose text contains `query`, ignoring case and diacritics (Unicode aware),
    /// newest first; as `search(all:filter:)` with one term.
    public func search(_ query: String, filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        try search(all: [query], filter: filter)
    }

    /// Entries whose text contains every one of `terms` (in any order, anywhere), ignoring case
    /// and diacritics (Unicode aware), newest first. A term is matched as it is, spaces
    /// included, so a phrase is one term; blank terms are ignored. Only entries that pass `filter` are decrypted. Entries that fail to open,
    /// or are not the copy the index recorded, are skipped and named in `damagedDuringLastSearch`
    /// (newest first). Entries the index does not list are not searched.
    public func search(all terms: [String], filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        var unlimited = filter
        unlimited.limit = nil
        let queries = terms.map { TextMatcher.Query($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        let matcher = EntryBatchMatcher(vaultID: header.vaultID, keyRing: keyRing, queries: queries)
        var matches: [EntrySummary] = []
        var damaged: [EntrySummary] = []
        var differing: [(EntrySummary, [UInt8])] = []
        var pending: [(id: UUID, sealed: [UInt8])] = []
        pending.reserveCapacity(EntryBatchMatcher.batchSize)
        var inFlight: EntryBatchMatcher.Job?
        func report(_ results: [(id: UUID, hit: Bool?)], _ summary: (UUID) -> EntrySummary) {
            for (id, hit) in results {
                switch hit {
                case nil: damaged.append(summary(id))
                case true?: matches.append(summary(id))
                case false?: break
                }
            }
        }
        /// Hands what is pending to the matcher, which works on it while the scan reads the
        /// next batch; first collects the batch handed over before.
        func flush(_ summary: (UUID) -> EntrySummary) {
            if let job = inFlight { report(matcher.finish(job), summary) }
            inFlight = pending.isEmpty ? nil : matcher.start(pending)
            pending.removeAll(keepingCapacity: true)
        }
        /// Flushes and waits for the last batch.
        func drain(_ summary: (UUID) -> EntrySummary) {
            flush(summary)
            if let job = inFlight { report(matcher.finish(job), summary) }
            inFlight = nil
        }
        try sealedIndex.ensureAllPages()
        // Every page is in memory now; the scan reads rows from this copy in place.
        let index = sealedIndex.index
        func indexed(_ id: UUID) -> EntrySummary { index.page(of: id).row(id)!.summary }
        // Rows are read in place from the pages: a summary (strings) is built only for the
        // entries reported.
        func take(_ id: UUID, _ sealed: [UInt8]) {
            let page = index.page(of: id)
            let (found, row) = page.position(of: id)
            guard found, IndexListing.passes(unlimited, page, row) else { return }
            // Not the copy the index recorded: written since by another process, or an older
            // copy put back. Decided below, never matched stale.
            guard page.sealTag(ofRowAt: row).matches(sealed) else {
                return differing.append((page.summary(at: row), sealed))
            }
            pending.append((id, sealed))
            if pending.count == EntryBatchMatcher.batchSize { flush(indexed) }
        }
        do {
            // One snapshot, read in the store's own order (SQLite: one cursor over the table;
            // files: one directory listing): a lookup per id cost more than decrypting.
            try storeCall {
                try backend.withSnapshot { reader in
                    try reader.forEachEntry { id, sealed in take(id, sealed) }
                }
            }
            drain(indexed)
        } catch {
            // A row or file that cannot be read stops the scan. Start over with one lookup per
            // id, so the failure is contained to the entries it hits, as a damaged entry should be.
            if let job = inFlight { _ = matcher.finish(job) }  // its results are read again below
            (matches, damaged, differing, pending, inFlight) = ([], [], [], [], nil)
            let summaries = try list(unlimited)
            try storeCall {
                try backend.withSnapshot { reader in
                    for summary in summaries {
                        let stored: [UInt8]?
                        do { stored = try reader.readEntry(summary.id) } catch {
                            damaged.append(summary)
                            continue
                        }
                        guard let sealed = stored else { continue }  // deleted meanwhile
                        take(summary.id, sealed)
                    }
                }
            }
            drain(indexed)
        }
        if !differing.isEmpty {
            try sealedIndex.load()
            for (summary, sealed) in differing {
                if try sealedIndex.recordsSeal(sealed, of: summary.id) {
                    // Reported as the index now has it (another process may have retitled it).
                    let current = sealedIndex.index.pages[IndexLayout.page(of: summary.id)]?.row(summary.id)?.summary
                    pending = [(summary.id, sealed)]
                    drain { _ in current ?? summary }
                } else {
                    damaged.append(summary)
                }
            }
        }
        // The scan ran in store order: only the matches need sorting, not every row.
        matches.sort(by: EntrySummary.newestFirst)
        if let limit = filter.limit { matches = Array(matches.prefix(max(limit, 0))) }
        damagedDuringLastSearch = damaged.sorted(by: EntrySummary.newestFirst).map(\.id)
        return matches
    }
}
