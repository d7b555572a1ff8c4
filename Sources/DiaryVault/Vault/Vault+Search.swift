import Foundation

extension Vault {
    /// Entries whose text contains `query`, ignoring case and diacritics (Unicode aware),
    /// newest first. Only entries that pass `filter` are decrypted. Entries that fail to open
    /// are skipped and named in `damagedDuringLastSearch`.
    public func search(_ query: String, filter: EntryFilter = EntryFilter()) throws -> [EntrySummary] {
        var unlimited = filter
        unlimited.limit = nil
        let needle = query.trimmingCharacters(in: .whitespacesAndNewlines)
        var matches: [EntrySummary] = []
        var damaged: [UUID] = []
        // One snapshot for the whole scan: a read transaction (or shared lock) per entry cost
        // more than decrypting it, and the scan now sees one consistent state.
        try storeCall {
            try backend.withSnapshot { reader in
                for summary in list(unlimited) {
                    if let limit = filter.limit, matches.count >= limit { break }
                    let entry: Entry
                    do {
                        guard let sealed = try reader.readEntry(summary.id) else { continue }
                        entry = try openEntry(sealed, id: summary.id)
                    } catch {
                        damaged.append(summary.id)
                        continue
                    }
                    if needle.isEmpty || TextMatcher.contains(entry.text, needle) { matches.append(summary) }
                }
            }
        }
        damagedDuringLastSearch = damaged
        return matches
    }
}
