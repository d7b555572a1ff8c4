import Foundation
import XCTest

/// The review of issue 22's reading work, through the binary: days before 1582 are Gregorian
/// in export and import too; a heading's `#`s are shown nowhere a person reads; `export -o -`
/// is stdout and a directory for JSON is called one; `list` does not show a title's `#word`
/// as if it were still a tag; `new` explains a text that starts with '-', refuses an empty
/// tag and warns when --date took only part of a date.
final class ReadingReviewTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "review")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    // MARK: item 15: one calendar in the exchange files

    func testEarlyDaysExportAndImportAsGregorian() throws {
        try box.ok(["new", "Year one", "--date", "0001-01-01"])
        try box.ok(["new", "Switch", "--date", "1582-10-04"])
        let json = try box.ok(["export", "--yes"]).stdout
        XCTAssertTrue(json.contains("\"date\" : \"0001-01-01\""), json)
        XCTAssertTrue(json.contains("\"date\" : \"1582-10-04\""), json)
        let dir = box.root.appendingPathComponent("md").path + "/"
        try box.ok(["export", "--format", "markdown", "-o", dir, "--yes"])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertTrue(names[0].hasPrefix("0001-01-01-"), "\(names)")
        XCTAssertTrue(names[1].hasPrefix("1582-10-04-"), "\(names)")

        let jrnl = box.root.appendingPathComponent("jrnl.json")
        try Data(
            #"{"tags": {}, "entries": [{"title": "Early", "body": "", "date": "1500-03-01", "time": "09:00", "tags": [], "starred": false}]}"#
                .utf8
        ).write(to: jrnl)
        try box.ok(["import", "--from", "jrnl", jrnl.path])
        let early = try XCTUnwrap(try box.listJSON(["--on", "1500-03-01"]).first)
        XCTAssertEqual(early["date"] as? String, "1500-03-01T09:00:00Z")
    }

    // MARK: item 9: one displayed title

    func testAHeadingIsShownWithoutItsMarksInExportAndInNewsNote() throws {
        let stdoutFile = box.root.appendingPathComponent("id.txt")
        let run = try box.runOnTerminal(["new", "## Heading two\nbody"], stdoutTo: stdoutFile)
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertTrue(run.shown.contains("\"Heading two\""), run.shown)
        XCTAssertFalse(run.shown.contains("## Heading"), run.shown)
        let document = try box.ok(["export", "--format", "markdown", "--yes"]).stdout
        XCTAssertTrue(document.contains("\n## Heading two\n"), document)
        XCTAssertFalse(document.contains("## #"), document)
        XCTAssertEqual(try box.listJSON().first?["title"] as? String, "## Heading two", "--json keeps the stored title")
    }

    func testAWholeDayInTheMarkdownDocumentHasNoTime() throws {
        try box.ok(["new", "A whole day", "--date", "2024-03-01"])
        try box.ok(["new", "An evening", "--date", "2024-03-02T21:15"])
        let document = try box.ok(["export", "--format", "markdown", "--yes"]).stdout
        XCTAssertTrue(document.contains("*Friday, March 1, 2024*"), document)
        XCTAssertTrue(document.contains("*Saturday, March 2, 2024 at 9:15"), document)
        XCTAssertFalse(document.contains("12:00"), document)
    }

    // MARK: item 5: export's destination

    func testOutputDashIsStdout() throws {
        try box.ok(["new", "To stdout"])
        let json = try box.ok(["export", "-o", "-", "--yes"]).stdout
        XCTAssertTrue(json.contains("\"text\" : \"To stdout\""), json)
        let markdown = try box.ok(["export", "--format", "markdown", "-o", "-", "--yes"]).stdout
        XCTAssertTrue(markdown.hasPrefix("# Diary\n"), markdown)
        let refused = try box.run(["export", "-o", "-"])
        XCTAssertEqual(refused.status, 64, refused.stderr)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.root.appendingPathComponent("-").path))
        XCTAssertTrue(try box.ok(["export", "--help"]).stdout.contains("- for stdout"))
    }

    func testJSONIntoADirectoryIsCalledADirectory() throws {
        try box.ok(["new", "Somewhere"])
        let dir = box.root.appendingPathComponent("outdir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let result = try box.run(["export", "-o", dir.path, "--yes"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("is a directory"), result.stderr)
        XCTAssertTrue(result.stderr.contains(dir.path + "/diary.json"), result.stderr)
        XCTAssertFalse(result.stderr.contains("already exists"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    // MARK: item 9: a title's #word that is no longer a tag

    func testListMarksATitlesWordThatIsNotATag() throws {
        let untagged = try box.ok(["new", "Plan #planning", "--date", "2024-03-01"]).out
        try box.ok(["new", "Plan #planning", "--date", "2024-03-02"])
        try box.ok(["tag", String(untagged.prefix(8)), "-planning"])
        let lines = try box.ok(["list"]).stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasSuffix("Plan #planning"), lines[0])
        XCTAssertTrue(lines[1].hasSuffix("Plan #planning  -#planning"), lines[1])
    }

    // MARK: item 10: new's arguments

    func testNewExplainsTextStartingWithADash() throws {
        let result = try box.run(["new", "it", "was", "-5", "degrees"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: hint: if '-5' is part of the text, put -- before"), result.stderr)
        XCTAssertTrue(result.stderr.contains("diary new -- it was -5 degrees"), result.stderr)
        try box.ok(["new", "--", "it", "was", "-5", "degrees"])
        XCTAssertEqual(try box.listJSON().first?["title"] as? String, "it was -5 degrees")
    }

    func testNewRefusesAnEmptyTag() throws {
        for empty in ["", "#", " "] {
            let result = try box.run(["new", "--tag", empty, "Tagged"])
            XCTAssertEqual(result.status, 64, result.stderr)
            XCTAssertTrue(result.stderr.contains("--tag needs a name"), result.stderr)
        }
        XCTAssertEqual(try box.listJSON().count, 0, "nothing stored")
    }

    func testNewWarnsWhenTheTextWouldHaveExtendedTheDate() throws {
        let result = try box.ok(["new", "--date", "yesterday", "9pm", "Saw", "a", "heron"])
        XCTAssertTrue(result.stderr.contains("the date was taken as 'yesterday'"), result.stderr)
        XCTAssertTrue(result.stderr.contains("--date 'yesterday 9pm'"), result.stderr)
        let stored = try XCTUnwrap(try box.listJSON().first)
        XCTAssertEqual(stored["title"] as? String, "9pm Saw a heron", "what is stored is as typed")
        let plain = try box.ok(["new", "--date", "yesterday", "Saw", "a", "heron"])
        XCTAssertEqual(plain.stderr, "", "no warning when the text does not make another date")
    }
}
