import Foundation

extension Vault {
    /// Entries whose text contains `query`, ignoring case and diacritics (Unicode aware),
    /// newest first. Only entries that pass `filter` are decrypted. Entries that fail to open,
    /// or are not the copy the index recorded, are skipped and named in `damagedDuringLastSearch`.
    public func search(_ query: String, filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        var unlimited = filter
        unlimited.limit = nil
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        var matches: [EntrySummary] = []
        var damaged: [UUID] = []
        var differing: [(EntrySummary, [UInt8])] = []
        func consider(_ summary: EntrySummary, _ sealed: [UInt8]) {
            guard let entry = try? openEntry(sealed, id: summary.id) else { return damaged.append(summary.id) }
            if needle.isEmpty || TextMatcher.contains(entry.text, needle) { matches.append(summary) }
        }
        // One snapshot for the whole scan: a read transaction (or shared lock) per entry cost
        // more than decrypting it, and the scan now sees one consistent state.
        try storeCall {
            try backend.withSnapshot { reader in
                for summary in try list(unlimited) {
                    if let limit = filter.limit, matches.count >= limit { break }
                    let stored: [UInt8]?
                    do { stored = try reader.readEntry(summary.id) } catch {
                        damaged.append(summary.id)
                        continue
                    }
                    guard let sealed = stored else { continue }  // deleted meanwhile
                    // Not the copy the index recorded: written since by another process, or an
                    // older copy put back. Decided below, never matched stale.
                    guard try matchesIndex(sealed, id: summary.id) else {
                        differing.append((summary, sealed))
                        continue
                    }
                    consider(summary, sealed)
                }
            }
        }
        if !differing.isEmpty {
            (index, indexState) = try loadIndex()
            for (summary, sealed) in differing {
                if try matchesIndex(sealed, id: summary.id) { consider(summary, sealed) } else { damaged.append(summary.id) }
            }
            matches.sort(by: Self.newestFirst)
            if let limit = filter.limit { matches = Array(matches.prefix(limit)) }
        }
        damagedDuringLastSearch = damaged
        return matches
    }
}
