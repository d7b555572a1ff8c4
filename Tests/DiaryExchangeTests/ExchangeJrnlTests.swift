import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// jrnl's JSON export (`jrnl --export json`), written by hand to jrnl's documented layout.
final class ExchangeJrnlTests: ExchangeTestCase {
    let export = #"""
        {
          "tags": {"@work": 1, "@여행": 1},
          "entries": [
            {
              "title": "서울의 봄 🌸",
              "body": "오늘은 날씨가 좋았다.\nWalked along the river 👩‍💻\n\nSecond paragraph.\n",
              "date": "2023-09-15",
              "time": "10:30",
              "tags": ["@여행"],
              "starred": true
            },
            {"title": "Standup at nine.", "body": "", "date": "2024-02-29", "time": "09:00",
             "tags": ["@work", "@Work"], "starred": false},
            {"title": "No time given", "body": "body", "date": "2024-01-01", "tags": [], "starred": false}
          ]
        }
        """#

    func testEntriesKeepTextLocalDateTagsAndStar() throws {
        let url = try fixture("jrnl.json", export)
        let batch = try Importer.read(.jrnl, from: [url], timeZone: seoul)
        XCTAssertEqual(batch.entries.count, 3)
        XCTAssertEqual(batch.skipped, [])
        let (spring, standup, untimed) = (batch.entries[0], batch.entries[1], batch.entries[2])

        XCTAssertEqual(spring.text, "서울의 봄 🌸\n오늘은 날씨가 좋았다.\nWalked along the river 👩‍💻\n\nSecond paragraph.")
        XCTAssertEqual(spring.title, "서울의 봄 🌸")
        // 10:30 in Seoul (UTC+9) is 01:30 UTC.
        XCTAssertEqual(spring.date, date("2023-09-15T01:30:00Z"))
        XCTAssertEqual(spring.created, spring.date)
        XCTAssertEqual(spring.modified, spring.date)
        XCTAssertEqual(spring.tags, ["여행"])
        XCTAssertTrue(spring.starred)

        // A title with an empty body is kept as a one-line entry.
        XCTAssertEqual(standup.text, "Standup at nine.")
        XCTAssertEqual(standup.date, date("2024-02-29T00:00:00Z"))
        XCTAssertFalse(standup.starred)
        XCTAssertEqual(untimed.date, date("2023-12-31T15:00:00Z"))

        XCTAssertTrue(batch.entries.allSatisfy { $0.source?.hasPrefix("jrnl:") == true })
        XCTAssertEqual(Set(batch.entries.compactMap(\.source)).count, 3)
    }

    func testSourceDependsOnContentSoTheSameFileGivesTheSameSources() throws {
        let url = try fixture("jrnl.json", export)
        let first = try Importer.read(.jrnl, from: [url], timeZone: seoul)
        let second = try Importer.read(.jrnl, from: [url], timeZone: utc)
        XCTAssertEqual(first.entries.map(\.source), second.entries.map(\.source))
        XCTAssertNotEqual(first.entries.map(\.id), second.entries.map(\.id))
        let edited = try fixture("edited.json", export.replacingOccurrences(of: "Second paragraph.", with: "Edited."))
        let third = try Importer.read(.jrnl, from: [edited], timeZone: seoul)
        XCTAssertNotEqual(third.entries[0].source, first.entries[0].source)
        XCTAssertEqual(third.entries[1].source, first.entries[1].source)
    }

    func testImportIntoVaultTwiceAddsEverythingOnceThenNothing() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let url = try fixture("jrnl-\(kind).json", export)
            let first = try vault.importEntries(Importer.read(.jrnl, from: [url], timeZone: seoul).entries)
            XCTAssertEqual(first.imported.count, 3)
            XCTAssertEqual(first.duplicates, 0)
            let again = try vault.importEntries(Importer.read(.jrnl, from: [url], timeZone: seoul).entries)
            XCTAssertEqual(again.imported, [])
            XCTAssertEqual(again.duplicates, 3)
            XCTAssertEqual(try vault.list().count, 3)
            let stored = try vault.entry(first.imported[1])
            XCTAssertEqual(stored.text, "Standup at nine.")
            // The vault normalises tags: of two that differ only in case (`--tag` takes them for
            // one), the first spelling is kept.
            XCTAssertEqual(stored.tags, ["work"])
        }
    }

    func testEntryWithNeitherTitleNorBodyIsSkippedWithItsPosition() throws {
        let url = try fixture(
            "blank.json",
            #"{"tags": {}, "entries": [{"title": " ", "body": "\n", "date": "2024-01-01", "time": "08:00"},"#
                + #"{"title": "kept", "body": "", "date": "2024-01-02", "time": "08:00"}]}"#)
        let batch = try Importer.read(.jrnl, from: [url], timeZone: utc)
        XCTAssertEqual(batch.entries.map(\.text), ["kept"])
        XCTAssertEqual(batch.skipped, [ImportSkip(file: url.path, entry: 1, reason: "empty title and body")])
    }

    func testImpossibleDateNamesTheEntryAndLine() throws {
        let url = try fixture(
            "bad-date.json",
            "{\"entries\": [\n{\"title\": \"a\", \"body\": \"\", \"date\": \"2024-01-01\", \"time\": \"08:00\"},\n"
                + "{\"title\": \"b\", \"body\": \"\", \"date\": \"2023-02-29\", \"time\": \"08:00\"}\n]}")
        XCTAssertThrowsExchangeError(
            .invalidEntry(
                file: url.path, entry: 2, id: nil,
                detail: "'date' and 'time' are not a valid YYYY-MM-DD and HH:MM (line 3)"),
            try Importer.read(.jrnl, from: [url], timeZone: utc))
    }
}
