import DiaryMarkdown
import Foundation

/// The entry point of the libFuzzer target for Markdown (`Fuzz/Sources/FuzzMarkdown`): any
/// text, parsed by cmark-gfm and rendered to HTML as the HTML export renders an entry. A crash
/// is a bug, and so is markup from the text reaching the HTML (`MarkdownMarkup.foreign`).
public enum MarkdownFuzzEntryPoints {
    /// Traps when the HTML holds markup the renderer does not make; true otherwise.
    @discardableResult
    public static func html(_ bytes: [UInt8]) -> Bool {
        let html = MarkdownHTML.render(Markdown.parse(String(decoding: bytes, as: UTF8.self)), headingOffset: 3)
        if let foreign = MarkdownMarkup.foreign(in: html) { preconditionFailure("foreign markup <\(foreign)>") }
        return true
    }
}

/// What `MarkdownHTML` may write: its own elements, and only the attributes it makes.
public enum MarkdownMarkup {
    static let elements: Set<String> = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code", "hr", "em", "strong",
        "a", "span", "br",
    ]

    /// The inside of the first tag in `html` that the renderer does not make (an element it
    /// never writes, or an attribute other than a safe `href`, an `ol`'s `start` or its own
    /// classes), or nil when there is none.
    public static func foreign(in html: String) -> String? {
        // By scalars, as a browser reads HTML: a `>` followed by a combining mark is one
        // Character, which a search for the Character ">" would step over.
        let scalars = html.unicodeScalars
        var next = scalars.startIndex
        while let open = scalars[next...].firstIndex(of: "<") {
            guard let close = scalars[open...].firstIndex(of: ">") else { return String(scalars[open...]) }
            let inside = String(scalars[scalars.index(after: open)..<close])
            next = scalars.index(after: close)
            if inside.hasPrefix("/") {
                guard elements.contains(String(inside.dropFirst())) else { return String(inside) }
                continue
            }
            let name = String(inside.prefix { $0 != " " })
            guard elements.contains(name) else { return String(inside) }
            let attributes = inside.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
            guard !attributes.isEmpty else { continue }
            let allowed =
                attributes.range(
                    of: #"^href="(https?:|mailto:|#)[^"<>\s]*"$"#, options: [.regularExpression, .caseInsensitive])
                ?? attributes.range(of: #"^start="-?[0-9]+"$"#, options: .regularExpression)
                ?? attributes.range(of: #"^class="(raw-html|image)"$"#, options: .regularExpression)
            if allowed == nil { return String(inside) }
        }
        return nil
    }
}
