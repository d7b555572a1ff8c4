import Foundation
import XCTest

@testable import DiaryApp

/// Colour, editor and the settings `diary config` changes, and the file they are written to.
final class ConfigChoicesTests: XCTestCase {
    func testColourAutoFollowsTheTerminalAndNoColorAlwaysAndNeverDoNot() {
        let plain: [String: String] = ["TERM": "xterm"]
        let noColor = ["TERM": "xterm", "NO_COLOR": "1"]
        XCTAssertTrue(ColorChoice.enabled(.auto, isTerminal: true, environment: plain))
        XCTAssertFalse(ColorChoice.enabled(.auto, isTerminal: false, environment: plain))
        XCTAssertFalse(ColorChoice.enabled(.auto, isTerminal: true, environment: noColor))
        XCTAssertFalse(ColorChoice.enabled(.auto, isTerminal: true, environment: ["TERM": "dumb"]))
        XCTAssertTrue(ColorChoice.enabled(.auto, isTerminal: true, environment: ["NO_COLOR": ""]))
        XCTAssertTrue(ColorChoice.enabled(.always, isTerminal: false, environment: noColor))
        XCTAssertFalse(ColorChoice.enabled(.never, isTerminal: true, environment: plain))
    }

    func testTheEditorIsChosenInGitsOrder() throws {
        var config = DiaryConfig()
        XCTAssertEqual(EditorChoice.command(environment: [:], config: config), "vi")
        XCTAssertEqual(EditorChoice.command(environment: ["EDITOR": "ed", "VISUAL": "vim"], config: config), "vim")
        XCTAssertNil(config.set(.editor, to: "nano"))
        XCTAssertEqual(EditorChoice.command(environment: ["EDITOR": "ed", "VISUAL": "vim"], config: config), "nano")
        XCTAssertEqual(
            EditorChoice.command(environment: ["DIARY_EDITOR": "code --wait", "VISUAL": "vim"], config: config),
            "code --wait")
        XCTAssertEqual(EditorChoice.command(environment: ["DIARY_EDITOR": "  "], config: config), "nano")
    }

    func testSettingsAreCheckedAsTheFileIs() throws {
        var config = DiaryConfig()
        XCTAssertEqual(config.set(.journal, to: "work"), .unknownJournal)
        XCTAssertEqual(config.set(.unlockMax, to: "0"), .badDuration)
        XCTAssertEqual(config.set(.store, to: "SQLite"), .notOneOf(["sqlite", "files"]))
        XCTAssertEqual(config.set(.dateFormat, to: "'   '"), .badDatePattern)
        XCTAssertEqual(config.set(.template, to: ""), .empty)
        XCTAssertNil(config.set(.dateFormat, to: "d.M.yy"))
        XCTAssertEqual(
            config,
            try { () throws(ConfigError) -> DiaryConfig in
                var expected = DiaryConfig()
                try expected.set(.key(.dateFormat), to: "d.M.yy")
                return expected
            }())
        XCTAssertThrowsError(try ConfigSettingName("unlock")) {
            XCTAssertEqual($0 as? ConfigError, .unknownSettingName("unlock"))
        }
        XCTAssertEqual(try ConfigSettingName("journals.work"), .journal("work"))
    }

    func testRemovingTheDefaultJournalClearsTheDefault() throws {
        var config = DiaryConfig()
        try config.addJournal("work", path: "/w")
        try config.setDefaultJournal("work")
        XCTAssertThrowsError(try config.addJournal("work", path: "/other")) {
            XCTAssertEqual($0 as? ConfigError, .journalExists(name: "work", path: "/w"))
        }
        XCTAssertTrue(try config.removeJournal("work"))
        XCTAssertNil(config.defaultJournal)
        XCTAssertEqual(config.listing.count, 0)
        XCTAssertThrowsError(try config.setDefaultJournal("work")) {
            XCTAssertEqual($0 as? ConfigError, .unknownJournal(name: "work", known: []))
        }
    }

    func testTheFileIsWrittenPrivatelyAndReadBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diary-config-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = ConfigFile(url: directory.appendingPathComponent("diary/config.toml"))
        XCTAssertEqual(try file.load(), DiaryConfig(), "no file: no settings")
        try file.update { (config: inout DiaryConfig) throws(ConfigError) in
            try config.set(.key(.color), to: "never")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try file.load().color, .never)
        // A refused change writes nothing, and leaves no temporary file.
        XCTAssertThrowsError(
            try file.update { (config: inout DiaryConfig) throws(ConfigError) in
                try config.set(.key(.color), to: "blue")
            })
        XCTAssertEqual(try file.load().color, .never)
        let names = try FileManager.default.contentsOfDirectory(atPath: file.url.deletingLastPathComponent().path)
        XCTAssertEqual(names, ["config.toml"])
    }

    func testAFileTooLargeIsRefusedUnread() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("diary-config-\(UUID()).toml")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(repeating: UInt8(ascii: "#"), count: ConfigFile.maximumSize + 1).write(to: url)
        XCTAssertThrowsError(try ConfigFile(url: url).load()) {
            XCTAssertEqual($0 as? ConfigError, .tooLarge(path: url.path, limit: ConfigFile.maximumSize))
        }
    }
}
