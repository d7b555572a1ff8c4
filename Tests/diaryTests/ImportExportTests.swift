import Foundation
import XCTest

/// `diary import` and `diary export` through the built binary: what needs a process (stdout and
/// stderr, exit statuses, consent on a terminal or without one, help, file modes) and the
/// lossless round trip into a new vault across both stores. What the importers read and the
/// summary says is `ImportExportLogicTests`' (in process), on the same files.
final class ImportExportTests: XCTestCase {
    static let jrnl = #"""
        {
          "tags": {"@여행": 1, "@work": 1},
          "entries": [
            {"title": "서울의 봄 🌸", "body": "오늘은 날씨가 좋았다.\nWalked along the river 👩‍💻\n\nSecond paragraph.",
             "date": "2023-09-15", "time": "10:30", "tags": ["@여행"], "starred": true},
            {"title": "Standup at nine.", "body": "", "date": "2024-02-29", "time": "09:00",
             "tags": ["@work"], "starred": false},
            {"title": "", "body": "  ", "date": "2024-03-01", "time": "08:00", "tags": [], "starred": false}
          ]
        }
        """#

    static let dayOne = #"""
        {"metadata": {"version": "1.0"}, "entries": [
          {"uuid": "A1B2C3D4E5F60718293A4B5C6D7E8F90", "creationDate": "2023-09-15T10:30:00Z",
           "modifiedDate": "2023-09-16T08:00:00Z", "timeZone": "Asia/Seoul",
           "text": "부산 여행 🌊\n\nThe sea\\. Really\\!\n![](dayone-moment://0F1E2D3C4B5A)",
           "tags": ["여행", "sea"], "starred": true},
          {"uuid": "00112233445566778899AABBCCDDEEFF", "creationDate": "2024-01-02T00:00:00Z", "text": ""},
          {"uuid": "FFEEDDCCBBAA99887766554433221100", "creationDate": "2024-01-03T12:00:00Z",
           "text": "Plain day\n1\\. first\n2\\. second"}
        ]}
        """#

    // MARK: import

    /// The command's wiring: a refusal is status 67 (a file that cannot be read, 1) naming the
    /// file and the entry or line, with nothing imported; a success prints nothing on stdout and
    /// its summary on stderr (what the summary says is `ImportExportLogicTests`').
    func testImportRefusesAllOrNothingAndSummarisesOnStderr() throws {
        let box = try DiarySandbox(name: "import")
        _ = try box.initVault()
        try box.ok(["new", "Already here"])
        let before = try box.ok(["list", "--json"]).stdout
        // A comma is missing at the end of line 3, so the parser stops on line 4.
        let broken =
            "{\"entries\": [\n {\"title\": \"a\", \"date\": \"2024-01-01\"},\n"
            + " {\"title\": \"b\", \"date\": \"2024-01-02\"}\n {\"title\": \"c\"}\n]}\n"
        let brokenFile = try write(broken, "broken.json", in: box)
        let result = try box.run(["import", "--from", "jrnl", brokenFile])
        XCTAssertEqual(result.status, 67, result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: error: \(brokenFile): line 4: malformed json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing was imported"), result.stderr)
        // An invalid entry anywhere refuses the whole import.
        let badDate = #"{"entries": [{"title": "ok", "date": "2024-01-01"}, {"title": "bad", "date": "2024-13-45"}]}"#
        let datesFile = try write(badDate, "dates.json", in: box)
        let dates = try box.run(["import", "--from", "jrnl", datesFile])
        XCTAssertEqual(dates.status, 67, dates.stderr)
        XCTAssertTrue(dates.stderr.contains("\(datesFile): entry 2: 'date' and 'time'"), dates.stderr)
        // The vault refuses an oversized entry after parsing: still nothing at all is stored.
        let huge = String(repeating: "x", count: 9 << 20)
        let big =
            #"{"entries": [{"title": "ok", "date": "2024-01-01"}, {"title": "big", "body": ""#
            + huge + #"", "date": "2024-01-02"}]}"#
        let bigResult = try box.run(["import", "--from", "jrnl", try write(big, "big.json", in: box)])
        XCTAssertEqual(bigResult.status, 67, bigResult.stderr)
        XCTAssertTrue(bigResult.stderr.contains("entry 2 of the import"), bigResult.stderr)
        // The wrong --from is a schema error, not a crash; a missing file is an I/O failure.
        let file = try write(Self.jrnl, "j.json", in: box)
        XCTAssertEqual(try box.run(["import", "--from", "diary", file]).status, 67)
        XCTAssertEqual(
            try box.run(["import", "--from", "jrnl", box.root.appendingPathComponent("nope").path]).status, 1)
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "the vault is unchanged")

        let imported = try box.ok(["import", "--from", "jrnl", file])
        XCTAssertEqual(imported.stdout, "", "import prints nothing on stdout")
        XCTAssertTrue(imported.stderr.contains("imported 2, skipped 1, duplicates 0"), imported.stderr)
        XCTAssertTrue(imported.stderr.contains("skipped \(file): entry 3: empty title and body"), imported.stderr)
        let list = try box.listJSON()
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Already here", "Standup at nine.", "서울의 봄 🌸"])
        XCTAssertEqual(list[2]["date"] as? String, "2023-09-15T10:30:00Z", "date and time read in local time (TZ=UTC)")
    }

    // MARK: export

    func testJSONExportThenImportIntoANewVaultReproducesEveryEntry() throws {
        try roundTrip(from: "sqlite", to: "files")
        try roundTrip(from: "files", to: "sqlite")
    }

    private func roundTrip(from source: String, to target: String) throws {
        let box = try DiarySandbox(name: "export-\(source)")
        _ = try box.initVault(store: source)
        try box.ok(["new", "한국어 제목\n여러 줄\n\n끝 🎉", "--date", "2023-09-15T10:30", "--tag", "여행", "--star"])
        let plain = try box.ok(["new", "Emoji only 🐈‍⬛", "--date", "2024-02-29", "--tag", "cats", "--tag", "b"]).out
        try box.ok(["star", String(plain.prefix(8))])
        try box.ok(["import", "--from", "jrnl", try write(Self.jrnl, "j.json", in: box)])
        let file = box.root.appendingPathComponent("all.json").path
        let exported = try box.ok(["export", "--format", "json", "-o", file, "--yes"])
        XCTAssertEqual(exported.stdout, "")
        XCTAssertTrue(exported.stderr.contains("NOT encrypted"), exported.stderr)
        XCTAssertTrue(exported.stderr.contains("exported 4 entries to \(file)"), exported.stderr)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "plaintext files are private")

        let fresh = try DiarySandbox(name: "reimport-\(target)")
        _ = try fresh.initVault(store: target)
        let imported = try fresh.ok(["import", "--from", "diary", file])
        XCTAssertTrue(imported.stderr.contains("imported 4, skipped 0, duplicates 0"), imported.stderr)
        let original = try box.ok(["list", "--json"]).stdout
        XCTAssertEqual(try fresh.ok(["list", "--json"]).stdout, original, "\(source) → \(target): same ids and fields")
        for entry in try box.listJSON() {
            let id = entry["id"] as? String ?? ""
            XCTAssertEqual(try fresh.ok(["show", id, "--json"]).stdout, try box.ok(["show", id, "--json"]).stdout, id)
        }
        // To the millisecond and with the import sources: exporting again gives the same bytes.
        let again = try fresh.ok(["export", "--yes"]).stdout
        XCTAssertEqual(again, try String(contentsOfFile: file, encoding: .utf8))
        XCTAssertTrue(
            try fresh.ok(["import", "--from", "diary", file]).stderr.contains("imported 0, skipped 0, duplicates 4"))
    }

    func testExportOnATerminalWarnsAndAsksFirst() throws {
        let box = try DiarySandbox(name: "export-tty")
        _ = try box.initVault()
        try box.ok(["new", "Secret thoughts"])
        let file = box.root.appendingPathComponent("asked.json").path
        let declined = try box.runOnTerminal(["export", "-o", file], answers: [("[y/N]", "n")], colour: true)
        XCTAssertEqual(declined.status, 1, declined.shown)
        XCTAssertTrue(declined.shown.contains("NOT encrypted"), declined.shown)
        XCTAssertTrue(declined.shown.contains("Write 1 entry as plaintext to \(file)? [y/N]"), declined.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "no means nothing written")
        let accepted = try box.runOnTerminal(["export", "-o", file], answers: [("[y/N]", "y")], colour: true)
        XCTAssertEqual(accepted.status, 0, accepted.shown)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("Secret thoughts"))
    }

    /// Without --yes and without a terminal nothing is written (64); an existing file is never
    /// overwritten (73), whatever the format.
    func testExportWithoutYesOrOverAFileWritesNothing() throws {
        let box = try DiarySandbox(name: "export-consent")
        _ = try box.initVault()
        try box.ok(["new", "Secret thoughts"])
        let file = box.root.appendingPathComponent("out.json").path
        for args in [["export", "-o", file], ["export"], ["export", "--format", "markdown"]] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(args): nothing on stdout")
            XCTAssertTrue(result.stderr.contains("diary: warning: the export is NOT encrypted"), result.stderr)
            XCTAssertTrue(result.stderr.contains("pass --yes"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
        let keep = box.root.appendingPathComponent("keep.json")
        try Data("precious".utf8).write(to: keep)
        for format in ["json", "markdown"] {
            let result = try box.run(["export", "--format", format, "-o", keep.path, "--yes"])
            XCTAssertEqual(result.status, 73, result.stderr)
            XCTAssertTrue(result.stderr.contains("already exists"), result.stderr)
        }
        XCTAssertEqual(try String(contentsOf: keep, encoding: .utf8), "precious")
    }

    func testImportAndExportHelpCarryExamplesAndTheWarning() throws {
        let box = try DiarySandbox(name: "help-exchange")
        let importHelp = try box.ok(["import", "--help"]).stdout
        XCTAssertTrue(importHelp.contains("EXAMPLE") && importHelp.contains("jrnl --export json"), importHelp)
        XCTAssertTrue(importHelp.contains("--vault") && importHelp.contains("status 67"), importHelp)
        let exportHelp = try box.ok(["export", "--help"]).stdout
        XCTAssertTrue(exportHelp.contains("EXAMPLE") && exportHelp.contains("NOT encrypted"), exportHelp)
        XCTAssertEqual(try box.run(["export", "-o", "dir/"]).status, 64, "json needs a file name")
        XCTAssertEqual(try box.run(["import", "--from", "evernote", "x"]).status, 64)
    }

    // MARK: helpers

    private func write(_ content: String, _ name: String, in box: DiarySandbox) throws -> String {
        let url = box.root.appendingPathComponent(name)
        try Data(content.utf8).write(to: url)
        return url.path
    }
}
