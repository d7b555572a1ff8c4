import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Markdown in (one entry per file, front matter or file-name dates) and Markdown out.
final class ExchangeMarkdownTests: ExchangeTestCase {
    func testFrontMatterGivesDateTagsStarAndTitle() throws {
        let url = try fixture(
            "notes/trip.md",
            """
            ---
            title: "부산 여행 🌊"
            date: 2024-02-22 15:00
            tags: [바다, "a, b", travel]
            starred: true
            layout: post
            ---

            First line of the body.
            Second line.

            """)
        let batch = try Importer.read(.markdown, from: [url], timeZone: seoul)
        XCTAssertEqual(batch.entries.count, 1)
        let entry = batch.entries[0]
        XCTAssertEqual(entry.text, "부산 여행 🌊\nFirst line of the body.\nSecond line.")
        XCTAssertEqual(entry.date, date("2024-02-22T06:00:00Z"))
        XCTAssertEqual(entry.created, entry.date)
        XCTAssertEqual(entry.tags, ["바다", "a, b", "travel"])
        XCTAssertTrue(entry.starred)
        XCTAssertTrue(entry.source?.hasPrefix("markdown:") == true)
    }

    func testTitleIsNotRepeatedWhenTheBodyStartsWithIt() throws {
        let url = try fixture(
            "t.md", "---\ntitle: Hello\ndate: 2024-01-01T00:00:00Z\ntags:\n  - one\n  - two\n---\n# Hello\nworld\n")
        let entry = try Importer.read(.markdown, from: [url]).entries[0]
        XCTAssertEqual(entry.text, "# Hello\nworld")
        XCTAssertEqual(entry.tags, ["one", "two"])
        XCTAssertFalse(entry.starred)
    }

    func testDateFromFileNameWhenNoFrontMatterAndDirectoryIsNotRecursive() throws {
        let dir = path("md")
        try fixture("md/2023-09-15-서울.md", "서울의 봄\n\n멀티\n라인 😀")
        try fixture("md/2024-01-01.md", "New year")
        try fixture("md/notes.txt", "not markdown")
        try fixture("md/sub/2020-01-01-deep.md", "not read: subdirectories are not walked")
        let batch = try Importer.read(.markdown, from: [dir], timeZone: seoul)
        XCTAssertEqual(batch.entries.map(\.text), ["서울의 봄\n\n멀티\n라인 😀", "New year"])
        XCTAssertEqual(batch.entries.map(\.date), [date("2023-09-14T15:00:00Z"), date("2023-12-31T15:00:00Z")])
    }

    func testFileWithoutAnyDateIsRefusedNamingIt() throws {
        let url = try fixture("undated.md", "no date anywhere")
        XCTAssertThrowsExchangeError(.noDate(file: url.path), try Importer.read(.markdown, from: [url]))
        let other = try fixture("20240101.md", "---\ntags: x\n---\nbody")
        XCTAssertThrowsExchangeError(.noDate(file: other.path), try Importer.read(.markdown, from: [other]))
    }

    func testBadFrontMatterNamesTheLine() throws {
        let unclosed = try fixture("a.md", "---\ndate: 2024-01-01\nbody")
        XCTAssertThrowsExchangeError(
            .invalidFrontMatter(file: unclosed.path, line: 1, detail: "the front matter is never closed with '---'"),
            try Importer.read(.markdown, from: [unclosed]))
        let star = try fixture("b.md", "---\ndate: 2024-01-01\nstarred: maybe\n---\nbody")
        XCTAssertThrowsExchangeError(
            .invalidFrontMatter(file: star.path, line: 3, detail: "'starred' must be true or false"),
            try Importer.read(.markdown, from: [star]))
        let badDate = try fixture("c.md", "---\n\ndate: 2024-13-01\n---\nbody")
        XCTAssertThrowsExchangeError(
            .invalidFrontMatter(file: badDate.path, line: 3, detail: "'date' is not a valid date: '2024-13-01'"),
            try Importer.read(.markdown, from: [badDate]))
        let directory = path("empty-dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertThrowsExchangeError(
            .noInput(path: directory.path, detail: "no .md files in the directory"),
            try Importer.read(.markdown, from: [directory]))
    }

    func testEmptyFileIsSkipped() throws {
        let url = try fixture("2024-01-01-empty.md", "---\nstarred: true\n---\n\n  \n")
        let batch = try Importer.read(.markdown, from: [url])
        XCTAssertEqual(batch.entries, [])
        XCTAssertEqual(batch.skipped, [ImportSkip(file: url.path, entry: nil, reason: "the file holds no text")])
    }

    func testFilesExportReadsBackWithTheSameTextDatesTagsAndStars() throws {
        let entries = [
            Entry(
                id: UUID(), text: "서울의 봄 🌸\n오늘은 날씨가 좋았다.\n\n둘째 문단",
                date: Date(millisecondsSince1970: 1_700_000_000_123),
                created: Date(millisecondsSince1970: 1_700_000_000_123),
                modified: Date(millisecondsSince1970: 1_700_000_500_000),
                starred: true, tags: ["a \"quoted\" tag", "여행"]),
            Entry(
                id: UUID(), text: "Title only", date: Date(millisecondsSince1970: 1_600_000_000_000),
                created: Date(millisecondsSince1970: 1_600_000_000_000),
                modified: Date(millisecondsSince1970: 1_600_000_000_000),
                starred: false, tags: []),
        ]
        let dir = path("export")
        let files = try Exporter.markdownFiles(entries, into: dir, timeZone: seoul)
        XCTAssertEqual(files.map(\.lastPathComponent), entries.map { Exporter.markdownFileName($0, timeZone: seoul) })
        XCTAssertTrue(
            files[0].lastPathComponent.hasPrefix("2023-11-15-\(entries[0].id.uuidString.lowercased().prefix(8))-서울의-봄"))
        let mode = try FileManager.default.attributesOfItem(atPath: files[0].path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)

        let back = try Importer.read(.markdown, from: [dir], timeZone: utc).entries
        let byText = Dictionary(uniqueKeysWithValues: back.map { ($0.text, $0) })
        for original in entries {
            let read = try XCTUnwrap(byText[original.text])
            XCTAssertEqual(read.date, original.date)
            XCTAssertEqual(read.tags, original.tags)
            XCTAssertEqual(read.starred, original.starred)
        }
        // Exporting again into the same directory never overwrites a file.
        XCTAssertThrowsExchangeError(
            .outputExists(path: files[0].path), try Exporter.markdownFiles(entries, into: dir, timeZone: seoul))
    }

    /// Imports often give many entries the same date and creation time: the export then
    /// lists them in exactly `list`'s order, not the reverse.
    func testEntriesWithEqualDatesAreExportedInListOrder() throws {
        let vault = try makeVault(.files)
        let day = date("2021-06-01T00:00:00Z")
        let entries = (0..<6).map { n in
            Entry(id: UUID(), text: "Same day \(n)", date: day, created: day, modified: day, starred: false, tags: [])
        }
        _ = try vault.importEntries(entries)
        let listed = try vault.list().map(\.title)
        let doc = Exporter.markdownDocument(
            entries.reversed(), timeZone: utc, locale: Locale(identifier: "en_US_POSIX"))
        let exported = doc.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        XCTAssertEqual(exported, listed)
    }

    func testDocumentListsEntriesNewestFirstWithTitleMetadataAndBody() {
        let old = Entry(
            id: UUID(), text: "Old\nold body", date: date("2020-01-01T00:00:00Z"),
            created: date("2020-01-01T00:00:00Z"),
            modified: date("2020-01-01T00:00:00Z"), starred: false, tags: [])
        let new = Entry(
            id: UUID(), text: "\n새 글 😀", date: date("2024-02-22T15:00:00Z"), created: date("2024-02-22T15:00:00Z"),
            modified: date("2024-02-22T15:00:00Z"), starred: true, tags: ["x", "y"])
        let doc = Exporter.markdownDocument([old, new], timeZone: utc, locale: Locale(identifier: "en_US_POSIX"))
        let newRange = doc.range(of: "## 새 글 😀")!  // the first line that is not blank
        let oldRange = doc.range(of: "## Old")!
        XCTAssertLessThan(newRange.lowerBound, oldRange.lowerBound)
        XCTAssertTrue(doc.contains("★ starred · tags: x, y*"))
        XCTAssertTrue(doc.contains("2024"))
        XCTAssertEqual(doc.components(separatedBy: "새 글 😀").count - 1, 1, "the title is not repeated as the body")
        XCTAssertTrue(doc.contains("\nold body\n"))
    }
}
