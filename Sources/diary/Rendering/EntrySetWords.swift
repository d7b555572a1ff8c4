import DiaryApp
import Foundation

/// What a vault lost, in words: a headline, then one line per entry (id and entry date only:
/// messages never carry entry text).
enum EntrySetWords {
    static func describe(_ report: EntrySetReport, vault: URL) -> [String] {
        let seen = report.seenOn.map { " on " + day($0) } ?? ""
        var parts: [String] = []
        if !report.missing.isEmpty {
            parts.append(
                "\(count(report.missing.count)) this machine saw \(report.missing.count == 1 ? "is" : "are") missing")
        }
        if !report.older.isEmpty {
            parts.append(
                "\(count(report.older.count)) \(report.older.count == 1 ? "is an older copy" : "are older copies")")
        }
        var lines = [
            "error: the vault at \(vault.path) is older than the copy this machine saw\(seen)"
                + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
        ]
        if report.olderKey {
            lines.append("error: its key is older than the one this machine saw (a copy from before `diary rekey`)")
        }
        if report.indexDamaged { lines.append("error: its index is missing or damaged") }
        for entry in report.missing {
            lines.append("  missing:     \(entry.id.uuidString.lowercased())  dated \(day(entry.date))")
        }
        for entry in report.older {
            lines.append("  older copy:  \(entry.id.uuidString.lowercased())  dated \(day(entry.date))")
        }
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
