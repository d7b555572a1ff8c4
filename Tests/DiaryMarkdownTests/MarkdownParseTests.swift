import DiaryMarkdown
import XCTest

/// cmark-gfm's tree as Swift values: every element, and text that must not crash or vanish.
final class MarkdownParseTests: XCTestCase {
    func testEveryBlockAndSpanBecomesItsValue() {
        let text = """
            # Title

            Some *em*, **strong**, `code`, [a link](https://example.org) and ![alt](pic.png).\\
            next line
            soft

            > quoted

            - one
            - two

            3. three
            4. four

            ```swift
            let x = 1
            ```

            <div>raw</div>

            ---
            """
        let blocks = Markdown.parse(text)
        XCTAssertEqual(blocks.count, 8, "\(blocks)")
        XCTAssertEqual(blocks[0], .heading(level: 1, [.text("Title")]))
        XCTAssertEqual(
            blocks[1],
            .paragraph([
                .text("Some "), .emphasis([.text("em")]), .text(", "), .strong([.text("strong")]), .text(", "),
                .code("code"), .text(", "), .link(url: "https://example.org", [.text("a link")]), .text(" and "),
                .image(url: "pic.png", alt: [.text("alt")]), .text("."), .lineBreak, .text("next line"), .softBreak,
                .text("soft"),
            ]))
        XCTAssertEqual(blocks[2], .quote([.paragraph([.text("quoted")])]))
        XCTAssertEqual(
            blocks[3],
            .list(ordered: false, start: 0, items: [[.paragraph([.text("one")])], [.paragraph([.text("two")])]]))
        XCTAssertEqual(
            blocks[4],
            .list(ordered: true, start: 3, items: [[.paragraph([.text("three")])], [.paragraph([.text("four")])]]))
        XCTAssertEqual(blocks[5], .code(info: "swift", text: "let x = 1\n"))
        XCTAssertEqual(blocks[6], .html("<div>raw</div>\n"))
        XCTAssertEqual(blocks[7], .thematicBreak)
    }

    func testInlineHTMLIsKeptAsItsOwnValue() {
        XCTAssertEqual(
            Markdown.parse("a <b onclick=\"x\">b</b>"),
            [.paragraph([.text("a "), .html("<b onclick=\"x\">"), .text("b"), .html("</b>")])])
    }

    func testEmptyTextHasNoBlocks() {
        XCTAssertEqual(Markdown.parse(""), [])
        XCTAssertEqual(Markdown.parse("\n\n  \n"), [])
    }

    /// Nesting far deeper than the walk goes is kept as plain text, not a crash of the stack.
    func testDeepNestingIsFlattenedNotACrash() {
        for text in [
            String(repeating: ">", count: 100_000) + " deep",
            String(repeating: "- ", count: 20_000) + "deep",
            String(repeating: "*", count: 50_000) + "deep" + String(repeating: "*", count: 50_000),
            String(repeating: "[", count: 50_000) + "deep" + String(repeating: "](u)", count: 50_000),
        ] {
            let plain = Self.plain(Markdown.parse(text))
            XCTAssertTrue(plain.contains("deep"), "the words survive: \(plain.prefix(80))")
        }
    }

    /// NUL and other controls do not end or corrupt the text (cmark replaces NUL with U+FFFD).
    func testControlCharactersDoNotCutTheText() {
        let plain = Self.plain(Markdown.parse("before\u{0}after \u{1B}[31m end"))
        XCTAssertTrue(plain.hasPrefix("before"), plain)
        XCTAssertTrue(plain.hasSuffix("after \u{1B}[31m end"), plain)
    }

    static func plain(_ blocks: [MarkdownBlock]) -> String {
        blocks.map { block -> String in
            switch block {
            case .paragraph(let i), .heading(_, let i): return MarkdownInline.plainText(i)
            case .quote(let b): return plain(b)
            case .list(_, _, let items): return items.map(plain).joined(separator: " ")
            case .code(_, let t), .html(let t): return t
            case .thematicBreak: return ""
            }
        }.joined(separator: " ")
    }
}
