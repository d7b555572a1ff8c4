import Foundation
import XCTest

/// `diary config` and the settings commands take from the config file, run as a person would:
/// the built binary, its streams and exit statuses, with the sandbox's private HOME (the file
/// is `$HOME/.config/diary/config.toml` there, or under `XDG_CONFIG_HOME`).
final class ConfigCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "config")
        box.environment["XDG_CONFIG_HOME"] = box.root.appendingPathComponent("cfg").path
    }

    override func tearDown() { box = nil }

    private var configFile: URL { box.root.appendingPathComponent("cfg/diary/config.toml") }

    func testGetSetUnsetAndListWithTheirStatuses() throws {
        try box.ok(["config", "set", "color", "never"])
        try box.ok(["config", "set", "unlock.timeout", "30m"])
        XCTAssertEqual(try box.ok(["config", "get", "color"]).stdout, "never\n")
        let unset = try box.run(["config", "get", "store"])
        XCTAssertEqual(unset.status, 1)
        XCTAssertEqual(unset.stdout, "")
        XCTAssertTrue(unset.stderr.contains("'store' is not set"), unset.stderr)
        XCTAssertTrue(unset.stderr.contains("sqlite"), "says the default: \(unset.stderr)")

        let before = try Data(contentsOf: configFile)
        let bad = try box.run(["config", "set", "color", "blue"])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("auto, always, never"), bad.stderr)
        XCTAssertEqual(try box.run(["config", "set", "unlock.max", "forever"]).status, 64)
        XCTAssertEqual(try box.run(["config", "set", "colour", "never"]).status, 64)
        XCTAssertEqual(try box.run(["config", "get", "colour"]).status, 64)
        XCTAssertEqual(try Data(contentsOf: configFile), before, "a refused value writes nothing")

        XCTAssertEqual(try box.ok(["config", "list"]).stdout, "unlock.timeout = 30m\ncolor = never\n")
        let mode = try FileManager.default.attributesOfItem(atPath: configFile.path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        try box.ok(["config", "unset", "color"])
        XCTAssertEqual(try box.run(["config", "get", "color"]).status, 1)
        XCTAssertTrue(try box.ok(["config", "unset", "color"]).stderr.contains("was not set"))
    }

    func testUnsettingTheDefaultJournalsEntrySaysTheDefaultWentWithIt() throws {
        try box.ok(["journal", "add", "work", "/srv/work-diary"])
        try box.ok(["journal", "add", "home", "/srv/home-diary"])
        try box.ok(["journal", "default", "work"])
        let other = try box.ok(["config", "unset", "journals.home"])
        XCTAssertFalse(other.stderr.contains("default"), other.stderr)
        let unset = try box.ok(["config", "unset", "journals.work"])
        XCTAssertTrue(unset.stderr.contains("it was the default journal: there is no default now"), unset.stderr)
        XCTAssertEqual(try box.run(["config", "get", "journal"]).status, 1)
    }

    func testASymbolicLinkedFileStaysALinkAndAFIFOIsRefusedAtOnce() throws {
        let dotfiles = box.root.appendingPathComponent("dotfiles.toml")
        try Data("store = \"files\"\n".utf8).write(to: dotfiles)
        try FileManager.default.createDirectory(
            at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: configFile.path, withDestinationPath: dotfiles.path)
        try box.ok(["journal", "add", "work", "/srv/work-diary"])
        try box.ok(["config", "set", "color", "never"])
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: configFile.path), dotfiles.path)
        XCTAssertEqual(
            try box.ok(["config", "list"]).stdout, "store = files\ncolor = never\njournals.work = /srv/work-diary\n")

        try FileManager.default.removeItem(at: dotfiles)
        let dangling = try box.run(["config", "set", "color", "auto"])
        XCTAssertEqual(dangling.status, 1)
        XCTAssertTrue(
            dangling.stderr.contains("a symbolic link to \(dotfiles.path), which does not exist"), dangling.stderr)

        try FileManager.default.removeItem(at: configFile)
        XCTAssertEqual(mkfifo(configFile.path, 0o600), 0)
        let fifo = try box.run(["config", "list"])
        XCTAssertEqual(fifo.status, 1)
        XCTAssertTrue(fifo.stderr.contains("\(configFile.path): not a regular file"), fifo.stderr)
    }

    func testABrokenFileStopsACommandNamingItsLine() throws {
        try FileManager.default.createDirectory(
            at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("# mine\nstore = \"files\"\ncolour = \"never\"\n".utf8).write(to: configFile)
        let unknown = try box.run(["list"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("line 3: unknown key 'colour'"), unknown.stderr)
        try Data("store = \"files\"\n[unlock]\nmax = \"forever\"\n".utf8).write(to: configFile)
        let badValue = try box.run(["config", "list"])
        XCTAssertEqual(badValue.status, 1)
        XCTAssertTrue(badValue.stderr.contains("line 3: bad value for 'unlock.max'"), badValue.stderr)
        try Data("store = \"files\"\ncolor =\n".utf8).write(to: configFile)
        let syntax = try box.run(["status"])
        XCTAssertEqual(syntax.status, 1)
        XCTAssertTrue(syntax.stderr.contains("line 2: not valid TOML"), syntax.stderr)
    }

    func testColourAlwaysColoursAPipeEvenWithNoColorAndNeverNot() throws {
        try box.initVault()
        try box.ok(["new", "A day"])
        try box.ok(["config", "set", "color", "always"])
        XCTAssertTrue(try box.ok(["list"], env: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
        try box.ok(["config", "set", "color", "never"])
        XCTAssertFalse(try box.ok(["list"]).stdout.contains("\u{1B}["))
        try box.ok(["config", "set", "color", "auto"])
        XCTAssertFalse(try box.ok(["list"]).stdout.contains("\u{1B}["), "auto: not into a pipe")
    }

    func testTheDatePatternShapesListAndShow() throws {
        try box.initVault()
        let id = try box.ok(["new", "--date", "2024-02-03 09:15", "Winter walk"]).out
        try box.ok(["config", "set", "date.format", "yyyy/MM/dd 'at' HH.mm"])
        let list = try box.ok(["list"]).stdout
        XCTAssertTrue(list.contains("2024/02/03 at 09.15  "), list)
        XCTAssertFalse(list.contains("9:15"), "no second time column: \(list)")
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("2024/02/03 at 09.15"))
        XCTAssertEqual(try box.run(["config", "set", "date.format", "'  '"]).status, 64)
    }

    func testTheEditorSettingWinsOverEditorAndDiaryEditorOverIt() throws {
        try box.initVault()
        let plain = try box.script("printf 'from EDITOR\\n' > \"$1\"", name: "plain.sh")
        let configured = try box.script("printf 'from the config\\n' > \"$1\"", name: "configured.sh")
        let forDiary = try box.script("printf 'from DIARY_EDITOR\\n' > \"$1\"", name: "diary.sh")
        try box.ok(["config", "set", "editor", configured])
        let one = try box.ok(["new", "--edit"], env: ["EDITOR": plain, "VISUAL": plain]).out
        XCTAssertTrue(try box.ok(["show", one]).stdout.contains("from the config"))
        let two = try box.ok(["new", "--edit"], env: ["EDITOR": plain, "DIARY_EDITOR": forDiary]).out
        XCTAssertTrue(try box.ok(["show", two]).stdout.contains("from DIARY_EDITOR"))
    }

    func testUnlockAndInitTakeTheirDefaultsFromTheFile() throws {
        try box.ok(["config", "set", "store", "files"])
        try box.ok(["config", "set", "unlock.timeout", "7m"])
        try box.ok(["config", "set", "unlock.max", "2h"])
        let made = try box.ok(["init", "--new-passphrase-file", box.passphraseFile("correct horse")])
        XCTAssertTrue(made.stderr.contains("created a files vault"), made.stderr)
        box.environment["DIARY_PASSPHRASE_FILE"] = try box.passphraseFile("correct horse")
        let unlocked = try box.ok(["unlock"])
        XCTAssertTrue(unlocked.stderr.contains("for 7m without use, at most 2h"), unlocked.stderr)
        try box.ok(["lock"])
        let flagged = try box.ok(["unlock", "--timeout", "3m"])
        XCTAssertTrue(flagged.stderr.contains("for 3m without use, at most 2h"), "the option wins: \(flagged.stderr)")
    }

    /// The config's `template` starts `new` where the editor opens on an empty text (here
    /// `--edit`); text given or piped in is stored as it is.
    func testTheDefaultTemplateStartsAnEmptyNewOnly() throws {
        try box.initVault()
        try box.ok(["template", "add", "Morning pages"], stdin: Data("Morning {weekday}\n".utf8))
        try box.ok(["config", "set", "template", "Morning pages"])
        let editor = try box.script("printf 'three pages\\n' >> \"$1\"", name: "append.sh")
        let fromTemplate = try box.ok(["new", "--edit", "--date", "2024-03-01"], env: ["EDITOR": editor]).out
        let shown = try box.ok(["show", "--raw", fromTemplate]).stdout
        XCTAssertTrue(shown.hasPrefix("Morning Friday\n") && shown.contains("\nthree pages\n"), shown)
        let typed = try box.ok(["new", "Typed words"]).out
        XCTAssertFalse(try box.ok(["show", "--raw", typed]).stdout.contains("Morning"))
        let piped = try box.ok(["new"], stdin: Data("Piped words\n".utf8)).out
        XCTAssertFalse(try box.ok(["show", "--raw", piped]).stdout.contains("Morning"))
        XCTAssertEqual(try box.run(["config", "set", "template", " padded"]).status, 64)
    }
}
