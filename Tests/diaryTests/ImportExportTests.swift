import Foundation
import XCTest

/// `diary import` and `diary export` through the built binary: real export files written by
/// hand to jrnl's, Day One's and Markdown's documented layouts, the summary, idempotence, the
/// lossless round trip into a new vault (across both stores), consent, and refusals.
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

    func testJrnlImportKeepsTextTagsAndStarsAndSummarisesOnStderr() throws {
        let box = try DiarySandbox(name: "import-jrnl")
        _ = try box.initVault()
        let file = try write(Self.jrnl, "j.json", in: box)
        let result = try box.ok(["import", "--from", "jrnl", file])
        XCTAssertEqual(result.stdout, "", "import prints nothing on stdout")
        XCTAssertTrue(result.stderr.contains("imported 2, skipped 1, duplicates 0"), result.stderr)
        XCTAssertTrue(result.stderr.contains("skipped \(file): entry 3: empty title and body"), result.stderr)
        XCTAssertFalse(result.stderr.contains("서울"), "the summary never quotes entry text")

        let list = try box.listJSON()
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Standup at nine.", "서울의 봄 🌸"])
        XCTAssertEqual(list.map { $0["tags"] as? [String] }, [["work"], ["여행"]])
        XCTAssertEqual(list.map { $0["starred"] as? Bool }, [false, true])
        XCTAssertEqual(list[1]["date"] as? String, "2023-09-15T10:30:00Z", "date and time read in local time (TZ=UTC)")
        let spring = try show(list[1]["id"] as? String ?? "", in: box)
        XCTAssertEqual(
            spring["text"] as? String, "서울의 봄 🌸\n오늘은 날씨가 좋았다.\nWalked along the river 👩‍💻\n\nSecond paragraph.")
        XCTAssertEqual(try show(list[0]["id"] as? String ?? "", in: box)["text"] as? String, "Standup at nine.")
    }

    func testSecondImportOfTheSameFileAddsNothingOnBothStores() throws {
        for store in ["sqlite", "files"] {
            let box = try DiarySandbox(name: "import-again-\(store)")
            _ = try box.initVault(store: store)
            let file = try write(Self.jrnl, "j.json", in: box)
            try box.ok(["import", "--from", "jrnl", file])
            let before = try box.ok(["list", "--json"]).stdout
            let again = try box.ok(["import", "--from", "jrnl", file])
            XCTAssertTrue(again.stderr.contains("imported 0, skipped 1, duplicates 2"), "\(store): \(again.stderr)")
            XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, store)
        }
    }

    func testDayOneImportUnescapesTextAndCountsMediaNotImported() throws {
        let box = try DiarySandbox(name: "import-dayone")
        _ = try box.initVault(store: "files")
        let file = try write(Self.dayOne, "Journal.json", in: box)
        let result = try box.ok(["import", "--from", "dayone", file])
        XCTAssertTrue(result.stderr.contains("imported 2, skipped 1, duplicates 0"), result.stderr)
        XCTAssertTrue(result.stderr.contains("skipped \(file): entry 2: empty text"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 media reference not imported"), result.stderr)

        let list = try box.listJSON()
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Plain day", "부산 여행 🌊"])
        let busan = try show(list[1]["id"] as? String ?? "", in: box)
        XCTAssertEqual(busan["text"] as? String, "부산 여행 🌊\n\nThe sea. Really!\n[photo not imported]")
        XCTAssertEqual(busan["tags"] as? [String], ["sea", "여행"])
        XCTAssertEqual(busan["starred"] as? Bool, true)
        XCTAssertEqual(busan["date"] as? String, "2023-09-15T10:30:00Z")
        XCTAssertEqual(busan["modified"] as? String, "2023-09-16T08:00:00Z")
        XCTAssertEqual(try show(list[0]["id"] as? String ?? "", in: box)["text"] as? String, "Plain day\n1. first\n2. second")
    }

    func testMarkdownDirectoryImportReadsFrontMatterAndFileNames() throws {
        let box = try DiarySandbox(name: "import-md")
        _ = try box.initVault()
        let dir = box.root.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data("---\ndate: 2024-02-22T15:00\ntags: [한국어, emoji]\nstarred: true\n---\n\n# 제목 ✨\n줄 하나\n줄 둘\n".utf8)
            .write(to: dir.appendingPathComponent("first.md"))
        try Data("Dated by its name\n".utf8).write(to: dir.appendingPathComponent("2024-01-05-walk.md"))
        try Data("\n\n".utf8).write(to: dir.appendingPathComponent("2024-01-06-empty.md"))
        try Data("not markdown".utf8).write(to: dir.appendingPathComponent("notes.txt"))
        let result = try box.ok(["import", "--from", "markdown", dir.path])
        XCTAssertTrue(result.stderr.contains("imported 2, skipped 1, duplicates 0"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2024-01-06-empty.md: the file holds no text"), result.stderr)

        let list = try box.listJSON()
        XCTAssertEqual(list.map { $0["date"] as? String }, ["2024-02-22T15:00:00Z", "2024-01-05T00:00:00Z"])
        let first = try show(list[0]["id"] as? String ?? "", in: box)
        XCTAssertEqual(first["text"] as? String, "# 제목 ✨\n줄 하나\n줄 둘")
        XCTAssertEqual(first["tags"] as? [String], ["emoji", "한국어"])
        XCTAssertEqual(first["starred"] as? Bool, true)
    }

    func testMalformedJSONNamesTheFileAndLineAndImportsNothing() throws {
        let box = try DiarySandbox(name: "import-bad")
        _ = try box.initVault()
        try box.ok(["new", "Already here"])
        let before = try box.ok(["list", "--json"]).stdout
        // A comma is missing at the end of line 3, so the parser stops on line 4.
        let broken = "{\"entries\": [\n {\"title\": \"a\", \"date\": \"2024-01-01\"},\n"
            + " {\"title\": \"b\", \"date\": \"2024-01-02\"}\n {\"title\": \"c\"}\n]}\n"
        let file = try write(broken, "broken.json", in: box)
        let result = try box.run(["import", "--from", "jrnl", file])
        XCTAssertEqual(result.status, 67, result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: error: \(file): line 4: malformed json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing was imported"), result.stderr)
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "the vault is unchanged")
    }

    func testAnInvalidEntryAnywhereRefusesTheWholeImport() throws {
        let box = try DiarySandbox(name: "import-invalid")
        _ = try box.initVault()
        let badDate = #"{"entries": [{"title": "ok", "date": "2024-01-01"}, {"title": "bad", "date": "2024-13-45"}]}"#
        let file = try write(badDate, "dates.json", in: box)
        let result = try box.run(["import", "--from", "jrnl", file])
        XCTAssertEqual(result.status, 67, result.stderr)
        XCTAssertTrue(result.stderr.contains("\(file): entry 2: 'date' and 'time'"), result.stderr)
        // The vault refuses an oversized entry after parsing: still nothing at all is stored.
        let huge = String(repeating: "x", count: 9 << 20)
        let big = #"{"entries": [{"title": "ok", "date": "2024-01-01"}, {"title": "big", "body": ""#
            + huge + #"", "date": "2024-01-02"}]}"#
        let bigResult = try box.run(["import", "--from", "jrnl", try write(big, "big.json", in: box)])
        XCTAssertEqual(bigResult.status, 67, bigResult.stderr)
        XCTAssertTrue(bigResult.stderr.contains("entry 2 of the import"), bigResult.stderr)
        XCTAssertEqual(try box.listJSON().count, 0)
        // The wrong --from is a schema error, not a crash; a missing file is an I/O failure.
        XCTAssertEqual(try box.run(["import", "--from", "diary", try write(Self.jrnl, "j.json", in: box)]).status, 67)
        XCTAssertEqual(try box.run(["import", "--from", "jrnl", box.root.appendingPathComponent("nope").path]).status, 1)
        XCTAssertEqual(try box.listJSON().count, 0)
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
        let exported = try box.ok(["export", "--format", "json", "--to", file, "--yes"])
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
        XCTAssertTrue(try fresh.ok(["import", "--from", "diary", file]).stderr.contains("imported 0, skipped 0, duplicates 4"))
    }

    func testMarkdownExportAsFilesOrOneDocumentReadsBack() throws {
        let box = try DiarySandbox(name: "export-md")
        _ = try box.initVault()
        try box.ok(["import", "--from", "jrnl", try write(Self.jrnl, "j.json", in: box)])
        let dir = box.root.appendingPathComponent("md").path + "/"
        try box.ok(["export", "--format", "markdown", "--to", dir, "--yes"])
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names.count, 2, "\(names)")
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix(".md") }, "\(names)")

        let fresh = try DiarySandbox(name: "md-back")
        _ = try fresh.initVault(store: "files")
        try fresh.ok(["import", "--from", "markdown", dir])
        let keys = ["title", "date", "starred", "tags"]
        let project = { (list: [[String: Any]]) in list.map { e in keys.map { "\(e[$0] ?? "")" } } }
        XCTAssertEqual(project(try fresh.listJSON()), project(try box.listJSON()))

        let document = try box.ok(["export", "--format", "markdown", "--yes"]).stdout
        XCTAssertTrue(document.hasPrefix("# Diary\n"), document)
        XCTAssertTrue(document.contains("## 서울의 봄 🌸") && document.contains("Second paragraph."), document)
        // An existing directory also means one file per entry; names that clash are refused.
        let clash = try box.run(["export", "--format", "markdown", "--to", String(dir.dropLast()), "--yes"])
        XCTAssertEqual(clash.status, 73, clash.stderr)
    }

    func testExportWithoutYesAndWithoutTerminalWritesNothing() throws {
        let box = try DiarySandbox(name: "export-consent")
        _ = try box.initVault()
        try box.ok(["new", "Secret thoughts"])
        let file = box.root.appendingPathComponent("out.json").path
        for args in [["export", "--to", file], ["export"], ["export", "--format", "markdown"]] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(args): nothing on stdout")
            XCTAssertTrue(result.stderr.contains("diary: warning: the export is NOT encrypted"), result.stderr)
            XCTAssertTrue(result.stderr.contains("pass --yes"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file))
    }

    func testExportOnATerminalWarnsAndAsksFirst() throws {
        let box = try DiarySandbox(name: "export-tty")
        _ = try box.initVault()
        try box.ok(["new", "Secret thoughts"])
        let file = box.root.appendingPathComponent("asked.json").path
        let declined = try box.runOnTerminal(["export", "--to", file], answers: [("[y/N]", "n")], colour: true)
        XCTAssertEqual(declined.status, 1, declined.shown)
        XCTAssertTrue(declined.shown.contains("NOT encrypted"), declined.shown)
        XCTAssertTrue(declined.shown.contains("Write 1 entry as plaintext to \(file)? [y/N]"), declined.shown)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file), "no means nothing written")
        let accepted = try box.runOnTerminal(["export", "--to", file], answers: [("[y/N]", "y")], colour: true)
        XCTAssertEqual(accepted.status, 0, accepted.shown)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("Secret thoughts"))
    }

    func testExportNeverOverwritesAFile() throws {
        let box = try DiarySandbox(name: "export-exists")
        _ = try box.initVault()
        try box.ok(["new", "Entry"])
        let file = box.root.appendingPathComponent("keep.json")
        try Data("precious".utf8).write(to: file)
        for format in ["json", "markdown"] {
            let result = try box.run(["export", "--format", format, "--to", file.path, "--yes"])
            XCTAssertEqual(result.status, 73, result.stderr)
            XCTAssertTrue(result.stderr.contains("already exists"), result.stderr)
        }
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "precious")
    }

    func testExportFiltersByStarAndTag() throws {
        let box = try DiarySandbox(name: "export-filter")
        _ = try box.initVault()
        try box.ok(["import", "--from", "jrnl", try write(Self.jrnl, "j.json", in: box)])
        let starred = try decodeExport(try box.ok(["export", "--starred", "--yes"]).stdout)
        XCTAssertEqual(starred.map { $0["tags"] as? [String] }, [["여행"]])
        let work = try decodeExport(try box.ok(["export", "--tag", "@work", "--yes"]).stdout)
        XCTAssertEqual(work.map { $0["text"] as? String }, ["Standup at nine."])
    }

    func testImportAndExportHelpCarryExamplesAndTheWarning() throws {
        let box = try DiarySandbox(name: "help-exchange")
        let importHelp = try box.ok(["import", "--help"]).stdout
        XCTAssertTrue(importHelp.contains("EXAMPLE") && importHelp.contains("jrnl --export json"), importHelp)
        XCTAssertTrue(importHelp.contains("--vault") && importHelp.contains("status 67"), importHelp)
        let exportHelp = try box.ok(["export", "--help"]).stdout
        XCTAssertTrue(exportHelp.contains("EXAMPLE") && exportHelp.contains("NOT encrypted"), exportHelp)
        XCTAssertEqual(try box.run(["export", "--to", "dir/"]).status, 64, "json needs a file name")
        XCTAssertEqual(try box.run(["import", "--from", "evernote", "x"]).status, 64)
    }

    // MARK: helpers

    private func write(_ content: String, _ name: String, in box: DiarySandbox) throws -> String {
        let url = box.root.appendingPathComponent(name)
        try Data(content.utf8).write(to: url)
        return url.path
    }

    private func show(_ id: String, in box: DiarySandbox) throws -> [String: Any] {
        let out = try box.ok(["show", id, "--json"]).stdout
        return try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] ?? [:]
    }

    private func decodeExport(_ json: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["entries"] as? [[String: Any]] ?? []
    }
}
