import DiaryApp
import DiaryVault
import Foundation

/// How entries look on stdout: one line per entry for people, sorted-key JSON for programs.
enum EntryFormat {
    /// The first 8 hex digits of the id: what `list` shows and what `resolve` accepts back.
    static func shortID(_ id: UUID) -> String { String(fullID(id).prefix(8)) }

    /// The lowercase UUID, the form printed by `new` and in JSON.
    static func fullID(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// A title as people read it (`EntryText.displayTitle`: a Markdown heading without its
    /// `#`s); `--json` keeps the stored title.
    static func displayTitle(_ title: String) -> String { EntryText.displayTitle(title) }

    /// `#tag #tag`, control characters escaped.
    static func tagList(_ tags: [String], raw: Bool = false) -> String {
        let list = tags.map { "#\($0)" }.joined(separator: " ")
        return raw ? list : Printable.escaped(list)
    }

    /// How `show` treats control characters: `.escaped` escapes them in the header and the
    /// text, which is rendered as Markdown (a terminal); `.escapedHeader` only in the header (a pipe: the text is data);
    /// `.raw` nowhere (`--raw`).
    enum Controls { case escaped, escapedHeader, raw }

    /// The whole entry for `show`: the title (bold), a short header, a blank line, the rest
    /// of the text. The title is the text's first line that is not blank, so it is printed
    /// once, at the top (the blank lines before it are left out).
    static func full(_ e: Entry, controls: Controls, style: Style = Style()) -> String {
        // The whole title line (`title` is cut to the index's length), split at "\n" alone as
        // titles are: a "\r" inside a title is shown escaped, not taken as a line break.
        let scalars = e.text.unicodeScalars
        var start = scalars.startIndex
        var newline = scalars[start...].firstIndex(of: "\n")
        while let end = newline, String(scalars[start..<end]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            start = scalars.index(after: end)
            newline = scalars[start...].firstIndex(of: "\n")
        }
        let firstLine = scalars[start..<(newline ?? scalars.endIndex)]
        let trimmed = String(firstLine).trimmingCharacters(in: .whitespacesAndNewlines)
        let heading = displayTitle(trimmed.isEmpty ? e.title : trimmed)
        let body = newline.map { String(scalars[scalars.index(after: $0)...]) } ?? ""
        var header = [
            style.bold(controls == .raw ? heading : Printable.escaped(heading)),
            "\(style.dim("id:      ")) \(fullID(e.id))",
            "\(style.dim("date:    ")) \(e.isCalendarDay ? DateOutput.day(e.date) : DateOutput.dayAndTime(e.date))",
            "\(style.dim("created: ")) \(DateOutput.dayAndTime(e.created))",
            "\(style.dim("modified:")) \(DateOutput.dayAndTime(e.modified))",
        ]
        if e.starred { header.append("\(style.dim("starred: ")) \(style.yellow("★"))") }
        if !e.tags.isEmpty { header.append("\(style.dim("tags:    ")) \(tagList(e.tags, raw: controls == .raw))") }
        if let device = Vault.captureDevice(ofSource: e.source) {
            header.append("\(style.dim("from:    ")) capture device \(Printable.escaped(device))")
        }
        // The blank lines that usually follow a title would only push the text further down.
        let rest = String(body.drop { $0 == "\n" || $0 == "\r\n" })
        var shown = header.joined(separator: "\n")
        // On a terminal the Markdown is rendered, every text in it escaped (`MarkdownTerminal`).
        if !rest.isEmpty {
            shown += "\n\n" + (controls == .escaped ? MarkdownTerminal.render(rest, style: style) : rest)
        }
        // After the text, which `--raw` prints alone.
        guard controls != .raw, !e.attachments.isEmpty else { return shown }
        return shown + (shown.hasSuffix("\n") ? "\n" : "\n\n") + AttachmentLines.shown(e.attachments, style: style)
    }

    /// The JSON shape of `list`, `search` and `show --json`.
    struct Record: Encodable {
        let id: String
        let title: String
        let date: String
        let created: String
        let modified: String
        let starred: Bool
        let tags: [String]
        let size: Int?
        let text: String?
        /// Where the entry came from (`jrnl:…` for an import, `capture:NAME` for a capture);
        /// absent for an entry written here.
        let source: String?
        /// `list` and `search` know only each attachment's name and size (from the index).
        let attachments: [AttachmentLines.JSON]

        init(_ s: EntrySummary) {
            id = fullID(s.id); title = s.title; date = DateOutput.iso(s.date)
            created = DateOutput.iso(s.created); modified = DateOutput.iso(s.modified)
            starred = s.starred; tags = s.tags; size = s.size; text = nil; source = s.source
            attachments = s.attachments.map(AttachmentLines.JSON.init)
        }

        init(_ e: Entry) {
            id = fullID(e.id); title = e.title; date = DateOutput.iso(e.date)
            created = DateOutput.iso(e.created); modified = DateOutput.iso(e.modified)
            starred = e.starred; tags = e.tags; size = e.text.utf8.count; text = e.text; source = e.source
            attachments = e.attachments.map(AttachmentLines.JSON.init)
        }
    }

    /// Sorted keys, pretty-printed, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Prints `summaries` as lines or as a JSON array, through the pager when `pager` allows
    /// it (see `Pager`). On a terminal the lines are cut to its width. Short ids are unique in
    /// `vault` when it is given, else among `summaries` (see `ListLayout`).
    static func printList(_ summaries: [EntrySummary], json: Bool, pager: Bool = false, vault: Vault? = nil) throws {
        if json {
            try Pager.data(try EntryFormat.json(summaries.map(Record.init)), allowed: pager)
        } else if !summaries.isEmpty {
            let lines = try ListLayout.lines(summaries, vault: vault, columns: TerminalSize.ofStdout?.columns)
            try Pager.data(lines.joined(separator: "\n"), allowed: pager)
        }
    }
}
