import DiaryMarkdown

/// An entry's Markdown as a terminal shows it: headings bold, emphasis italic or bold, lists
/// with bullets or numbers and indented, quotes behind a bar, code dimmed, links as
/// `text (address)`.
///
/// Nothing in the text can drive the terminal: control characters are escaped (`Printable`)
/// before the text is parsed, so a `\r` or an escape sequence shows as `show` has always shown
/// it, and every text the tree holds is escaped again as it is printed; the only escape
/// sequences in the result are the styles added here, and only when `style` is enabled.
enum MarkdownTerminal {
    /// `text` rendered, lines joined by newlines (no trailing one added).
    static func render(_ text: String, style: Style = Style()) -> String {
        let blocks = Markdown.parse(Printable.escaped(text, keeping: Printable.layout))
        return Renderer(style: style).lines(blocks, spaced: true).joined(separator: "\n")
    }

    private struct Renderer {
        let style: Style

        /// The lines of `blocks`; `spaced` puts a blank line between them (a tight list does not).
        func lines(_ blocks: [MarkdownBlock], spaced: Bool) -> [String] {
            var out: [String] = []
            for block in blocks {
                if spaced && !out.isEmpty { out.append("") }
                out += lines(block)
            }
            return out
        }

        private func lines(_ block: MarkdownBlock) -> [String] {
            switch block {
            case .paragraph(let inlines):
                return split(render(inlines))
            case .heading(_, let inlines):
                return split(render(inlines)).map { sgr($0, on: "1", off: "22") }
            case .quote(let blocks):
                let bar = sgr("│", on: "2", off: "22")
                return lines(blocks, spaced: true).map { $0.isEmpty ? bar : "\(bar) \($0)" }
            case .list(let ordered, let start, let items):
                return listLines(ordered: ordered, start: start, items: items)
            case .code(_, let text):
                var code = split(safe(text))
                if code.last == "" { code.removeLast() }
                return code.map { "    " + sgr($0, on: "2", off: "22") }
            case .html(let raw):
                var html = split(safe(raw))
                if html.last == "" { html.removeLast() }
                return html
            case .thematicBreak:
                return [sgr(String(repeating: "─", count: 24), on: "2", off: "22")]
            }
        }

        private func listLines(ordered: Bool, start: Int, items: [[MarkdownBlock]]) -> [String] {
            var out: [String] = []
            let last = start &+ max(0, items.count - 1)
            let width = ordered ? "\(last).".count : 1
            for (n, item) in items.enumerated() {
                let marker = ordered ? "\(start &+ n)." : "•"
                let padded = marker + String(repeating: " ", count: width - marker.count + 1)
                let indent = String(repeating: " ", count: width + 1)
                let itemLines = lines(item, spaced: false)
                for (i, line) in (itemLines.isEmpty ? [""] : itemLines).enumerated() {
                    out.append(i == 0 ? padded + line : line.isEmpty ? "" : indent + line)
                }
            }
            return out
        }

        private func render(_ inlines: [MarkdownInline]) -> String {
            var out = ""
            for inline in inlines {
                switch inline {
                case .text(let s), .html(let s): out += safe(s)
                case .code(let s): out += sgr(safe(s), on: "2", off: "22")
                case .emphasis(let children): out += sgr(render(children), on: "3", off: "23")
                case .strong(let children): out += sgr(render(children), on: "1", off: "22")
                case .link(let url, let children):
                    let label = render(children)
                    let address = safe(url)
                    // An autolink (`<https://…>`) is its own text: shown once.
                    out +=
                        MarkdownInline.plainText(children) == url
                        ? sgr(label, on: "4", off: "24") : "\(label) (\(address))"
                case .image(let url, let alt):
                    out += "[image: \(render(alt))] (\(safe(url)))"
                case .softBreak, .lineBreak: out += "\n"
                }
            }
            return out
        }

        /// A text of the tree, escaped again: defence in depth behind the escaping before parsing.
        private func safe(_ s: String) -> String { Printable.escaped(s, keeping: Printable.layout) }

        /// `s` between SGR `on` and its own `off` (not a full reset, so a style around it stays).
        private func sgr(_ s: String, on: String, off: String) -> String {
            style.enabled && !s.isEmpty ? "\u{1B}[\(on)m\(s)\u{1B}[\(off)m" : s
        }

        private func split(_ s: String) -> [String] { s.components(separatedBy: "\n") }
    }
}
