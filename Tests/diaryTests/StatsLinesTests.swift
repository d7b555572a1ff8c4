import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import diary

/// How `stats` words its numbers, in process (`StatsReport.lines` and `.record`), for the cases
/// whose answer depends on the day it is: a streak through yesterday, a streak that is over,
/// an empty vault. (The numbers are DiaryAppTests' `StatsReportTests`; the whole command runs
/// in `StatsTests`.)
final class StatsLinesTests: VaultTestCase {
    private var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    private func report(_ vault: Vault, today: String) throws -> StatsReport {
        let day = ISO8601DateFormatter().date(from: today + "T12:00:00Z")!
        return StatsReport(try WrittenEntries.read(vault), today: CalendarDay(day, calendar: utc), calendar: utc)
    }

    private func json(_ report: StatsReport) throws -> [String: Any] {
        let text = try EntryFormat.json(report.record)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// While today has no entry yet, a streak through yesterday is still running; one that
    /// ended before yesterday is over: 0 days, and null dates in JSON.
    func testTheCurrentStreakThroughYesterdayAndOver() throws {
        let vault = try makeVault(.sqlite)
        for day in ["2026-03-08", "2026-03-09", "2026-03-10"] {
            _ = try vault.add(text: "written", date: date(day + "T12:00:00Z"))
        }
        let running = try report(vault, today: "2026-03-11")
        XCTAssertTrue(
            running.lines(style: Style(enabled: false))
                .contains("current streak   3 days, through yesterday (write today to keep it)"))
        let current = try XCTUnwrap(try json(running)["currentStreak"] as? [String: Any])
        XCTAssertEqual(current["days"] as? Int, 3)
        XCTAssertEqual(current["from"] as? String, "2026-03-08")
        XCTAssertEqual(current["to"] as? String, "2026-03-10")

        let over = try report(vault, today: "2026-03-12")
        XCTAssertTrue(over.lines(style: Style(enabled: false)).contains("current streak   0 days"))
        let broken = try XCTUnwrap(try json(over)["currentStreak"] as? [String: Any])
        XCTAssertEqual(broken["days"] as? Int, 0)
        XCTAssertTrue(broken["from"] is NSNull && broken["to"] is NSNull, "\(broken)")
        XCTAssertEqual((try json(over)["longestStreak"] as? [String: Any])?["days"] as? Int, 3)
    }

    func testAnEmptyVaultHasEveryKeyWithZerosAndNulls() throws {
        let empty = try report(try makeVault(.files), today: "2026-03-11")
        let s = try json(empty)
        XCTAssertEqual(
            Set(s.keys),
            [
                "entries", "words", "daysWritten", "starred", "currentStreak", "longestStreak", "busiestWeekday",
                "tags",
                "first", "last",
            ])
        XCTAssertEqual(s["entries"] as? Int, 0)
        XCTAssertEqual(s["words"] as? Int, 0)
        XCTAssertTrue(s["busiestWeekday"] is NSNull)
        XCTAssertTrue(s["first"] is NSNull && s["last"] is NSNull)
        XCTAssertEqual((s["tags"] as? [Any])?.count, 0)
        XCTAssertEqual((s["longestStreak"] as? [String: Any])?["days"] as? Int, 0)
        XCTAssertEqual(
            empty.lines(style: Style(enabled: false)),
            [
                "entries          0", "words            0", "days written     0", "starred          0",
                "current streak   0 days", "longest streak   0 days", "busiest weekday  -", "first entry      -",
                "last entry       -", "tags             -",
            ])
    }

    /// Dates and the weekday in the locale, a tag that holds a terminal escape shown escaped.
    func testTheLocalesWordsAndEscapedTags() throws {
        let vault = try makeVault(.sqlite)
        _ = try vault.add(text: "Sunday walk", date: date("2024-03-03T12:00:00Z"), tags: ["bad\u{1B}[2Jtag"])
        let report = try report(vault, today: "2026-03-11")
        let utc = TimeZone(identifier: "UTC")!
        let german = report.lines(
            style: Style(enabled: false), context: LocaleCalendar(localeIdentifier: "de_DE", timeZone: utc))
        XCTAssertTrue(german.contains("busiest weekday  Sonntag (1 entry)"), "\(german)")
        XCTAssertTrue(german.contains("first entry      3. März 2024"), "\(german)")
        XCTAssertTrue(german.contains("longest streak   1 day, 3. März 2024"), "\(german)")
        XCTAssertTrue(german.contains("  1  #bad\\e[2Jtag"), "\(german)")
        XCTAssertFalse(german.joined().contains("\u{1B}"), "\(german)")
        let english = report.lines(
            style: Style(enabled: false), context: LocaleCalendar(localeIdentifier: "en_US_POSIX", timeZone: utc))
        XCTAssertTrue(english.contains("busiest weekday  Sunday (1 entry)"), "\(english)")
        XCTAssertTrue(english.contains("last entry       Mar 3, 2024"), "\(english)")
    }
}
