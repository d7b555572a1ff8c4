import DiaryApp
import DiaryVault
import Foundation

/// One entry of `diary read`: a heading line with its date, star and tags, a rule, and the
/// whole text under it.
///
/// `rendered` (a terminal): the text is Markdown rendered with every text in it escaped
/// (`MarkdownTerminal`). Otherwise (a pipe, a file) the text is printed as it is stored, as
/// `show` prints it into a pipe; the heading's tags are escaped either way.
struct BookFormat {
    let rendered: Bool
    let style: Style

    init(rendered: Bool, style: Style = Style()) {
        self.rendered = rendered
        self.style = style
    }

    /// A weekday and the full date, as the locale writes them (`Monday, January 1, 2024`).
    private static let dayFormatter = DateOutput.context.formatter(template: "yMMMMEEEEd")
    private static let dayAndTimeFormatter = DateOutput.context.formatter(template: "yMMMMEEEEdjmm")

    /// The heading line, without styles: date (and time of day), star, tags.
    static func heading(_ entry: Entry) -> String {
        let formatter = entry.isCalendarDay ? dayFormatter : dayAndTimeFormatter
        var parts = [formatter.string(from: entry.date)]
        if entry.starred { parts.append("★") }
        if !entry.tags.isEmpty { parts.append(EntryFormat.tagList(entry.tags)) }
        return parts.joined(separator: "  ")
    }

    /// The entry's section, ending with a newline.
    func section(_ entry: Entry) -> String {
        let heading = Self.heading(entry)
        let rule = String(repeating: "─", count: max(1, DisplayWidth.of(heading)))
        let text: String
        if rendered {
            text = MarkdownTerminal.render(entry.text, style: style)
        } else {
            text = entry.text
        }
        let body = text.isEmpty || text.hasSuffix("\n") ? text : text + "\n"
        return "\(style.bold(heading))\n\(style.dim(rule))\n\(body)"
    }
}
