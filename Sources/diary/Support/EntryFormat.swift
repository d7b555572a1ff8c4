import DiaryVault
import Foundation

/// How entries look on stdout: one line per entry for people, sorted-key JSON for programs.
enum EntryFormat {
    /// The first 8 hex digits of the id: what `list` shows and what `resolve` accepts back.
    static func shortID(_ id: UUID) -> String { String(fullID(id).prefix(8)) }

    /// The lowercase UUID, the form printed by `new` and in JSON.
    static func fullID(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// `1b4e28ba  Sep 15, 2023  ★ Title  #tag #tag`, control characters escaped (`Printable`).
    static func line(_ s: EntrySummary, style: Style = Style()) -> String {
        let star = s.starred ? style.yellow("★") : " "
        var line = "\(style.dim(shortID(s.id)))  \(DateOutput.day(s.date))  \(star) \(Printable.escaped(s.title))"
        if !s.tags.isEmpty { line += "  " + style.cyan(tagList(s.tags)) }
        return line
    }

    /// `#tag #tag`, control characters escaped.
    static func tagList(_ tags: [String], raw: Bool = false) -> String {
        let list = tags.map { "#\($0)" }.joined(separator: " ")
        return raw ? list : Printable.escaped(list)
    }

    /// How `show` treats control characters: `.escaped` escapes them in the header and the
    /// text (a terminal); `.escapedHeader` only in the header (a pipe: the text is data);
    /// `.raw` nowhere (`--raw`).
    enum Controls { case escaped, escapedHeader, raw }

    /// The whole entry for `show`: a short header, a blank line, the text.
    static func full(_ e: Entry, controls: Controls, style: Style = Style()) -> String {
        let title = controls == .raw ? e.title : Printable.escaped(e.title)
        let text = controls == .escaped ? Printable.escaped(e.text, keeping: Printable.layout) : e.text
        var header = [
            style.bold(title),
            "\(style.dim("id:      ")) \(fullID(e.id))",
            "\(style.dim("date:    ")) \(e.isCalendarDay ? DateOutput.day(e.date) : DateOutput.dayAndTime(e.date))",
            "\(style.dim("created: ")) \(DateOutput.dayAndTime(e.created))",
            "\(style.dim("modified:")) \(DateOutput.dayAndTime(e.modified))",
        ]
        if e.starred { header.append("\(style.dim("starred: ")) \(style.yellow("★"))") }
        if !e.tags.isEmpty { header.append("\(style.dim("tags:    ")) \(tagList(e.tags, raw: controls == .raw))") }
        return header.joined(separator: "\n") + "\n\n" + text
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

        init(_ s: EntrySummary) {
            id = fullID(s.id); title = s.title; date = DateOutput.iso(s.date)
            created = DateOutput.iso(s.created); modified = DateOutput.iso(s.modified)
            starred = s.starred; tags = s.tags; size = s.size; text = nil
        }

        init(_ e: Entry) {
            id = fullID(e.id); title = e.title; date = DateOutput.iso(e.date)
            created = DateOutput.iso(e.created); modified = DateOutput.iso(e.modified)
            starred = e.starred; tags = e.tags; size = e.text.utf8.count; text = e.text
        }
    }

    /// Sorted keys, pretty-printed, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Prints `summaries` as lines or as a JSON array.
    static func printList(_ summaries: [EntrySummary], json: Bool) throws {
        if json {
            Output.data(try EntryFormat.json(summaries.map(Record.init)))
        } else {
            let style = Style()
            for s in summaries { Output.data(line(s, style: style)) }
        }
    }
}
