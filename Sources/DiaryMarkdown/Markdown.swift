/// A Markdown document as plain Swift values: what cmark-gfm parsed, with no C type in it.
///
/// Renderers (the terminal's in the CLI, `MarkdownHTML`) walk these values; each decides for
/// itself how text is made safe, so nothing here is trusted to be printable or harmless.
public enum MarkdownBlock: Equatable, Sendable {
    case paragraph([MarkdownInline])
    /// `level` 1 to 6.
    case heading(level: Int, [MarkdownInline])
    case quote([MarkdownBlock])
    /// Each item is its blocks; `start` is the first number of an ordered list.
    case list(ordered: Bool, start: Int, items: [[MarkdownBlock]])
    /// A fenced or indented code block: its info string (`swift`) and its text, line ends kept.
    case code(info: String, text: String)
    /// Raw HTML as written: renderers show it as text, never as markup.
    case html(String)
    case thematicBreak
}

/// Inline Markdown: text and the spans around it.
public enum MarkdownInline: Equatable, Sendable {
    case text(String)
    case code(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case link(url: String, [MarkdownInline])
    case image(url: String, alt: [MarkdownInline])
    /// Raw inline HTML as written (`<b>`, `<script>`): shown as text.
    case html(String)
    /// A line break in the source that is not a hard break (shown as a space or a newline).
    case softBreak
    /// A hard line break (two spaces or a backslash at the end of a line).
    case lineBreak
}

extension MarkdownInline {
    /// The text a person reads in `inlines`, without any markup (an image's alt text included).
    public static func plainText(_ inlines: [MarkdownInline]) -> String {
        var out = ""
        for inline in inlines {
            switch inline {
            case .text(let s), .code(let s), .html(let s): out += s
            case .emphasis(let children), .strong(let children), .link(_, let children), .image(_, let children):
                out += plainText(children)
            case .softBreak, .lineBreak: out += " "
            }
        }
        return out
    }
}

/// Parses Markdown (CommonMark) with cmark-gfm.
public enum Markdown {
    /// How deep blocks and spans may nest before the rest is kept as plain text: a hostile
    /// entry of a hundred thousand `>` must not exhaust the stack of the recursive walk.
    public static let maximumDepth = 32

    /// The blocks of `text`. Never fails: any text is some Markdown (CommonMark has no errors).
    public static func parse(_ text: String) -> [MarkdownBlock] {
        CmarkTree.blocks(of: text)
    }
}
