internal import CCmarkGFM

/// cmark-gfm's tree turned into `MarkdownBlock` values; the C tree is freed before returning.
enum CmarkTree {
    static func blocks(of text: String) -> [MarkdownBlock] {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return [] }
        // The plain CommonMark parser, no extension: raw HTML is kept as nodes of its own, which
        // the renderers show as text.
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                cmark_parse_document($0, buffer.count, CMARK_OPT_DEFAULT)
            }
        }
        guard let root = parsed else { return [.paragraph([.text(text)])] }
        defer { cmark_node_free(root) }
        return children(of: root).map { block($0, depth: 1) }
    }

    private static func children(of node: OpaquePointer) -> [OpaquePointer] {
        var out: [OpaquePointer] = []
        var child = cmark_node_first_child(node)
        while let current = child {
            out.append(current)
            child = cmark_node_next(current)
        }
        return out
    }

    private static func block(_ node: OpaquePointer, depth: Int) -> MarkdownBlock {
        guard depth <= Markdown.maximumDepth else { return .paragraph([.text(flatText(node))]) }
        let inner = { children(of: node).map { block($0, depth: depth + 1) } }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_PARAGRAPH:
            return .paragraph(inlines(of: node, depth: depth))
        case CMARK_NODE_HEADING:
            return .heading(level: Int(cmark_node_get_heading_level(node)), inlines(of: node, depth: depth))
        case CMARK_NODE_BLOCK_QUOTE:
            return .quote(inner())
        case CMARK_NODE_LIST:
            let items = children(of: node).map { item in children(of: item).map { block($0, depth: depth + 2) } }
            let ordered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
            return .list(ordered: ordered, start: Int(cmark_node_get_list_start(node)), items: items)
        case CMARK_NODE_CODE_BLOCK:
            return .code(info: string(cmark_node_get_fence_info(node)), text: literal(node))
        case CMARK_NODE_HTML_BLOCK:
            return .html(literal(node))
        case CMARK_NODE_THEMATIC_BREAK:
            return .thematicBreak
        default:
            return .paragraph([.text(flatText(node))])
        }
    }

    private static func inlines(of node: OpaquePointer, depth: Int) -> [MarkdownInline] {
        children(of: node).map { inline($0, depth: depth + 1) }
    }

    private static func inline(_ node: OpaquePointer, depth: Int) -> MarkdownInline {
        guard depth <= Markdown.maximumDepth else { return .text(flatText(node)) }
        switch cmark_node_get_type(node) {
        case CMARK_NODE_TEXT: return .text(literal(node))
        case CMARK_NODE_CODE: return .code(literal(node))
        case CMARK_NODE_HTML_INLINE: return .html(literal(node))
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_EMPH: return .emphasis(inlines(of: node, depth: depth))
        case CMARK_NODE_STRONG: return .strong(inlines(of: node, depth: depth))
        case CMARK_NODE_LINK: return .link(url: string(cmark_node_get_url(node)), inlines(of: node, depth: depth))
        case CMARK_NODE_IMAGE:
            return .image(url: string(cmark_node_get_url(node)), alt: inlines(of: node, depth: depth))
        default: return .text(flatText(node))
        }
    }

    /// The literal text of every node under `node`, in order, found without recursion (for
    /// what nests deeper than `Markdown.maximumDepth`).
    private static func flatText(_ node: OpaquePointer) -> String {
        guard let iterator = cmark_iter_new(node) else { return "" }
        defer { cmark_iter_free(iterator) }
        var out = ""
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard event == CMARK_EVENT_ENTER, let current = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(current) {
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: out += " "
            default: out += literal(current)
            }
        }
        return out
    }

    private static func literal(_ node: OpaquePointer) -> String { string(cmark_node_get_literal(node)) }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
