import DiaryMarkdown
import DiaryVault
import Foundation

/// The parts of the HTML export: one self-contained page (styles inline, a print stylesheet,
/// nothing loaded from anywhere), a table of contents by year and month, then the entries.
///
/// Nothing an entry holds can run: every title, tag and text is escaped, the Markdown goes
/// through `MarkdownHTML` (raw HTML shown as text, only http, https and mailto links), and the
/// page's Content-Security-Policy allows no script, no frame and no load at all (but images
/// from `data:` URIs, the attachments inline, when entries have attachments), in case anything
/// got through.
struct HTMLDocumentWriter {
    private let calendar: Calendar
    private let dayFormatter: DateFormatter
    private let dayAndTimeFormatter: DateFormatter
    private let monthFormatter: DateFormatter
    private let shortDayFormatter: DateFormatter
    private let language: String

    init(timeZone: TimeZone, locale: Locale) {
        // Entry dates are Gregorian days, whatever the locale's default calendar (as the
        // Markdown document's).
        var calendar = Calendar(identifier: .gregorian)
        calendar.locale = locale
        calendar.timeZone = timeZone
        self.calendar = calendar
        func formatter(_ template: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = locale
            formatter.calendar = calendar
            formatter.timeZone = timeZone
            formatter.gregorianStartDate = .distantPast
            formatter.setLocalizedDateFormatFromTemplate(template)
            return formatter
        }
        dayFormatter = formatter("yMMMMEEEEd")
        dayAndTimeFormatter = formatter("yMMMMEEEEdjmm")
        monthFormatter = formatter("LLLLy")
        shortDayFormatter = formatter("MMMd")
        // Only letters, digits and '-' reach the attribute.
        let code = locale.language.languageCode?.identifier ?? "en"
        language = code.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } ? code : "en"
    }

    /// The page's head, its title and the table of contents of `entries` (in the export's order).
    /// When an entry has attachments, the policy also allows images from `data:` URIs (the
    /// images inline, `HTMLAttachments`), and nothing else more.
    func opening(_ entries: [EntrySummary]) -> String {
        let images = entries.contains { !$0.attachments.isEmpty } ? " img-src data:;" : ""
        var out = """
            <!DOCTYPE html>
            <html lang="\(language)">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none';\(images) style-src 'unsafe-inline'; \
            form-action 'none'; base-uri 'none'">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Diary</title>
            <style>
            \(HTMLStyle.sheet)</style>
            </head>
            <body>
            <header class="cover">
            <h1>Diary</h1>

            """
        if let first = entries.first, let last = entries.last {
            let count = "\(entries.count) \(entries.count == 1 ? "entry" : "entries")"
            let span = [first, last].map { MarkdownHTML.escaped(dayFormatter.string(from: $0.date)) }
            out += "<p class=\"summary\">\(count) · \(span[0]) – \(span[1])</p>\n"
        }
        out += "</header>\n" + contents(entries) + "<main>\n"
        return out
    }

    /// The table of contents: years, their months, and each entry's day and title as a link.
    private func contents(_ entries: [EntrySummary]) -> String {
        guard !entries.isEmpty else { return "" }
        var out = "<nav class=\"toc\">\n<h2>Contents</h2>\n<ul>\n"
        var year: Int?
        var month: String?
        for entry in entries {
            let (y, m) = (calendar.component(.year, from: entry.date), monthID(entry.date))
            if y != year {
                if year != nil { out += "</ul></li>\n</ul></li>\n" }
                out += "<li class=\"year\">\(y)\n<ul>\n"
                (year, month) = (y, nil)
            }
            if m != month {
                if month != nil { out += "</ul></li>\n" }
                let name = MarkdownHTML.escaped(monthFormatter.string(from: entry.date))
                out += "<li class=\"month\"><a href=\"#\(m)\">\(name)</a>\n<ul>\n"
                month = m
            }
            let day = MarkdownHTML.escaped(shortDayFormatter.string(from: entry.date))
            let title = MarkdownHTML.escaped(EntryText.displayTitle(entry.title))
            let star = entry.starred ? " <span class=\"star\" title=\"starred\">★</span>" : ""
            out += "<li><span class=\"day\">\(day)</span><a href=\"#\(anchor(entry.id))\">\(title)</a>\(star)</li>\n"
        }
        return out + "</ul></li>\n</ul></li>\n</ul>\n</nav>\n"
    }

    /// One entry, after a month heading when its month differs from `previous`'s.
    func article(_ entry: Entry, previous: Date?) -> String {
        articleOpening(entry, previous: previous) + Self.articleClosing
    }

    /// The end of an article, after its attachments.
    static let articleClosing = "</article>\n\n"

    /// An article up to its text's end (its attachments and `articleClosing` follow).
    func articleOpening(_ entry: Entry, previous: Date?) -> String {
        var out = ""
        let m = monthID(entry.date)
        if previous.map(monthID) != m {
            let name = MarkdownHTML.escaped(monthFormatter.string(from: entry.date))
            out += "<h2 class=\"month\" id=\"\(m)\">\(name)</h2>\n"
        }
        let date = (entry.isCalendarDay ? dayFormatter : dayAndTimeFormatter).string(from: entry.date)
        var meta = ["<span class=\"date\">\(MarkdownHTML.escaped(date))</span>"]
        if entry.starred { meta.append("<span class=\"star\">★ starred</span>") }
        if !entry.tags.isEmpty {
            meta.append(
                entry.tags.map { "<span class=\"tag\">#\(MarkdownHTML.escaped($0))</span>" }.joined(separator: " "))
        }
        if let device = Vault.captureDevice(ofSource: entry.source) {
            meta.append("<span class=\"source\">from capture device \(MarkdownHTML.escaped(device))</span>")
        }
        let (title, body) = Self.titleAndBody(entry)
        out += """
            <article id="\(anchor(entry.id))">
            <h3>\(MarkdownHTML.escaped(EntryText.displayTitle(title)))</h3>
            <p class="meta">\(meta.joined(separator: " · "))</p>
            <div class="text">
            \(MarkdownHTML.render(Markdown.parse(body), headingOffset: 3))</div>

            """
        return out
    }

    static let closing = "</main>\n</body>\n</html>\n"

    /// `e-` and the lowercase UUID: only hex digits and '-'.
    private func anchor(_ id: UUID) -> String { "e-" + id.uuidString.lowercased() }

    /// `m-YYYY-MM`, the month's anchor.
    private func monthID(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month], from: date)
        return String(format: "m-%04d-%02d", c.year ?? 0, c.month ?? 0)
    }

    /// The whole title line and the text after it. `Entry.title` is cut to the index's length
    /// (a cut title would lose words), and lines are split at the scalar "\n" here, so a text
    /// with "\r\n" line ends (one Character each) still has a title line and a body.
    static func titleAndBody(_ entry: Entry) -> (title: String, body: String) {
        let lines = entry.text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { !EntryText.isBlank(String($0)) }) else { return (entry.title, "") }
        let title = String(lines[index]).trimmingCharacters(in: .whitespacesAndNewlines)
        let body = lines[(index + 1)...].map(String.init).joined(separator: "\n")
        return (title.isEmpty ? entry.title : title, body)
    }
}
