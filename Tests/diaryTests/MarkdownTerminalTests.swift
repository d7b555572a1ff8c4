import DiaryVault
import Foundation
import XCTest

@testable import diary

/// Markdown as the terminal shows it (`show` and `read` on a terminal): each element, and
/// control characters escaped wherever they hide in the text.
final class MarkdownTerminalTests: XCTestCase {
    private let colour = Style(enabled: true)
    private let plain = Style(enabled: false)

    func testEveryElementWithoutColour() {
        let text = """
            # Title

            Some *em*, **strong** and `code`; [a link](https://example.org) and <https://auto.example>.
            Next line.

            > quoted
            > still

            - one
            - two
              - nested

            9. nine
            10. ten

            ```
            let x = 1
            ```

            ![a cat](cat.png)

            ---
            """
        XCTAssertEqual(
            MarkdownTerminal.render(text, style: plain),
            """
            Title

            Some em, strong and code; a link (https://example.org) and https://auto.example.
            Next line.

            │ quoted
            │ still

            • one
            • two
              • nested

            9.  nine
            10. ten

                let x = 1

            [image: a cat] (cat.png)

            ────────────────────────
            """)
    }

    func testStylesAreTheirOwnOnAndOff() {
        XCTAssertEqual(MarkdownTerminal.render("# Head", style: colour), "\u{1B}[1mHead\u{1B}[22m")
        XCTAssertEqual(
            MarkdownTerminal.render("*a **b** c*", style: colour),
            "\u{1B}[3ma \u{1B}[1mb\u{1B}[22m c\u{1B}[23m", "the inner style ends without ending the outer one")
        XCTAssertEqual(MarkdownTerminal.render("`x`", style: colour), "\u{1B}[2mx\u{1B}[22m")
        XCTAssertEqual(MarkdownTerminal.render("> q", style: colour), "\u{1B}[2m│\u{1B}[22m q")
    }

    /// An escape sequence, a carriage return, a C1 control or a bidirectional override shows
    /// escaped wherever it is: text, heading, code span and block, link text and address, raw
    /// HTML, a list, a quote.
    func testControlCharactersAreEscapedEverywhere() {
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\r\u{9B}31m\u{202E}"
        let escaped = #"\e]0;owned\a\e[2J\r\u{9B}31m\u{202E}"#
        let places = [
            "x \(hostile) y", "# \(hostile)", "`\(hostile)`", "```\n\(hostile)\n```", "    \(hostile)",
            "[\(hostile)](https://a.example)", "[t](https://a.example/\(hostile))", "<b>\(hostile)</b>",
            "<div>\n\(hostile)\n</div>", "- \(hostile)", "> \(hostile)", "1. *\(hostile)*", "![\(hostile)](x)",
        ]
        for text in places {
            for style in [plain, colour] {
                let shown = MarkdownTerminal.render(text, style: style)
                XCTAssertNil(Self.foreignControl(shown), "\(text.debugDescription) → \(shown.debugDescription)")
                XCTAssertFalse(shown.contains("\r"), shown.debugDescription)
                // In a link's brackets the sequence's own `[` is Markdown: the rest is still escaped.
                if !text.contains("](") {
                    XCTAssertTrue(shown.contains(escaped), "\(text.debugDescription) → \(shown.debugDescription)")
                }
            }
        }
        // A NUL is shown escaped as `show` shows it, not swallowed by the parser.
        XCTAssertEqual(MarkdownTerminal.render("a\u{0}b", style: plain), #"a\0b"#)
        XCTAssertEqual(MarkdownTerminal.render("tab\there", style: plain), "tab\there", "tabs stay")
    }

    /// `show` on a terminal renders the text under its header; `--raw` and a pipe keep it.
    func testShowRendersOnlyOnATerminal() {
        let entry = Entry(
            id: UUID(), text: "Title\n\n*em* \u{1B}[31m", date: Date(), created: Date(), modified: Date(),
            starred: false, tags: [])
        XCTAssertTrue(EntryFormat.full(entry, controls: .escaped, style: plain).hasSuffix("\n\nem \\e[31m"))
        XCTAssertTrue(EntryFormat.full(entry, controls: .escapedHeader, style: plain).hasSuffix("\n\n*em* \u{1B}[31m"))
        XCTAssertTrue(EntryFormat.full(entry, controls: .raw, style: plain).hasSuffix("\n\n*em* \u{1B}[31m"))
    }

    /// `read`'s section: heading line, rule, then the text rendered (terminal) or as stored.
    func testBookSection() {
        let date = ISO8601DateFormatter().date(from: "2024-03-05T00:00:00Z")!
        let entry = Entry(
            id: UUID(), text: "# Walk\n\n**far** \u{1B}[2J", date: date, created: date, modified: date, starred: true,
            tags: ["a\u{1B}b", "c"], isCalendarDay: true)
        let heading = BookFormat.heading(entry)
        XCTAssertTrue(heading.hasSuffix("  ★  #a\\eb #c"), heading)
        let rule = String(repeating: "─", count: DisplayWidth.of(heading))
        XCTAssertEqual(
            BookFormat(rendered: true, style: plain).section(entry), "\(heading)\n\(rule)\nWalk\n\nfar \\e[2J\n")
        XCTAssertEqual(
            BookFormat(rendered: false, style: plain).section(entry),
            "\(heading)\n\(rule)\n# Walk\n\n**far** \u{1B}[2J\n")
    }

    /// The first control character in `shown` that is not part of an SGR style (`ESC [ digits m`).
    static func foreignControl(_ shown: String) -> String? {
        let withoutStyles = shown.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let found = withoutStyles.unicodeScalars.first { Printable.needsEscape($0) && !["\n", "\t"].contains($0) }
        return found.map { String($0) }
    }
}
