import DiaryApp
import Foundation

/// What `diary search` shows under an entry's line on a terminal: the lines of its text that
/// hold a match (at most `maximumLines`), indented, cut to the terminal's width around the
/// first match, each match in bold (when colour is on), as `grep --color` marks them.
///
/// Only for a person at a terminal: into a pipe `search` prints the lines `list` prints, so
/// scripts see the same shape from both.
enum SearchContext {
    static let maximumLines = 3
    static let indent = "    "

    /// The context lines for `text`, ready to print: control characters escaped (`Printable`),
    /// matches marked with `style`. The title (the first line) is already on the entry's own
    /// line, so it is shown again only when nothing below it matches.
    static func lines(of text: String, terms: [String], style: Style, width: Int) -> [String] {
        let all = text.split(whereSeparator: \.isNewline)
        var candidates = all.dropFirst().map { ($0, matches(in: String($0), terms: terms)) }.filter { !$0.1.isEmpty }
        if candidates.isEmpty, let title = all.first {
            candidates = [(title, matches(in: String(title), terms: terms))].filter { !$0.1.isEmpty }
        }
        return candidates.prefix(maximumLines).map { line, found in
            // A tab would move the rest of the line by a varying amount; a space keeps the cut honest.
            let characters = Array(String(line).replacingOccurrences(of: "\t", with: " "))
            return indent + render(characters, found, style: style, width: max(width - indent.count, 20))
        }
    }

    /// Where the terms occur in `line`, as character offsets, sorted, overlaps merged. The same
    /// comparison as the search itself: case- and diacritic-insensitive.
    static func matches(in line: String, terms: [String]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for term in terms {
            var from = line.startIndex
            while from < line.endIndex,
                let r = line.range(
                    of: term, options: [.caseInsensitive, .diacriticInsensitive], range: from..<line.endIndex)
            {
                let start = line.distance(from: line.startIndex, to: r.lowerBound)
                found.append(start..<(start + line.distance(from: r.lowerBound, to: r.upperBound)))
                from = r.upperBound > r.lowerBound ? r.upperBound : line.index(after: r.lowerBound)
            }
        }
        var merged: [Range<Int>] = []
        for r in found.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, r.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        return merged
    }

    /// `characters` cut to `width` columns around the first match (an ellipsis where text was
    /// cut), each piece escaped on its own so that escaping cannot split a mark.
    private static func render(_ characters: [Character], _ found: [Range<Int>], style: Style, width: Int) -> String {
        // A control character is shown escaped, so it takes room though a terminal would draw
        // it in none: every character counts at least one column.
        let columns = characters.map { max(1, DisplayWidth.of($0)) }
        var window = 0..<characters.count
        if columns.reduce(0, +) > width {
            // Up to a quarter of the width before the first match, so it is read in its sentence.
            var start = found[0].lowerBound
            var before = 0
            while start > 0, before + columns[start - 1] <= width / 4 {
                start -= 1
                before += columns[start]
            }
            var end = start
            var used = 0
            while end < characters.count, used + columns[end] <= width - 2 {
                used += columns[end]
                end += 1
            }
            window = start..<end
        }
        var out = window.lowerBound > 0 ? "…" : ""
        var at = window.lowerBound
        for r in found where r.upperBound > window.lowerBound && r.lowerBound < window.upperBound {
            let piece = max(r.lowerBound, window.lowerBound)..<min(r.upperBound, window.upperBound)
            out += Printable.escaped(String(characters[at..<piece.lowerBound]))
            out += style.match(Printable.escaped(String(characters[piece])))
            at = piece.upperBound
        }
        out += Printable.escaped(String(characters[at..<window.upperBound]))
        if window.upperBound < characters.count { out += "…" }
        return out
    }

    /// The terminal's width in columns (`COLUMNS` when set, as tests and `watch` do), else 80.
    static var terminalWidth: Int {
        if let columns = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? ""), columns > 0 { return columns }
        return TerminalSize.ofStdout?.columns ?? 80
    }
}

extension Style {
    /// A search match: bold red, grep's colour for a match.
    func match(_ s: String) -> String { wrap(s, "1;31") }
}
