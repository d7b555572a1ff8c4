import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Day One's JSON export, written by hand to its layout: escaped Markdown, media references,
/// optional fields, and the .zip Day One hands out.
final class ExchangeDayOneTests: ExchangeTestCase {
    let journal = ##"""
        {
          "metadata": {"version": "1.0"},
          "entries": [
            {
              "uuid": "4C5E6AEF2B1D4F6A9E0B7C8D9E0F1A2B",
              "creationDate": "2023-09-15T10:30:00Z",
              "modifiedDate": "2023-09-16T08:00:00.250Z",
              "timeZone": "Asia/Seoul",
              "starred": true,
              "tags": ["여행", "Seoul trip"],
              "text": "# 경복궁 🏯\n\nWe walked 5\\.5 km\\! \\(tired\\)\n\\- not a list\n1\\. not numbered\nC:\\\\Users \\*not bold\\* \\_x\\_ \\[link\\] \\# \\+ \\> \\`code\\`\n![](dayone-moment://A1B2C3D4)\n![](dayone-moment:/video/F00D)\nend\\w"
            },
            {"uuid": "B0B", "creationDate": "2024-02-22T15:00:00.123Z", "text": "한 줄 😀"},
            {"uuid": "EMPTY1", "creationDate": "2024-02-23T00:00:00Z", "text": "  \n "},
            {"uuid": "PHOTO", "creationDate": "2024-02-24T00:00:00Z", "text": "![](dayone-moment://CAFE)"}
          ]
        }
        """##

    func testEntriesAreUnescapedWithMediaPlaceholdersAndCounted() throws {
        let url = try fixture("Journal.json", journal)
        let batch = try Importer.read(.dayone, from: [url])
        XCTAssertEqual(batch.entries.count, 3)
        XCTAssertEqual(batch.mediaReferencesDropped, 3)
        XCTAssertEqual(
            batch.skipped, [ImportSkip(file: url.path, entry: 3, reason: "empty text (uuid EMPTY1)")])

        let palace = batch.entries[0]
        XCTAssertEqual(
            palace.text,
            "# 경복궁 🏯\n\nWe walked 5.5 km! (tired)\n- not a list\n1. not numbered\n"
                + "C:\\Users *not bold* _x_ [link] # + > `code`\n"
                + "[photo not imported]\n[video not imported]\nend\\w")
        XCTAssertEqual(palace.date, date("2023-09-15T10:30:00Z"))
        XCTAssertEqual(palace.created, palace.date)
        XCTAssertEqual(
            palace.modified, Date(timeIntervalSince1970: date("2023-09-16T08:00:00Z").timeIntervalSince1970 + 0.25))
        XCTAssertTrue(palace.starred)
        XCTAssertEqual(palace.tags, ["여행", "Seoul trip"])
        XCTAssertEqual(palace.source, "dayone:4C5E6AEF2B1D4F6A9E0B7C8D9E0F1A2B")

        // Only uuid, creationDate and text are required.
        let short = batch.entries[1]
        XCTAssertEqual(short.text, "한 줄 😀")
        XCTAssertEqual(short.date.millisecondsSince1970, date("2024-02-22T15:00:00Z").millisecondsSince1970 + 123)
        XCTAssertEqual(short.modified, short.date)
        XCTAssertFalse(short.starred)
        XCTAssertEqual(short.tags, [])
        XCTAssertEqual(batch.entries[2].text, "[photo not imported]")
    }

    func testZipExportIsReadFromTheJSONInsideIt() throws {
        let zip = StoredZip.archive([
            ("photos/a1b2c3d4.jpeg", [0xFF, 0xD8, 0xFF, 0xE0]),
            ("Journal.json", Array(journal.utf8)),
        ])
        let url = try fixture("export.zip", bytes: zip)
        let fromZip = try Importer.read(.dayone, from: [url])
        let fromJSON = try Importer.read(.dayone, from: [try fixture("Journal.json", journal)])
        XCTAssertEqual(fromZip.entries.map(\.text), fromJSON.entries.map(\.text))
        XCTAssertEqual(fromZip.entries.map(\.source), fromJSON.entries.map(\.source))
        XCTAssertEqual(fromZip.mediaReferencesDropped, 3)
        XCTAssertEqual(fromZip.skipped.map(\.file), [url.path + ":Journal.json"])
    }

    func testZipWithSeveralJournalsReadsEachOfThem() throws {
        let other =
            #"{"metadata": {}, "entries": [{"uuid": "X1", "creationDate": "2020-01-01T00:00:00Z", "text": "x"}]}"#
        let url = try fixture(
            "two.zip",
            bytes: StoredZip.archive([("Work/Work.json", Array(other.utf8)), ("Journal.json", Array(journal.utf8))]))
        let batch = try Importer.read(.dayone, from: [url])
        XCTAssertEqual(batch.entries.map(\.source).last, "dayone:X1")
        XCTAssertEqual(batch.entries.count, 4)
    }

    func testZipWithoutJSONIsRefused() throws {
        let url = try fixture("photos.zip", bytes: StoredZip.archive([("photos/a.jpeg", [1, 2, 3])]))
        XCTAssertThrowsExchangeError(
            .noInput(path: url.path, detail: "the archive holds no .json file"), try Importer.read(.dayone, from: [url])
        )
    }

    func testDamagedZipMemberIsRefused() throws {
        var zip = StoredZip.archive([("Journal.json", Array(journal.utf8))])
        zip[30 + 12 + 5] ^= 0x01  // past the 30-byte header and the name: in the data: its CRC-32 no longer matches
        let url = try fixture("damaged.zip", bytes: zip)
        XCTAssertThrowsExchangeError(
            .malformedArchive(file: url.path, detail: "member Journal.json is damaged"),
            try Importer.read(.dayone, from: [url]))
    }

    func testImportIntoVaultIsIdempotentBySource() throws {
        let vault = try makeVault(.sqlite)
        let url = try fixture("Journal.json", journal)
        let first = try vault.importEntries(Importer.read(.dayone, from: [url]).entries)
        XCTAssertEqual(first.imported.count, 3)
        let second = try vault.importEntries(Importer.read(.dayone, from: [url]).entries)
        XCTAssertEqual(second.imported.count, 0)
        XCTAssertEqual(second.duplicates, 3)
        XCTAssertEqual(try vault.entry(first.imported[0]).source, "dayone:4C5E6AEF2B1D4F6A9E0B7C8D9E0F1A2B")
    }

    func testUnescapingLeavesOtherBackslashesAlone() {
        XCTAssertEqual(DayOneText.unescaped(#"a\\b \n \é \"#), #"a\b \n \é \"#)
        XCTAssertEqual(
            DayOneText.readable("![alt](dayone-moment:/audio/99) ![](https://x.org/p.png)").text,
            "[audio recording not imported] ![](https://x.org/p.png)")
    }
}
