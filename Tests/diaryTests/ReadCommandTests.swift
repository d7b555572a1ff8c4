import Foundation
import XCTest

/// `diary read` with the built binary: the order, list's filters, the text as stored into a
/// pipe, rendered on a terminal, and the pager. `show`'s rendering on a terminal too.
final class ReadCommandTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "read")
        _ = try box.initVault()
        try box.ok(["new", "# March\n\nSome *em* \u{1B}[31mred\r", "--date", "2024-03-05T10:00", "--tag", "walk"])
        try box.ok(["new", "January", "--date", "2024-01-02"])
        try box.ok(["new", "February\n\n- a\n- b", "--date", "2024-02-10T08:30", "--star"])
    }

    override func tearDown() { box = nil }

    private func titles(_ out: String) -> [String] {
        ["January", "February", "# March"].filter { out.contains("\n\($0)") }
            .sorted { out.range(of: "\n\($0)")!.lowerBound < out.range(of: "\n\($1)")!.lowerBound }
    }

    func testOldestFirstEachUnderItsDateWithTheTextAsStoredIntoAPipe() throws {
        let out = try box.ok(["read"]).stdout
        XCTAssertEqual(titles(out), ["January", "February", "# March"])
        XCTAssertTrue(out.hasPrefix("Tuesday, January 2, 2024\n────"), out)
        XCTAssertTrue(out.contains("Saturday, February 10, 2024 at 8:30\u{202F}AM  ★\n"), out)
        XCTAssertTrue(out.contains("Tuesday, March 5, 2024 at 10:00\u{202F}AM  #walk\n"), out)
        // Byte for byte as stored, as `show` into a pipe: Markdown, escape and carriage return.
        XCTAssertTrue(out.contains("# March\n\nSome *em* \u{1B}[31mred\r\n"), out.debugDescription)
        XCTAssertTrue(out.contains("February\n\n- a\n- b\n\nTuesday, March 5"), "one blank line between entries")
        XCTAssertEqual(titles(try box.ok(["read", "--reverse"]).stdout), ["# March", "February", "January"])
    }

    func testListsFiltersChooseTheEntries() throws {
        XCTAssertEqual(titles(try box.ok(["read", "--tag", "walk"]).stdout), ["# March"])
        XCTAssertEqual(titles(try box.ok(["read", "--starred"]).stdout), ["February"])
        XCTAssertEqual(titles(try box.ok(["read", "--from", "2024-02-01"]).stdout), ["February", "# March"])
        XCTAssertEqual(titles(try box.ok(["read", "--to", "2024-02-10"]).stdout), ["January", "February"])
        XCTAssertEqual(titles(try box.ok(["read", "--on", "2024-01-02"]).stdout), ["January"])
        XCTAssertEqual(
            titles(try box.ok(["read", "-n", "2"]).stdout), ["February", "# March"], "the newest 2, oldest first")
        XCTAssertEqual(try box.ok(["read", "--tag", "none"]).stdout, "")
        XCTAssertEqual(try box.run(["read", "-n", "0"]).status, 64)
        XCTAssertEqual(try box.run(["read", "--on", "2024-01-02", "--from", "2024-01-01"]).status, 64)
    }

    func testRenderedOnATerminalEscapesKept() throws {
        let shown = try box.runOnTerminal(["read", "--no-pager"], columns: 100)
        XCTAssertEqual(shown.status, 0, shown.shown)
        XCTAssertTrue(shown.shown.contains("March\r\n\r\nSome em \\e[31mred\\r"), shown.shown.debugDescription)
        XCTAssertTrue(shown.shown.contains("• a\r\n• b"), shown.shown)
        XCTAssertFalse(shown.shown.contains("\u{1B}[31m"), "no escape sequence from an entry reaches the terminal")
        XCTAssertFalse(shown.shown.contains("*em*"))
    }

    func testThroughThePagerWhenTallerThanTheTerminal() throws {
        let marker = "PAGED: "
        let paged = try box.runOnTerminal(["read"], rows: 6, env: ["PAGER": "sed 's/^/\(marker)/'"])
        XCTAssertEqual(paged.status, 0, paged.shown)
        let lines = paged.lines.filter { !$0.isEmpty }
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix(marker) }, paged.shown)
        XCTAssertTrue(paged.shown.contains("\(marker)• b"), "the whole book reaches the pager: \(paged.shown)")
        let short = try box.runOnTerminal(["read", "-n", "1"], rows: 40, env: ["PAGER": "sed 's/^/\(marker)/'"])
        XCTAssertFalse(short.shown.contains(marker), short.shown)

        // A reader who quits the pager early ends the command, successfully.
        for n in 0..<30 {
            try box.ok(["new", "Entry \(n)\n\nline\nline\nline", "--date", String(format: "2023-05-%02d", n % 28 + 1)])
        }
        let quit = try box.runOnTerminal(["read"], rows: 6, env: ["PAGER": "head -n 2"])
        XCTAssertEqual(quit.status, 0, quit.shown)
        // A pager that fails is an error, as for show.
        XCTAssertEqual(try box.runOnTerminal(["read"], rows: 6, env: ["PAGER": "false"]).status, 1)
    }

    func testShowRendersOnATerminalNotWithRawNorIntoAPipe() throws {
        let shown = try box.runOnTerminal(["show", "--no-pager", "-n", "1"], columns: 100)
        XCTAssertTrue(shown.shown.contains("Some em \\e[31mred\\r"), shown.shown.debugDescription)
        let raw = try box.runOnTerminal(["show", "--no-pager", "--raw", "-n", "1"], columns: 100)
        XCTAssertTrue(raw.shown.contains("Some *em* \u{1B}[31mred"), raw.shown.debugDescription)
        let piped = try box.ok(["show"]).stdout
        XCTAssertTrue(piped.hasSuffix("\n\nSome *em* \u{1B}[31mred\r\n"), piped.debugDescription)
    }
}
