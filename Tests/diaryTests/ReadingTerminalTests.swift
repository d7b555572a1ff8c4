import Foundation
import XCTest

/// What reading does on a terminal of a known size: output taller than the window goes through
/// the pager (never into a pipe), and `list` cuts long titles to the width.
final class ReadingTerminalTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "readtty")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    /// Entries whose `show -n 5` is far taller than a 10-row terminal.
    private func tallEntries() throws {
        for n in 1...5 {
            let body = (1...6).map { "line \($0) of entry \(n)" }.joined(separator: "\n")
            try box.ok(["new", "Entry \(n)\n\n\(body)", "--date", "2024-01-0\(n)T10:00"])
        }
    }

    private let marker = "PAGED: "
    private var markingPager: String { "sed 's/^/\(marker)/'" }

    /// Output taller than the terminal goes through the pager, all of it; short output,
    /// `--no-pager` and a pipe are not paged; `list` is cut to the terminal's width.
    func testTheTerminalsSizeDecidesPagingAndCutting() throws {
        try tallEntries()
        for args in [["show", "-n", "5"], ["list"]] {
            let rows = args[0] == "list" ? 4 : 10
            let paged = try box.runOnTerminal(args, rows: rows, env: ["PAGER": markingPager])
            XCTAssertEqual(paged.status, 0, paged.shown)
            let lines = paged.lines.filter { !$0.isEmpty }
            XCTAssertFalse(lines.isEmpty)
            XCTAssertTrue(lines.allSatisfy { $0.hasPrefix(marker) }, "every line through the pager: \(paged.shown)")
        }
        let full = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PAGER": markingPager])
        XCTAssertTrue(full.shown.contains("\(marker)line 6 of entry 1"), "the whole text reaches the pager")
        let short = try box.runOnTerminal(["list"], rows: 24, env: ["PAGER": markingPager])
        XCTAssertTrue(short.shown.contains("Entry 5"), short.shown)
        XCTAssertFalse(short.shown.contains(marker), "five lines fit in 24 rows: \(short.shown)")

        let noPager = try box.runOnTerminal(["show", "-n", "5", "--no-pager"], rows: 10, env: ["PAGER": markingPager])
        XCTAssertTrue(noPager.shown.contains("line 6 of entry 1"), noPager.shown)
        XCTAssertFalse(noPager.shown.contains(marker), "--no-pager: \(noPager.shown)")

        let piped = try box.ok(["show", "-n", "5"], env: ["PAGER": markingPager])
        XCTAssertFalse(piped.stdout.contains(marker), "never into a pipe")
        XCTAssertTrue(piped.stdout.contains("line 6 of entry 1"))

        // `list` cuts a long title to the terminal's width (where, and how, is
        // `ReadingLayoutTests`'); into a pipe it does not.
        let long = String(repeating: "abcdefghij", count: 10)
        try box.ok(["new", long, "--date", "2023-09-15T10:00", "--tag", "walk"])
        let listed = try box.runOnTerminal(["list", "--no-pager"], columns: 60)
        XCTAssertEqual(listed.status, 0, listed.shown)
        let line = try XCTUnwrap(listed.lines.first { $0.contains("2023") }, listed.shown)
        // 8 (id) + 2 + 12 (date) + 2 + 8 (time, `10:00 AM`) + 2 + 2 (star) = 36 columns before
        // the title, 24 left: 16 of the title, `…`, and `  #walk`.
        XCTAssertTrue(line.hasSuffix("  10:00 AM    " + long.prefix(16) + "…  #walk"), line)
        XCTAssertEqual(line.count, 60)
        XCTAssertTrue(try box.ok(["list"]).out.contains(long), "not cut into a pipe")
    }

    func testDefaultPagerIsLessWithLESSFRXUnlessLESSIsSet() throws {
        try tallEntries()
        let bin = box.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fakeLess = bin.appendingPathComponent("less")
        try Data("#!/bin/sh\necho \"fake less LESS=$LESS args=$*\"\ncat\n".utf8).write(to: fakeLess)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeLess.path)
        let path = "\(bin.path):/usr/bin:/bin"

        let byDefault = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PATH": path])
        XCTAssertTrue(byDefault.shown.contains("fake less LESS=FRX args=\r\n"), byDefault.shown)
        XCTAssertTrue(byDefault.shown.contains("line 6 of entry 1"), byDefault.shown)

        let ownLess = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PATH": path, "LESS": "-S"])
        XCTAssertTrue(ownLess.shown.contains("fake less LESS=-S args="), ownLess.shown)

        let cat = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PATH": path, "PAGER": "cat"])
        XCTAssertFalse(cat.shown.contains("fake less"), "PAGER=cat: no pager: \(cat.shown)")
        XCTAssertTrue(cat.shown.contains("line 6 of entry 1"))

        // A pager that does not exist: the shell says so, and the text is printed as it is.
        let missing = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PAGER": "no-such-pager-here"])
        XCTAssertEqual(missing.status, 0, missing.shown)
        XCTAssertTrue(missing.shown.contains("no-such-pager-here"), missing.shown)
        XCTAssertTrue(missing.shown.contains("line 6 of entry 1"), missing.shown)

        // No pager to be found: the text is printed as it is.
        let none = try box.runOnTerminal(["show", "-n", "5"], rows: 10, env: ["PATH": "/nonexistent"])
        XCTAssertEqual(none.status, 0, none.shown)
        XCTAssertTrue(none.shown.contains("line 6 of entry 1"), none.shown)
    }

    /// A pager that fails (here `false`, which reads nothing) may have shown nothing: diary
    /// says so, with the pager's status, and exits 1 instead of a silent success.
    func testAFailingPagerIsAnErrorWithItsStatus() throws {
        try tallEntries()
        for args in [["show", "-n", "5"], ["list"]] {
            let failed = try box.runOnTerminal(args, rows: 4, env: ["PAGER": "false"])
            XCTAssertEqual(failed.status, 1, "\(args): \(failed.shown)")
            XCTAssertTrue(failed.shown.contains("diary: error: pager 'false' failed"), "\(args): \(failed.shown)")
            let three = try box.runOnTerminal(args, rows: 4, env: ["PAGER": "cat >/dev/null; exit 3"])
            XCTAssertEqual(three.status, 1, "\(args): \(three.shown)")
            XCTAssertTrue(three.shown.contains("(exit status 3)"), "\(args): \(three.shown)")
        }
    }
}
