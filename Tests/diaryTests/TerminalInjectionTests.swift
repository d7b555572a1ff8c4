import Foundation
import XCTest

/// Titles, tags, file names and entry text may carry terminal control sequences (a title that
/// retitles the window, clears the screen, or a `\r` that overwrites what was printed). What is
/// printed for a person shows them escaped (`\e`, `\a`, `\r`, `\u{9B}`); JSON escapes them as JSON
/// does; `show --raw`, or `show` into a pipe, gives the text unchanged.
final class TerminalInjectionTests: XCTestCase {
    private var box: DiarySandbox!
    private var id = ""
    static let title = "Hi\u{1B}]0;pwned\u{07}\u{1B}[2J\rX"
    static let body = "body\tline \u{1B}[31mred\u{9B}"
    static let text = title + "\n" + body
    static let escapedTitle = #"Hi\e]0;pwned\a\e[2J\rX"#

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "inject")
        _ = try box.initVault()
        id = try box.ok(["new", "--tag", "t\u{1B}[2J"], stdin: Data(Self.text.utf8)).out
    }

    override func tearDown() { box = nil }

    private func assertNoControls(_ s: String, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in ["\u{1B}", "\u{07}", "\r", "\u{9B}"] {
            XCTAssertFalse(
                s.contains(c), "\(what) prints a raw control character: \(s.debugDescription)", file: file, line: line)
        }
    }

    /// Into a pipe: list, search and show's header escaped, the text unchanged; JSON escaped as
    /// JSON is, with the text kept.
    func testListSearchShowAndJSONEscapeControlCharacters() throws {
        for args in [["list"], ["search", "body"]] {
            let out = try box.ok(args).stdout
            assertNoControls(out, args[0])
            XCTAssertTrue(out.contains(Self.escapedTitle), out)
            XCTAssertTrue(out.contains(#"#t\e[2J"#), out)
        }
        let shown = try box.ok(["show", id]).stdout
        let header = String(shown.prefix(upTo: shown.range(of: "\n\n")!.lowerBound))
        assertNoControls(header, "show's header")
        XCTAssertTrue(header.hasPrefix(Self.escapedTitle), header)
        XCTAssertTrue(
            shown.hasSuffix("\n\n" + Self.body + "\n"), "into a pipe the text is unchanged: \(shown.debugDescription)")
        XCTAssertTrue(
            try box.ok(["show", "--raw", id]).stdout.hasPrefix(Self.title + "\n"), "--raw prints the title as it is")
        // JSON escapes them as JSON does, and keeps the text.
        for args in [["list", "--json"], ["search", "body", "--json"], ["show", id, "--json"]] {
            let out = try box.ok(args).stdout
            assertNoControls(out.replacingOccurrences(of: "\u{9B}", with: ""), args.joined(separator: " "))
            XCTAssertTrue(out.contains(#"\u001b"#) || out.contains(#"\u001B"#), out)
        }
        XCTAssertEqual(try box.listJSON().first?["title"] as? String, Self.title)
        let shownJSON =
            try JSONSerialization.jsonObject(with: Data(box.ok(["show", id, "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(shownJSON?["text"] as? String, Self.text)
    }

    func testShowOnATerminalEscapesTheTextButKeepsTabsAndNewlines() throws {
        let escaped = try onTerminal(["show", id])
        assertNoControls(escaped.replacingOccurrences(of: "\r\n", with: "\n"), "show on a terminal")
        XCTAssertTrue(escaped.contains("body\tline \\e[31mred\\u{9B}"), escaped.debugDescription)
        XCTAssertTrue(try onTerminal(["show", "--raw", id]).contains("\u{1B}[31mred"), "--raw on a terminal")
    }

    /// An import error names a file, or a member of a zip, escaped.
    func testImportErrorsEscapeFileAndMemberNames() throws {
        let name = "bad\u{1B}]0;owned\u{07}.md"
        let file = box.root.appendingPathComponent(name)
        try Data("---\ndate: not a date\n---\nText\n".utf8).write(to: file)
        let result = try box.run(["import", "--from", "markdown", file.path])
        XCTAssertEqual(result.status, 67, result.stderr)
        assertNoControls(result.stderr, "the import error")
        XCTAssertTrue(result.stderr.contains(#"bad\e]0;owned\a.md"#), result.stderr)
        // A zip member's name, too.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("/usr/bin/python3 is needed to write the zip")
        }
        let zip = box.root.appendingPathComponent("export.zip").path
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = [
            "-c",
            "import sys, zipfile; zipfile.ZipFile(sys.argv[1], 'w').writestr('\\u00e9\\x1b[2J\\r.json', '{not json')",
            zip,
        ]
        try python.run()
        python.waitUntilExit()
        let zipResult = try box.run(["import", "--from", "dayone", zip])
        XCTAssertEqual(zipResult.status, 67, zipResult.stderr)
        assertNoControls(zipResult.stderr, "the zip member's name")
        XCTAssertTrue(zipResult.stderr.contains(#"export.zip:é\e[2J\r.json"#), zipResult.stderr)
    }

    /// A newline (or tab) in a path or file name a message names is escaped like any other
    /// control character: a message is one line, and a name must not start a line that reads
    /// like diary's own. Errors of `init`, `import`, `--vault`, and the passphrase prompt.
    func testNewlinesInPathsAndFileNamesAreEscapedInMessagesAndPrompts() throws {
        let place = box.root.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: place.appendingPathComponent("bad\nname"))
        let initError = try box.run([
            "init", "--vault", place.path, "--new-passphrase-file", try box.passphraseFile("p"),
        ])
        XCTAssertEqual(initError.status, 73, initError.stderr)
        XCTAssertTrue(initError.stderr.contains(#"('bad\nname')"#), initError.stderr)
        XCTAssertFalse(initError.stderr.contains("bad\nname"), initError.stderr)

        let file = box.root.appendingPathComponent("bad\nname\t.md")
        try Data("---\ndate: not a date\n---\nText\n".utf8).write(to: file)
        let importError = try box.run(["import", "--from", "markdown", file.path])
        XCTAssertEqual(importError.status, 67, importError.stderr)
        XCTAssertTrue(importError.stderr.contains(#"bad\nname\t.md"#), importError.stderr)
        XCTAssertFalse(importError.stderr.contains("bad\n"), importError.stderr)

        let nowhere = box.root.appendingPathComponent("no\nvault").path
        let vaultError = try box.run(["--vault", nowhere, "list"])
        XCTAssertEqual(vaultError.status, 66, vaultError.stderr)
        XCTAssertTrue(vaultError.stderr.contains(#"no\nvault"#), vaultError.stderr)
        XCTAssertEqual(
            vaultError.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 2, vaultError.stderr)

        let odd = box.root.appendingPathComponent("odd\nvault")
        try box.ok(["init", "--vault", odd.path, "--new-passphrase-file", try box.passphraseFile("correct horse")])
        let prompt = try box.runOnTerminal(
            ["--vault", odd.path, "list"], answers: [("Passphrase for", "correct horse")],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(prompt.status, 0, prompt.shown)
        XCTAssertTrue(prompt.shown.contains(#"odd\nvault: "#), prompt.shown)
    }

    private func onTerminal(_ args: [String]) throws -> String {
        let run = try box.runOnTerminal(args)
        XCTAssertEqual(run.status, 0, run.shown)
        return run.shown
    }
}
