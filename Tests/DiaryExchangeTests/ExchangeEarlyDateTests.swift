import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Days before 1582 are Gregorian in the exchange files too, as the CLI reads and prints them
/// (issue 22: `new --date 0001-01-01` exported as `0001-01-03`, `date: 1500-03-01` imported as
/// Mar 11, 1500): Foundation's calendar is Julian there.
final class ExchangeEarlyDateTests: ExchangeTestCase {
    private func day(_ y: Int, _ m: Int, _ d: Int, in zone: TimeZone = .current) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return ProlepticGregorian.date(DateComponents(year: y, month: m, day: d), in: calendar)!
    }

    private func entry(_ date: Date, isDay: Bool) -> Entry {
        Entry(
            id: UUID(), text: "Early", date: date, created: date, modified: date, starred: false, tags: [],
            isCalendarDay: isDay)
    }

    func testExportWritesGregorianDays() throws {
        for (y, m, d) in [(1, 1, 1), (1500, 3, 1), (1582, 10, 4)] {
            let e = entry(day(y, m, d), isDay: true)
            let iso = String(format: "%04d-%02d-%02d", y, m, d)
            let json = String(decoding: Exporter.json([e]), as: UTF8.self)
            XCTAssertTrue(json.contains("\"date\" : \"\(iso)\""), json)
            XCTAssertTrue(Exporter.markdownFile(e).contains("date: \(iso)\n"), Exporter.markdownFile(e))
            XCTAssertTrue(Exporter.markdownFileName(e).hasPrefix(iso + "-"), Exporter.markdownFileName(e))
        }
    }

    func testImportReadsGregorianDays() throws {
        let markdown = try fixture("early.md", "---\ndate: 1500-03-01\n---\n\nEarly\n")
        XCTAssertEqual(try Importer.read(.markdown, from: [markdown], timeZone: utc).entries[0].date, day(1500, 3, 1))
        let jrnl = try fixture(
            "jrnl.json",
            #"{"tags": {}, "entries": [{"title": "Early", "body": "", "date": "1500-03-01", "time": "09:00", "tags": [], "starred": false}]}"#
        )
        let timed = try Importer.read(.jrnl, from: [jrnl], timeZone: utc).entries[0].date
        XCTAssertEqual(timed, day(1500, 3, 1, in: utc).addingTimeInterval(9 * 3600))
        let e = entry(day(1500, 3, 1), isDay: true)
        let url = try fixture("diary.json", String(decoding: Exporter.json([e]), as: UTF8.self))
        XCTAssertEqual(try Importer.read(.diary, from: [url]).entries[0].date, e.date)
    }
}
