import DiaryVault
import Foundation
import XCTest

@testable import DiaryApp

/// The config file is read strictly: every key diary knows, in either TOML spelling, and an
/// error naming the line for anything else.
final class ConfigParserTests: XCTestCase {
    private func parse(_ text: String) throws(ConfigError) -> DiaryConfig {
        try ConfigParser.parse(text, path: "/c.toml")
    }

    private func error(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> ConfigError? {
        do {
            _ = try parse(text)
            XCTFail("accepted:\n\(text)", file: file, line: line)
            return nil
        } catch {
            return error
        }
    }

    func testEveryKeyIsReadInTablesAndDottedKeysAlike() throws {
        let tables = try parse(
            """
            # mine
            journal = "work"
            store = "files"
            editor = "nano -w"
            template = "Morning pages"
            color = "never"

            [unlock]
            timeout = "30m"
            max = "4h"

            [date]
            format = "yyyy-MM-dd HH:mm"

            [journals]
            work = "/srv/work"
            home = "~/diary"
            """)
        let dotted = try parse(
            """
            journal = "work"
            store = "files"
            editor = "nano -w"
            template = "Morning pages"
            color = "never"
            unlock.timeout = "30m"
            unlock.max = "4h"
            date.format = "yyyy-MM-dd HH:mm"
            journals.work = "/srv/work"
            journals.home = "~/diary"
            """)
        XCTAssertEqual(tables, dotted)
        XCTAssertEqual(tables.store, .files)
        XCTAssertEqual(tables.unlockTimeout, TimeSpan(seconds: 1800))
        XCTAssertEqual(tables.unlockMax, TimeSpan(seconds: 4 * 3600))
        XCTAssertEqual(tables.color, .never)
        XCTAssertEqual(tables.dateFormat, "yyyy-MM-dd HH:mm")
        XCTAssertEqual(tables.defaultTemplate, "Morning pages")
        XCTAssertEqual(tables.editor, "nano -w")
        XCTAssertEqual(tables.defaultJournal, "work")
        XCTAssertEqual(tables.journals, ["work": "/srv/work", "home": "~/diary"])
    }

    func testAnEmptyFileIsNoSettingsAndColourIsAuto() throws {
        let config = try parse("# nothing yet\n")
        XCTAssertEqual(config, DiaryConfig())
        XCTAssertEqual(config.color, .auto)
    }

    func testAnUnknownKeyNamesItsLine() {
        XCTAssertEqual(
            error("store = \"files\"\n\ncolour = \"never\"\n"),
            .unknownKey(path: "/c.toml", key: "colour", line: 3))
        XCTAssertEqual(
            error("[unlock]\ntimeout = \"5m\"\nidle = \"5m\"\n"),
            .unknownKey(path: "/c.toml", key: "unlock.idle", line: 3))
        XCTAssertEqual(error("\n[theme]\nx = 1\n"), .unknownKey(path: "/c.toml", key: "theme", line: 2))
    }

    func testABadValueNamesItsKeyLineAndProblem() {
        XCTAssertEqual(
            error("# c\ncolor = \"blue\"\n"),
            .badValue(path: "/c.toml", key: "color", line: 2, problem: .notOneOf(["auto", "always", "never"])))
        XCTAssertEqual(
            error("[unlock]\n\nmax = \"forever\"\n"),
            .badValue(path: "/c.toml", key: "unlock.max", line: 3, problem: .badDuration))
        XCTAssertEqual(
            error("unlock.timeout = \"31d\"\n"),
            .badValue(path: "/c.toml", key: "unlock.timeout", line: 1, problem: .badDuration))
        XCTAssertEqual(
            error("store = 1\n"),
            .badValue(path: "/c.toml", key: "store", line: 1, problem: .wrongType(expected: "string")))
        XCTAssertEqual(
            error("date.format = \"''\"\ndate.format2 = \"x\""),
            .unknownKey(path: "/c.toml", key: "date.format2", line: 2))
        XCTAssertEqual(
            error("template = \" morning\"\n"),
            .badValue(path: "/c.toml", key: "template", line: 1, problem: .badTemplateName))
        XCTAssertEqual(
            error("journal = \"../etc\"\n"),
            .badValue(path: "/c.toml", key: "journal", line: 1, problem: .badName))
        XCTAssertEqual(
            error("editor = \"vi\\u001b[2J\"\n"),
            .badValue(path: "/c.toml", key: "editor", line: 1, problem: .controlCharacter))
    }

    func testADatePatternWithAFormatCharacterIsRefusedAsATemplateNameIs() {
        for hidden in ["\u{202E}", "\u{200B}", "\u{2066}"] {
            XCTAssertFalse(TemplateNameRule.isValid("a\(hidden)b"))
            XCTAssertEqual(
                error("# c\n[date]\nformat = \"yyyy\(hidden)-MM-dd\"\n"),
                .badValue(path: "/c.toml", key: "date.format", line: 3, problem: .controlCharacter))
            var config = DiaryConfig()
            XCTAssertEqual(config.set(.dateFormat, to: "yyyy\(hidden)-MM-dd"), .controlCharacter)
            XCTAssertNil(config.dateFormat)
        }
        var config = DiaryConfig()
        XCTAssertNil(config.set(.dateFormat, to: "d. MMMM yyyy"))
    }

    func testLineNumbersAreRightWithCRLFLineEndings() {
        XCTAssertEqual(
            error("# c\r\n\r\n[unlock]\r\nmax = \"forever\"\r\n"),
            .badValue(path: "/c.toml", key: "unlock.max", line: 4, problem: .badDuration))
        XCTAssertEqual(
            error("# c\r\ncolour = \"auto\"\r\n"), .unknownKey(path: "/c.toml", key: "colour", line: 2))
    }

    func testAKeyInAnInlineTableIsPlacedOnItsTablesLine() {
        XCTAssertEqual(
            error("store = \"files\"\nunlock = { timeout = \"5m\", idle = \"5m\" }\n"),
            .unknownKey(path: "/c.toml", key: "unlock.idle", line: 2))
        XCTAssertEqual(error("\n[[unlock]]\ntimeout = \"5m\"\n"), .unknownKey(path: "/c.toml", key: "unlock", line: 2))
    }

    func testADurationMayBeABareNumberOfMinutes() throws {
        XCTAssertEqual(try parse("unlock.timeout = 20\n").unlockTimeout, TimeSpan(seconds: 1200))
    }

    func testTheDefaultJournalMustBeRegistered() {
        XCTAssertEqual(
            error("\njournal = \"work\"\n[journals]\nhome = \"/h\"\n"),
            .badValue(path: "/c.toml", key: "journal", line: 2, problem: .unknownJournal))
    }

    func testAJournalNeedsAValidNameAndAnAbsolutePath() {
        XCTAssertEqual(
            error("[journals]\nwork = \"diary\"\n"),
            .badValue(path: "/c.toml", key: "journals.work", line: 2, problem: .relativePath))
        XCTAssertEqual(
            error("[journals]\n\"my journal\" = \"/x\"\n"),
            .badValue(path: "/c.toml", key: "journals.my journal", line: 2, problem: .badName))
        XCTAssertEqual(
            error("journals = \"/x\"\n"),
            .badValue(path: "/c.toml", key: "journals", line: 1, problem: .wrongType(expected: "table")))
    }

    func testTOMLThatDoesNotParseNamesItsLine() {
        guard case .syntax(_, let line, _, let detail) = error("store = \"files\"\ncolor = \n") else {
            return XCTFail("not a syntax error")
        }
        XCTAssertEqual(line, 2)
        XCTAssertFalse(detail.isEmpty)
        XCTAssertEqual(error("store = \"files\"\0color = 1\n"), .notText(path: "/c.toml"))
    }

    func testWhatTheWriterWritesReadsBackTheSame() throws {
        var config = DiaryConfig()
        try config.addJournal("work", path: "/srv/work \"quoted\" \\ path")
        try config.addJournal("home", path: "~/diary")
        for (key, value) in [
            (ConfigKey.journal, "work"), (.store, "files"), (.editor, "emacsclient -t"), (.unlockTimeout, "1h30m"),
            (.unlockMax, "8h"), (.template, "evening"), (.color, "always"), (.dateFormat, "EEEE d MMMM 'at' HH:mm"),
        ] {
            XCTAssertNil(config.set(key, to: value), key.rawValue)
        }
        let text = ConfigWriter.render(config)
        XCTAssertEqual(try parse(text), config, text)
        XCTAssertTrue(text.hasPrefix("#"), "the file says what rewrites it")
    }
}
