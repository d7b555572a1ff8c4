import DiaryApp
import DiaryVault
import Foundation

/// The lines of `list` and `search`: `1b4e28ba  Sep 15, 2023   9:30 PM  ★ Title  #tag #tag`,
/// with `★ + Title` for an entry with attachments when a listed one has some.
///
/// The columns line up whatever the dates' widths (`Sep 5` and `Sep 15`, `2023년 9월 5일`):
/// each date is padded to the widest listed, counted in terminal columns; so is the time of
/// day (in the locale's short style, `9:30 PM` or `21:30`), which an entry dated by a whole day
/// leaves blank, and which is left out when no listed entry has one. The title is shown as
/// `EntryFormat.displayTitle` gives it (a Markdown heading without its `#`s), and a tag written
/// in it (`#habit`) is not repeated after it. The ids are as short as they can be while still
/// naming one entry (at least 8 hex digits), as git's abbreviated hashes grow: unique in the
/// whole vault when the caller passes it (`Vault.uniquePrefixLength`), else among the listed
/// entries. On a terminal of known width, a line that would wrap has its title cut with `…`
/// (tags are kept while the title keeps a useful width).
enum ListLayout {
    /// The fewest hex digits an id is shown with (what `resolve` has always been given back).
    static let minimumIDLength = 8
    /// A title is not cut shorter than this to keep the tags on the line.
    static let minimumTitleColumns = 16
    /// Marks an entry with attachments, after the star's column: plain ASCII, so that it reads
    /// the same in a pipe, a log or a terminal without the glyphs of a paperclip.
    static let attachmentMark = "+"

    /// The lines for `summaries`, in their order. `columns`: the terminal's width, or nil for
    /// none (a pipe: nothing is cut).
    static func lines(
        _ summaries: [EntrySummary], vault: Vault?, columns: Int?, style: Style = Style()
    ) throws -> [String] {
        let ids = summaries.map(\.id)
        let idLength = try vault?.uniquePrefixLength(of: ids, minimum: minimumIDLength) ?? uniqueLength(ids)
        // Formatted once: a date costs more to format than the rest of its line.
        let dates = Column(summaries.map { DateOutput.day($0.date) })
        let times = Column(summaries.map { $0.isCalendarDay || DateOutput.hasPattern ? "" : DateOutput.time($0.date) })
        // The attachment marker's column only when a listed entry has some: listings of
        // entries without attachments stay as they were.
        let marks = summaries.contains { !$0.attachments.isEmpty }
        let between = 2 + dates.width + 2 + (times.width > 0 ? times.width + 2 : 0) + 2 + (marks ? 2 : 0)
        return summaries.indices.map { i in
            let s = summaries[i]
            let id = shortID(s.id, hexDigits: idLength)
            let star = s.starred ? style.yellow("★") : " "
            let (title, tags) = titleAndTags(s, room: columns.map { $0 - id.count - between })
            var line = "\(style.dim(id))  \(dates.padded(i))  "
            if times.width > 0 { line += times.padded(i, right: true) + "  " }
            line += "\(star) "
            if marks { line += s.attachments.isEmpty ? "  " : "\(attachmentMark) " }
            line += title
            if !tags.isEmpty { line += "  " + style.cyan(tags) }
            return line
        }
    }

    /// The title as shown and the tags not already written in it, cut to `room` columns when
    /// it is given. A tag the cut took out of the title follows it again. A `#word` of the
    /// title that is not one of the entry's tags (taken off with `diary tag ID -word`) follows
    /// it as `-#word`, so that the line does not read as if the entry had the tag.
    static func titleAndTags(_ s: EntrySummary, room: Int?) -> (title: String, tags: String) {
        let title = Printable.escaped(EntryFormat.displayTitle(s.title))
        func tags(shownIn title: String) -> String {
            let written = InlineTags.find(in: title)
            let after = s.tags.filter { tag in !written.contains { EntryText.sameTag($0, tag) } }
            var untagged: [String] = []
            for word in written
            where !s.tags.contains(where: { EntryText.sameTag($0, word) })
                && !untagged.contains(where: { EntryText.sameTag($0, word) })
            {
                untagged.append(word)
            }
            let parts =
                (after.isEmpty ? [] : [EntryFormat.tagList(after)]) + untagged.map { "-#" + Printable.escaped($0) }
            return parts.joined(separator: " ")
        }
        let all = tags(shownIn: title)
        guard let room else { return (title, all) }
        let fitted = fit(title: title, tags: all, columns: room)
        let lost = tags(shownIn: fitted.title)
        guard fitted.title != title, lost != all else { return fitted }
        return fit(title: title, tags: lost, columns: room)
    }

    /// Cells padded to the widest, in terminal columns.
    private struct Column {
        let cells: [String]
        let widths: [Int]
        let width: Int

        init(_ cells: [String]) {
            self.cells = cells
            widths = cells.map(DisplayWidth.of)
            width = widths.max() ?? 0
        }

        func padded(_ i: Int, right: Bool = false) -> String {
            let padding = String(repeating: " ", count: width - widths[i])
            return right ? padding + cells[i] : cells[i] + padding
        }
    }

    /// The title cut to `room` columns with the tags after it, or, when that would leave the
    /// title less than `minimumTitleColumns`, the title alone cut to `room`.
    static func fit(title: String, tags: String, columns room: Int) -> (title: String, tags: String) {
        let tagColumns = tags.isEmpty ? 0 : 2 + DisplayWidth.of(tags)
        guard DisplayWidth.of(title) + tagColumns > room else { return (title, tags) }
        if !tags.isEmpty && room - tagColumns >= minimumTitleColumns {
            return (DisplayWidth.cut(title, to: room - tagColumns), tags)
        }
        return (DisplayWidth.cut(title, to: max(1, room)), "")
    }

    /// The id's first `hexDigits` hex digits, with the UUID's dashes among them (`1b4e28ba-2f`),
    /// so the short id reads as the start of the full one; `resolve` ignores the dashes.
    static func shortID(_ id: UUID, hexDigits: Int) -> String {
        var digits = 0
        var short = ""
        for c in EntryFormat.fullID(id) {
            if digits == hexDigits { break }
            short.append(c)
            if c != "-" { digits += 1 }
        }
        return short
    }

    /// The fewest hex digits, at least `minimumIDLength`, at which `ids` all differ: sorted,
    /// only neighbours can share the longest prefixes.
    static func uniqueLength(_ ids: [UUID]) -> Int {
        let hex = ids.map { Array(EntryFormat.fullID($0).utf8.filter { $0 != UInt8(ascii: "-") }) }
            .sorted { $0.lexicographicallyPrecedes($1) }
        var length = minimumIDLength
        for (a, b) in zip(hex, hex.dropFirst()) {
            var shared = 0
            while shared < a.count, shared < b.count, a[shared] == b[shared] { shared += 1 }
            length = max(length, min(shared + 1, a.count))
        }
        return length
    }
}
