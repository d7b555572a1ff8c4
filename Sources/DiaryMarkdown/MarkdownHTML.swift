/// Markdown as HTML in which nothing an entry holds can run or load.
///
/// cmark-gfm's own renderer with CMARK_OPT_SAFE would drop raw HTML and dangerous links; this
/// one walks the tree instead, so what was written stays visible: every text (raw HTML
/// included) is escaped, only `http:`, `https:` and `mailto:` links and `#` anchors become
/// links (any other link is shown as its text and its address), and no image is loaded (its
/// alt text and address are shown), so an exported file reaches nothing outside itself.
public enum MarkdownHTML {
    /// The HTML of `blocks`; headings move down `headingOffset` levels (at most `<h6>`), so an
    /// entry's `# Title` sits below the document's own headings.
    public static func render(_ blocks: [MarkdownBlock], headingOffset: Int = 0) -> String {
        var out = ""
        for block in blocks { render(block, headingOffset: headingOffset, into: &out) }
        return out
    }

    private static func render(_ block: MarkdownBlock, headingOffset: Int, into out: inout String) {
        switch block {
        case .paragraph(let inlines):
            out += "<p>\(render(inlines))</p>\n"
        case .heading(let level, let inlines):
            let h = min(6, max(1, level + headingOffset))
            out += "<h\(h)>\(render(inlines))</h\(h)>\n"
        case .quote(let blocks):
            out += "<blockquote>\n\(render(blocks, headingOffset: headingOffset))</blockquote>\n"
        case .list(let ordered, let start, let items):
            let open = ordered ? (start == 1 ? "<ol>" : "<ol start=\"\(start)\">") : "<ul>"
            out += open + "\n"
            for item in items { out += "<li>\(render(item, headingOffset: headingOffset))</li>\n" }
            out += ordered ? "</ol>\n" : "</ul>\n"
        case .code(_, let text):
            out += "<pre><code>\(escaped(text))</code></pre>\n"
        case .html(let raw):
            out += "<pre class=\"raw-html\">\(escaped(raw))</pre>\n"
        case .thematicBreak:
            out += "<hr>\n"
        }
    }

    /// The HTML of inline Markdown.
    public static func render(_ inlines: [MarkdownInline]) -> String {
        var out = ""
        for inline in inlines {
            switch inline {
            case .text(let s), .html(let s): out += escaped(s)
            case .code(let s): out += "<code>\(escaped(s))</code>"
            case .emphasis(let children): out += "<em>\(render(children))</em>"
            case .strong(let children): out += "<strong>\(render(children))</strong>"
            case .link(let url, let children):
                if isSafeLink(url) {
                    out += "<a href=\"\(escaped(url))\">\(render(children))</a>"
                } else {
                    out += "\(render(children)) (\(escaped(url)))"
                }
            case .image(let url, let alt):
                out += "<span class=\"image\">[image: \(render(alt))] (\(escaped(url)))</span>"
            case .softBreak: out += "\n"
            case .lineBreak: out += "<br>\n"
            }
        }
        return out
    }

    /// True for an address a browser may follow without running anything: `http:`, `https:`,
    /// `mailto:` or an anchor in the document (`#…`), with no control character or space that a
    /// browser would strip to find a different scheme (`java\tscript:`).
    public static func isSafeLink(_ url: String) -> Bool {
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return false }
        if url.hasPrefix("#") { return true }
        guard let colon = url.firstIndex(of: ":") else { return false }
        return ["http", "https", "mailto"].contains(url[..<colon].lowercased())
    }

    /// `text` safe inside an element or a quoted attribute: `& < > " '` as entities, and control
    /// characters (but tab and newline) and bidirectional overrides as U+FFFD, so nothing in the
    /// text reorders or hides what follows it.
    public static func escaped(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            case "\n", "\t": out.append(scalar)
            default:
                switch scalar.value {
                case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
                default: out.append(scalar)
                }
            }
        }
        return String(out)
    }
}
