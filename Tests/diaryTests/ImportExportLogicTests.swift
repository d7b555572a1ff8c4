import DiaryExchange
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import diary

/// `import` and `export` in process: what the command does between parsing its options and
/// printing (read the files, store the batch, word the summary; pick the entries, the
/// destination and the Markdown document), on the same hand-written jrnl, Day One and Markdown
/// files as the binary tests (`ImportExportTests`, which keep streams, statuses and consent).
final class ImportExportLogicTests: VaultTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    /// What the command does: read, store unless there is nothing to store, word the summary.
    private func importFiles(
        _ format: ImportFormat, _ urls: [URL], into vault: Vault
    ) throws -> [String] {
        let batch = try Importer.read(format, from: urls, timeZone: utc)
        var summary = ImportSummary(batch: batch, imported: 0, duplicates: 0)
        if !batch.entries.isEmpty {
            let outcome = try vault.importEntries(batch.entries)
            (summary.imported, summary.duplicates) = (outcome.imported.count, outcome.duplicates)
        }
        return summary.lines
    }

    private func write(_ text: String, _ name: String) throws -> URL {
        let url = path(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The entries, newest first, as `list` orders them.
    private func entries(_ vault: Vault) throws -> [Entry] {
        try vault.list().map { try vault.entry($0.id) }
    }

    func testJrnlImportKeepsTextTagsAndStarsAndSummarisesWithoutEntryText() throws {
        let vault = try makeVault(.sqlite)
        let file = try write(ImportExportTests.jrnl, "j.json")
        let lines = try importFiles(.jrnl, [file], into: vault)
        XCTAssertEqual(
            lines, ["skipped \(file.path): entry 3: empty title and body", "imported 2, skipped 1, duplicates 0"])
        XCTAssertFalse(lines.joined().contains("서울"), "the summary never quotes entry text")

        let all = try entries(vault)
        XCTAssertEqual(all.map(\.title), ["Standup at nine.", "서울의 봄 🌸"])
        XCTAssertEqual(all.map(\.tags), [["work"], ["여행"]])
        XCTAssertEqual(all.map(\.starred), [false, true])
        XCTAssertEqual(all[1].date, date("2023-09-15T10:30:00Z"), "date and time read in the local time zone")
        XCTAssertEqual(all[1].text, "서울의 봄 🌸\n오늘은 날씨가 좋았다.\nWalked along the river 👩‍💻\n\nSecond paragraph.")
        XCTAssertEqual(all[0].text, "Standup at nine.")
        // jrnl's @ is not part of the tag: `--tag work` finds it, and `list` shows `#work`.
        let work = try vault.list(EntryFilter(tag: "work"))
        let listed = try ListLayout.lines(work, vault: vault, columns: nil, style: Style(enabled: false))
        XCTAssertEqual(listed.count, 1, "\(listed)")
        XCTAssertTrue(listed[0].hasSuffix("  #work"), listed[0])
    }

    /// A jrnl tag with white space becomes dashed, and spellings that differ in case alone merge.
    func testAnImportedTagWithWhiteSpaceBecomesDashedAndSpellingsMerge() throws {
        let vault = try makeVault(.sqlite)
        let export = #"""
            {"tags": {"@long walk": 1},
             "entries": [{"title": "Imported", "body": "x", "date": "2024-02-29", "time": "09:00",
                          "tags": ["@long  walk", "@Sea", "@sea", "@ice\tfloe"], "starred": false}]}
            """#
        _ = try importFiles(.jrnl, [try write(export, "tags.json")], into: vault)
        XCTAssertEqual(try vault.list().first?.tags, ["Sea", "ice-floe", "long-walk"])
    }

    func testSecondImportOfTheSameFileAddsNothingOnBothStores() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind)
            let file = try write(ImportExportTests.jrnl, "again-\(kind.rawValue).json")
            _ = try importFiles(.jrnl, [file], into: vault)
            let before = try entries(vault)
            let again = try importFiles(.jrnl, [file], into: vault)
            XCTAssertEqual(again.last, "imported 0, skipped 1, duplicates 2", "\(kind)")
            XCTAssertEqual(try entries(vault), before, "\(kind)")
        }
    }

    func testDayOneImportUnescapesTextAndCountsMediaNotImported() throws {
        let vault = try makeVault(.files)
        let file = try write(ImportExportTests.dayOne, "Journal.json")
        let lines = try importFiles(.dayone, [file], into: vault)
        XCTAssertEqual(
            lines,
            [
                "skipped \(file.path): entry 2: empty text (uuid 00112233445566778899AABBCCDDEEFF)",
                "imported 2, skipped 1, duplicates 0",
                "1 media reference not imported (the text keeps a placeholder for each)",
            ])
        let all = try entries(vault)
        XCTAssertEqual(all.map(\.title), ["Plain day", "부산 여행 🌊"])
        let busan = all[1]
        XCTAssertEqual(busan.text, "부산 여행 🌊\n\nThe sea. Really!\n[photo not imported]")
        XCTAssertEqual(busan.tags, ["sea", "여행"])
        XCTAssertTrue(busan.starred)
        XCTAssertEqual(busan.date, date("2023-09-15T10:30:00Z"))
        XCTAssertEqual(busan.modified, date("2023-09-16T08:00:00Z"))
        XCTAssertEqual(all[0].text, "Plain day\n1. first\n2. second")
    }

    func testMediaReferencesAreCountedInThePlural() {
        let lines = ImportSummary(batch: ImportBatch(mediaReferencesDropped: 3), imported: 0, duplicates: 0).lines
        XCTAssertEqual(lines.last, "3 media references not imported (the text keeps a placeholder for each)")
    }

    func testMarkdownDirectoryImportReadsFrontMatterAndFileNames() throws {
        let vault = try makeVault(.sqlite)
        let dir = path("notes")
        try _ = write(
            "---\ndate: 2024-02-22T15:00\ntags: [한국어, emoji]\nstarred: true\n---\n\n# 제목 ✨\n줄 하나\n줄 둘\n",
            "notes/first.md")
        try _ = write("Dated by its name\n", "notes/2024-01-05-walk.md")
        try _ = write("\n\n", "notes/2024-01-06-empty.md")
        try _ = write("not markdown", "notes/notes.txt")
        let lines = try importFiles(.markdown, [dir], into: vault)
        XCTAssertEqual(lines.last, "imported 2, skipped 1, duplicates 0")
        XCTAssertTrue(
            lines[0].hasPrefix("skipped ") && lines[0].hasSuffix("2024-01-06-empty.md: the file holds no text"),
            "\(lines)")

        let all = try entries(vault)
        XCTAssertEqual(all.map(\.date), [date("2024-02-22T15:00:00Z"), date("2024-01-05T00:00:00Z")])
        XCTAssertEqual(all[0].text, "# 제목 ✨\n줄 하나\n줄 둘")
        XCTAssertEqual(all[0].tags, ["emoji", "한국어"])
        XCTAssertTrue(all[0].starred)
    }

    /// `--starred` and `--tag @work` (spelled as jrnl does) pick the entries the export writes.
    func testExportFiltersByStarAndTag() throws {
        let vault = try makeVault(.sqlite)
        _ = try importFiles(.jrnl, [try write(ImportExportTests.jrnl, "j.json")], into: vault)
        func exported(_ filter: EntryFilter) throws -> [[String: Any]] {
            let json = Exporter.json(try vault.list(filter).map { try vault.entry($0.id) })
            let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
            return object?["entries"] as? [[String: Any]] ?? []
        }
        let export = try Export.parse(["--starred", "--tag", "@work", "--yes"])
        XCTAssertEqual(
            try exported(EntryFilter(starred: export.filters.starred)).map { $0["tags"] as? [String] }, [["여행"]])
        let work = try exported(EntryFilter(tag: export.filters.tag.map(Tags.clean)))
        XCTAssertEqual(work.map { $0["text"] as? String }, ["Standup at nine."])
    }

    /// Markdown to a directory (a path ending in '/', or one that exists) writes one file per
    /// entry that imports back; to a file or stdout, one document; a file already there for an
    /// entry is refused before anything is written.
    func testMarkdownExportAsFilesOrOneDocumentReadsBack() throws {
        let vault = try makeVault(.sqlite)
        _ = try importFiles(.jrnl, [try write(ImportExportTests.jrnl, "j.json")], into: vault)
        let all = try entries(vault)
        let dir = path("md").path + "/"
        let destination = try ExportDestination(dir, format: .markdown)
        guard case .directory = destination else { return XCTFail("\(dir) is a directory: \(destination)") }
        try destination.write(vault, try vault.list(EntryFilter()).map(\.id), [], format: .markdown)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        XCTAssertEqual(names.count, 2, "\(names)")
        XCTAssertTrue(names.allSatisfy { $0.hasSuffix(".md") }, "\(names)")

        let fresh = try makeVault(.files, name: "md-back")
        _ = try importFiles(.markdown, [URL(fileURLWithPath: dir)], into: fresh)
        let project = { (list: [Entry]) in list.map { [$0.title, "\($0.date)", "\($0.starred)", "\($0.tags)"] } }
        XCTAssertEqual(project(try entries(fresh)), project(all))

        let document = Exporter.markdownDocument(all, timeZone: utc, locale: DateOutput.locale)
        XCTAssertTrue(document.hasPrefix("# Diary\n"), document)
        XCTAssertTrue(document.contains("## 서울의 봄 🌸") && document.contains("Second paragraph."), document)
        guard case .file = try ExportDestination(path("one.md").path, format: .markdown) else {
            return XCTFail("a new path without '/' is one document")
        }
        // An existing directory also means one file per entry; names that clash are refused.
        let again = try ExportDestination(String(dir.dropLast()), format: .markdown)
        guard case .directory = again else { return XCTFail("an existing directory: \(again)") }
        XCTAssertThrowsError(try again.refuseClashes(vault, all.map(\.id))) { error in
            guard case .outputExists? = error as? ExchangeError else { return XCTFail("\(error)") }
        }
    }
}
