import DiaryApp
import Foundation
import XCTest

@testable import diary

/// `calendar`'s picture of a year, drawn in process (`YearHeatmap`) with a fixed locale: a cell
/// per day shaded by the words written, stars marked, months and weekdays in the locale. (The
/// tallies are DiaryAppTests' `CalendarYearTests`; the whole command runs in `CalendarTests`.)
final class CalendarHeatmapTests: XCTestCase {
    private func day(_ iso: String) -> CalendarDay {
        let parts = iso.split(separator: "-").map { Int($0)! }
        return CalendarDay(year: parts[0], month: parts[1], day: parts[2])
    }

    private func lines(_ days: [String: DayTally], locale: String = "en_US_POSIX", ascii: Bool = false) -> [Substring] {
        let tallies = Dictionary(uniqueKeysWithValues: days.map { (day($0.key), $0.value) })
        let heatmap = YearHeatmap(
            year: 2024, days: tallies, style: Style(enabled: false), ascii: ascii,
            locale: LocaleCalendar(localeIdentifier: locale, timeZone: .gmt).locale)
        return heatmap.lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The rows of a month: the cells after the label, two columns each, leading blanks (days
    /// of the previous month's last week) dropped.
    private func cells(of month: String, in lines: [Substring], labelWidth: Int) throws -> [String] {
        let row = try XCTUnwrap(lines.first { $0.hasPrefix(month + " ") }, "no row for \(month)")
        var rest = Array(String(row).dropFirst(labelWidth + 1))
        var cells: [String] = []
        while !rest.isEmpty {
            cells.append(String(rest.prefix(2)))
            rest.removeFirst(min(2, rest.count))
        }
        while cells.first == "  " { cells.removeFirst() }
        if let last = cells.last, last.count == 1 { cells[cells.count - 1] = last + " " }  // trailing space trimmed
        return cells
    }

    private let leapDayAndMarch = [
        "2024-02-29": DayTally(entries: 1, words: 3, starred: true), "2024-03-01": DayTally(entries: 1, words: 150),
    ]

    func testEachDayIsShadedAndStarsAreMarked() throws {
        let lines = self.lines(leapDayAndMarch)
        // POSIX locale: weeks start on Sunday; February 1, 2024 was a Thursday.
        XCTAssertTrue(lines[0].hasPrefix("2024 S M T W T F S S M"), String(lines[0]))
        let feb = try XCTUnwrap(lines.first { $0.hasPrefix("Feb ") })
        XCTAssertTrue(feb.hasPrefix("Feb" + String(repeating: " ", count: 2 + 4 * 2) + "·"), "Thursday column: \(feb)")
        let febCells = try cells(of: "Feb", in: lines, labelWidth: 4)
        XCTAssertEqual(febCells.count, 29)
        XCTAssertEqual(febCells[28], "░★")
        XCTAssertEqual(Set(febCells.dropLast()), ["· "])
        let marCells = try cells(of: "Mar", in: lines, labelWidth: 4)
        XCTAssertEqual(marCells.count, 31)
        XCTAssertEqual(marCells[0], "▒ ")
        let labels = lines.dropFirst().prefix(12).map { $0.prefix(3) }
        XCTAssertEqual(labels, ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("\n2 entries, 153 words, 2 days written\n"), text)
        XCTAssertTrue(text.contains("· none  ░ 1-99  ▒ 100-299  ▓ 300-599  █ 600+ words  ★ starred"), text)
        for line in lines { XCTAssertLessThanOrEqual(line.count, 80, String(line)) }

        let ascii = self.lines(leapDayAndMarch, ascii: true)
        XCTAssertEqual(try cells(of: "Feb", in: ascii, labelWidth: 4)[28], ":*")
        XCTAssertEqual(try cells(of: "Mar", in: ascii, labelWidth: 4)[0], "+ ")
    }

    /// Each shade starts at its documented word count.
    func testTheShadesStartAtTheirWordCounts() {
        XCTAssertEqual(YearHeatmap.level(DayTally()), 0)
        XCTAssertEqual(YearHeatmap.level(DayTally(entries: 1, words: 0)), 1, "an entry whose words were not counted")
        for (words, level) in [(1, 1), (99, 1), (100, 2), (299, 2), (300, 3), (599, 3), (600, 4), (10_000, 4)] {
            XCTAssertEqual(YearHeatmap.level(DayTally(entries: 1, words: words)), level, "\(words)")
        }
    }

    /// The week starts where the locale starts it (Monday in Germany, Sunday in Korea).
    func testMonthsAndWeekdaysFollowTheLocale() throws {
        let german = lines(["2024-02-29": DayTally(entries: 1, words: 3, starred: true)], locale: "de_DE")
        XCTAssertTrue(german[0].hasPrefix("2024 M D M D F S S M D"), String(german[0]))
        XCTAssertTrue(german.contains { $0.hasPrefix("Mär ") }, german.joined(separator: "\n"))
        XCTAssertTrue(german.contains { $0.hasPrefix("Dez ") }, german.joined(separator: "\n"))
        // Thursday is the fourth column when the week starts on Monday.
        let feb = try XCTUnwrap(german.first { $0.hasPrefix("Feb ") })
        XCTAssertTrue(feb.hasPrefix("Feb" + String(repeating: " ", count: 2 + 3 * 2) + "·"), String(feb))
        XCTAssertEqual(try cells(of: "Feb", in: german, labelWidth: 4)[28], "░★")

        let korean = lines([:], locale: "ko_KR")
        XCTAssertTrue(korean[0].hasPrefix("2024 일월화수목금토일"), String(korean[0]))
        let labels = korean.dropFirst().prefix(12).map { String($0.split(separator: " ")[0]) }
        XCTAssertEqual(labels, (1...12).map { "\($0)월" })
    }

    /// The rows are Gregorian months, so their names are too in a locale whose default calendar
    /// is another (Persian in fa_IR, Hijri in ar_SA): whole names, never cut, the label column
    /// as wide as the widest.
    func testMonthNamesAreGregorianInLocalesWithAnotherCalendar() {
        let expected = [
            "fa_IR": [
                "ژانویه", "فوریه", "مارس", "آوریل", "مه", "ژوئن", "ژوئیه", "اوت", "سپتامبر", "اکتبر",
                "نوامبر", "دسامبر",
            ],
            "ar_SA": [
                "يناير", "فبراير", "مارس", "أبريل", "مايو", "يونيو", "يوليو", "أغسطس", "سبتمبر", "أكتوبر",
                "نوفمبر", "ديسمبر",
            ],
        ]
        for (locale, months) in expected {
            let lines = self.lines(["2024-11-25": DayTally(entries: 1, words: 3)], locale: locale).map(String.init)
            let rows = Array(lines[1...12])
            XCTAssertEqual(rows.map { String($0.split(separator: " ")[0]) }, months, locale)
            let width = months.map(\.count).max()!
            for row in rows { XCTAssertEqual(row.dropFirst(width).first, " ", "\(locale): \(row)") }
            // February 2024 has 29 days; November 25th is shaded.
            XCTAssertEqual(rows[1].filter { $0 == "·" || $0 == "░" }.count, 29, "\(locale): \(rows[1])")
            XCTAssertTrue(rows[10].contains("░"), "\(locale): \(rows[10])")
        }
    }
}
