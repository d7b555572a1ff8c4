import Foundation
import XCTest

/// `diary template …` and `diary new --template` through the built binary, with a fake
/// `$EDITOR` that records what it was given.
final class TemplateCommandTests: XCTestCase {
    private var box: DiarySandbox!
    private var seen = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "template")
        // The files store: the template's id is then a file name (`templateID()`).
        _ = try box.initVault(store: "files")
        seen = box.root.appendingPathComponent("seen.txt").path
    }

    override func tearDown() { box = nil }

    private static let evening = "# {weekday}\n\n{prompt}\n---prompts---\nA\nB\nC\nD\n"

    private func add(_ name: String, _ text: String) throws {
        try box.ok(["template", "add", name], stdin: Data(text.utf8))
    }

    /// An editor that records the file it was given, then appends `line` (nothing: saves it unchanged).
    private func editor(appending line: String?) throws -> String {
        let append = line.map { "printf '\($0)\\n' >> \"$1\"" } ?? ":"
        return try box.script("cat \"$1\" > '\(seen)'\n\(append)", name: "ed-\(UUID().uuidString.prefix(6)).sh")
    }

    func testAddListShowAndRefusals() throws {
        try add("evening", Self.evening)
        try add("Morning", "Good morning {date}\n")
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "evening\nMorning\n")
        XCTAssertEqual(try box.ok(["template", "show", "EVENING"]).stdout, Self.evening)

        let duplicate = try box.run(["template", "add", "Evening"], stdin: Data("x".utf8))
        XCTAssertEqual(duplicate.status, 64, "a duplicate name is bad input, as --help groups it")
        XCTAssertTrue(duplicate.stderr.contains("diary: error: a template called 'Evening' exists already"))
        XCTAssertEqual(try box.run(["template", "add", " padded"], stdin: Data("x".utf8)).status, 64)
        XCTAssertEqual(try box.run(["template", "add", "empty"], stdin: Data(" \n".utf8)).status, 1)
        let long = "x\n---prompts---\n" + String(repeating: "p", count: 1025)
        let refused = try box.run(["template", "add", "long"], stdin: Data(long.utf8))
        XCTAssertEqual(refused.status, 67)
        XCTAssertTrue(
            refused.stderr.contains("diary: error: line 3: a prompt is longer than 1024 bytes"), refused.stderr)
        let unknown = try box.run(["template", "show", "noon"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no template is called 'noon'"), unknown.stderr)
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "evening\nMorning\n", "nothing else was stored")
    }

    /// `template show` into a pipe gives back the stored bytes, so a round trip through
    /// `template add` stores the same text, with or without a final newline.
    func testShowIntoAPipeRoundTripsByteForByte() throws {
        for (n, text) in [Self.evening, "no final newline {date}"].enumerated() {
            try add("a\(n)", text)
            let shown = try box.ok(["template", "show", "a\(n)"]).stdout
            XCTAssertEqual(shown, text)
            try add("b\(n)", shown)
            XCTAssertEqual(try box.ok(["template", "show", "b\(n)"]).stdout, text)
        }
    }

    /// A text refused from the editor (a prompt too long) is not lost: on the terminal diary
    /// names the line and reopens the editor on the very text saved; declined, nothing is stored
    /// and the status is 67.
    func testARefusedEditIsOfferedAgainOnTheSameText() throws {
        let long = String(repeating: "p", count: 1025)
        let count = box.root.appendingPathComponent("opened").path
        // First opening: writes a prompt too long. Later ones: record what they were given, then
        // shorten the prompt.
        let editor = try box.script(
            """
            echo x >> '\(count)'
            if [ "$(wc -l < '\(count)')" -eq 1 ]; then printf 'Evening\n---prompts---\n\(long)\n' > "$1"; exit 0; fi
            cat "$1" > '\(seen)'
            printf 'Evening\n---prompts---\nshort\n' > "$1"
            """, name: "ed-long.sh")
        let again = try box.runOnTerminal(
            ["template", "add", "evening"], answers: [("Edit the template again? [y/N] ", "y")],
            env: ["EDITOR": editor])
        XCTAssertEqual(again.status, 0, again.shown)
        XCTAssertTrue(again.shown.contains("line 3: a prompt is longer than 1024 bytes"), again.shown)
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), "Evening\n---prompts---\n\(long)\n")
        XCTAssertEqual(try box.ok(["template", "show", "evening"]).stdout, "Evening\n---prompts---\nshort")

        try FileManager.default.removeItem(atPath: count)
        let declined = try box.runOnTerminal(
            ["template", "add", "other"], answers: [("Edit the template again? [y/N] ", "n")],
            env: ["EDITOR": editor])
        XCTAssertEqual(declined.status, 67, declined.shown)
        XCTAssertEqual(declined.shown.components(separatedBy: "a prompt is longer").count, 2, "said once")
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "evening\n")
        XCTAssertEqual(try box.editorLeftovers(), [])
    }

    /// `new --template` opens the editor even with stdin given, on the expanded template; the
    /// prompt list is not part of it, and the four prompts come up so that none repeats
    /// within three.
    func testNewFromATemplateExpandsItAndRotatesPrompts() throws {
        try add("evening", Self.evening)
        var prompts: [String] = []
        for n in 0..<6 {
            let result = try box.ok(
                ["new", "--template", "evening", "--date", "2024-03-01"], stdin: Data("ignored".utf8),
                env: ["EDITOR": try editor(appending: "written \(n)")])
            XCTAssertEqual(result.out.count, 36, result.stderr)
            let given = try String(contentsOfFile: seen, encoding: .utf8)
            XCTAssertTrue(given.hasPrefix("# Friday\n\n"), given)
            XCTAssertFalse(given.contains("---prompts---"), given)
            let prompt = given.split(separator: "\n").last.map(String.init) ?? ""
            XCTAssertTrue(["A", "B", "C", "D"].contains(prompt), given)
            XCTAssertFalse(prompts.suffix(3).contains(prompt), "\(prompt) after \(prompts)")
            prompts.append(prompt)
            let shown = try box.ok(["show", "--raw", result.out]).stdout
            XCTAssertTrue(shown.contains("written \(n)"), shown)
        }
        XCTAssertEqual(try box.listJSON().count, 6)
    }

    /// `echo … | diary new --template` on a terminal: the editor reads the terminal, not the
    /// pipe (vim would run the piped text as keystrokes).
    func testTheEditorReadsTheTerminalWhenStdinIsAPipe() throws {
        try add("evening", Self.evening)
        let editor = try box.script(
            "if [ -t 0 ]; then echo terminal; else echo pipe; fi > '\(seen)'\nprintf 'written\\n' >> \"$1\"",
            name: "ed-stdin.sh")
        let command = "printf 'piped\\n' | exec '\(DiarySandbox.binary.path)' new --template evening"
        let run = try box.runPython(
            DiarySandbox.terminalDriver, named: "terminal_driver.py", ["0", "0", "", "/bin/sh", "2", "-c", command],
            env: ["EDITOR": editor])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), "terminal\n")
        XCTAssertEqual(try box.listJSON().count, 1)
    }

    func testAnUnchangedTemplateStoresNothingAndExitsZero() throws {
        try add("evening", Self.evening)
        let result = try box.ok(["new", "--template", "evening"], env: ["EDITOR": try editor(appending: nil)])
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("nothing was stored"), result.stderr)
        XCTAssertEqual(try box.listJSON().count, 0)
        XCTAssertEqual(try box.editorLeftovers(), [])
        XCTAssertEqual(try box.run(["new", "--template", "evening", "words"]).status, 64)
        XCTAssertEqual(
            try box.run(["new", "--template", "nope"], env: ["EDITOR": try editor(appending: "x")]).status, 1)
    }

    func testEditAndRemove() throws {
        try add("evening", Self.evening)
        let unchanged = try box.ok(["template", "edit", "evening"], env: ["EDITOR": try editor(appending: nil)])
        XCTAssertTrue(unchanged.stderr.contains("unchanged"), unchanged.stderr)
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), Self.evening)
        try box.ok(["template", "edit", "evening"], env: ["EDITOR": try editor(appending: "E")])
        XCTAssertEqual(try box.ok(["template", "show", "evening"]).stdout, Self.evening + "E\n")

        let unconfirmed = try box.run(["template", "remove", "evening"])
        XCTAssertEqual(unconfirmed.status, 64, unconfirmed.stderr)
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "evening\n")
        try box.ok(["template", "remove", "evening", "--yes"])
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "")
    }

    /// No command about entries sees a template: list, search, show and edit by prefix, export,
    /// stats, calendar, tag completion.
    func testNoEntryCommandSeesATemplate() throws {
        try box.ok(["new", "an entry about rivers"])
        try add("rivers", "rivers and {prompt}\n---prompts---\nlakes\n")
        let json = try box.listJSON()
        XCTAssertEqual(json.count, 1)
        let entryID = try XCTUnwrap(json.first?["id"] as? String)
        XCTAssertEqual(try box.ok(["search", "rivers", "--json"]).stdout.components(separatedBy: "\"id\"").count, 2)
        XCTAssertEqual(try box.ok(["show"]).stdout.contains("an entry about rivers"), true)
        let export = box.root.appendingPathComponent("out.json").path
        try box.ok(["export", "--format", "json", "-o", export, "--yes"])
        let exported = try String(contentsOfFile: export, encoding: .utf8)
        XCTAssertTrue(exported.contains(entryID))
        XCTAssertFalse(exported.contains("lakes"))
        XCTAssertTrue(try box.ok(["stats", "--json"]).stdout.contains("\"entries\" : 1"))
        XCTAssertTrue(try box.ok(["verify"]).stderr.contains("ok: 1 entry and 1 template, no damage"))
        XCTAssertTrue(try box.ok(["reindex"]).stderr.contains("reindexed 1 entry and 1 template"))
        let backup = box.root.appendingPathComponent("t.diarybak").path
        try box.ok(["backup", backup])
        let restored = try box.ok(["restore", backup, "--to", box.root.appendingPathComponent("back").path])
        XCTAssertTrue(restored.stderr.contains("restored 1 entry and 1 template into"), restored.stderr)
        let templateID = try XCTUnwrap(templateID())
        for args in [["show", templateID], ["edit", String(templateID.prefix(8))], ["delete", templateID, "--yes"]] {
            let result = try box.run(args, env: ["EDITOR": try editor(appending: "x")])
            XCTAssertEqual(result.status, 1, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("no entry matches"), "\(args): \(result.stderr)")
        }
        XCTAssertEqual(try box.ok(["template", "list"]).stdout, "rivers\n")
    }

    /// The template's id, read from the vault's files (the CLI never prints it).
    private func templateID() throws -> String? {
        let entries = box.vault.appendingPathComponent("entries")
        let listed = try box.listJSON().compactMap { $0["id"] as? String }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: entries.path)) ?? []
        return names.map { $0.lowercased() }.first { name in name.count == 36 && !listed.contains(name) }
    }
}
