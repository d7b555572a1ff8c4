import DiaryCrypto
import Foundation

extension Vault {
    /// Entries whose text contains `query`, ignoring case and diacritics (Unicode aware),
    /// newest first. Only entries that pass `filter` are decrypted. Entries that fail to open,
    /// or are not the copy the index recorded, are skipped and named in `damagedDuringLastSearch`
    /// (newest first). Entries the index does not list are not searched.
    public func search(_ query: String, filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        var unlimited = filter
        unlimited.limit = nil
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        let prepared = TextMatcher.Query(needle)
        // One guarded buffer for every entry's plaintext, zeroed after each entry (see
        // `PlaintextBuffer`): no per-entry arrays or Strings hold decrypted text.
        let buffer = PlaintextBuffer()
        var matches: [EntrySummary] = []
        var damaged: [EntrySummary] = []
        var differing: [(EntrySummary, [UInt8])] = []
        func consider(_ summary: EntrySummary, _ sealed: [UInt8]) {
            let hit = try? Envelope.open(
                sealed, kind: .entry, objectID: summary.id, vaultID: header.vaultID, keyRing: keyRing, into: buffer
            ) { plaintext in
                // Parsed as strictly as `openEntry` does, even when the query is empty.
                let text = try EntryCodec.text(in: plaintext, textLimit: Self.maximumTextBytes)
                return needle.isEmpty || TextMatcher.contains(text, prepared)
            }
            switch hit {
            case nil: damaged.append(summary)
            case true?: matches.append(summary)
            case false?: break
            }
        }
        func take(_ summary: EntrySummary, _ sealed: [UInt8]) {
            // Not the copy the index recorded: written since by another process, or an older
            // copy put back. Decided below, never matched stale.
            guard matchesIndex(sealed, id: summary.id) else { return differing.append((summary, sealed)) }
            consider(summary, sealed)
        }
        do {
            // One snapshot, read in the store's own order (SQLite: one cursor over the table;
            // files: one directory listing): a lookup per id cost more than decrypting.
            try storeCall {
                try backend.withSnapshot { reader in
                    try reader.forEachEntry { id, sealed in
                        guard let summary = index.rows[id]?.summary, unlimited.matches(summary) else { return }
                        take(summary, sealed)
                    }
                }
            }
        } catch {
            // A row or file that cannot be read stops the scan. Start over with one lookup per
            // id, so the failure is contained to the entries it hits, as a damaged entry should be.
            (matches, damaged, differing) = ([], [], [])
            try storeCall {
                try backend.withSnapshot { reader in
                    for summary in list(unlimited) {
                        let stored: [UInt8]?
                        do { stored = try reader.readEntry(summary.id) } catch {
                            damaged.append(summary)
                            continue
                        }
                        guard let sealed = stored else { continue }  // deleted meanwhile
                        take(summary, sealed)
                    }
                }
            }
        }
        if !differing.isEmpty {
            (index, indexState) = try loadIndex()
            for (summary, sealed) in differing {
                if matchesIndex(sealed, id: summary.id) { consider(summary, sealed) } else { damaged.append(summary) }
            }
        }
        // The scan ran in store order: only the matches need sorting, not every row.
        matches.sort(by: Self.newestFirst)
        if let limit = filter.limit { matches = Array(matches.prefix(max(limit, 0))) }
        damagedDuringLastSearch = damaged.sorted(by: Self.newestFirst).map(\.id)
        return matches
    }
}
