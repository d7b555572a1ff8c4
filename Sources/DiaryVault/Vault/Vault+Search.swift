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
        for summary in list(unlimited) {
            if let limit = filter.limit, matches.count >= limit { break }
            let entry: Entry
            do {
                entry = try self.entry(summary.id)
            } catch VaultError.unknownID {
                continue
            } catch {
                damaged.append(summary.id)
                continue
            }
            if needle.isEmpty || TextMatcher.contains(entry.text, needle) { matches.append(summary) }
        }
        damagedDuringLastSearch = damaged
        return matches
    }
}

/// Case- and diacritic-insensitive substring matching.
enum TextMatcher {
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        haystack.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }
}
