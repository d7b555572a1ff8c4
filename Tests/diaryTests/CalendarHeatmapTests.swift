import DiaryApp
import Foundation
import XCTest

@testable import diary

/// `calendar`'s picture of a year, drawn in process (`YearHeatmap`, `MonthGrid`) with a fixed
/// locale and width: months side by side as many as fit, each day's number under its weekday
/// with its mark (shade by words, or a star), months and weekdays in the locale. (The tallies
/// are DiaryAppTests' `CalendarYearTests`; the whole command runs in `CalendarTests`.)
final class CalendarHeatmapTests: XCTestCase {
    private func day(_ iso: String) -> CalendarDay {
        let parts = iso.split(separator: "-").map { Int($0)! }
        return CalendarDay(year: parts[0], month: parts[1], day: parts[2])
    }

    private func lines(
        _ days: [String: DayTally], locale: String = "en_US_POSIX", ascii: Bool = false, width: Int = 80,
        colour: Bool = false, today: String? = nil
    ) -> [String] {
        let tallies = Dictionary(uniqueKeysWithValues: days.map { (day($0.key), $0.value) })
        let heatmap = YearHeatmap(
            year: 2024, days: tallies, style: Style(enabled: colour), ascii: ascii,
            locale: LocaleCalendar(localeIdentifier: locale, timeZone: .gmt).locale, width: width,
            today: today.map(day))
        return heatmap.lines.joined(separator: "\n").components(separatedBy: "\n")
    }

    /// The lines of `month`'s grid (its name, weekdays, weeks), cut out of the row it sits in:
    /// its column is found under its name.
    private func grid(_ name: String, in lines: [String]) throws -> [String] {
        let row = try XCTUnwrap(
            lines.firstIndex { $0.contains(name) }, "no \(name) in\n\(lines.joined(separator: "\n"))")
        let nameStart = DisplayWidth.of(String(lines[row][..<lines[row].range(of: name)!.lowerBound]))
        let column = nameStart / (MonthGrid.width + YearHeatmap.gap) * (MonthGrid.width + YearHeatmap.gap)
        var grid: [String] = []
        for line in lines[row...] {
            if line.isEmpty { break }
            let characters = Array(line)
            let end = min(characters.count, column + MonthGrid.width)
            grid.append(column < end ? String(characters[column..<end]) : "")
        }
        // A month with fewer weeks than its neighbours ends in blank lines.
        while let last = grid.last, last.allSatisfy({ $0 == " " }) { grid.removeLast() }
        return grid
    }

    /// The day numbers of a grid's week lines, in order.
    private func numbers(_ grid: [String]) -> [Int] {
        grid.dropFirst(2).flatMap { $0.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) } }
    }

    private let leapDayAndMarch = [
        "2024-02-29": DayTally(entries: 1, words: 3, starred: true), "2024-03-01": DayTally(entries: 1, words: 150),
        "2024-03-02": DayTally(entries: 2, words: 700),
    ]

    func testEachDayHasItsNumberUnderItsWeekdayAndItsMark() throws {
        let lines = self.lines(leapDayAndMarch)
        // POSIX locale: weeks start on Sunday; February 1, 2024 was a Thursday.
        let february = try grid("February", in: lines)
        XCTAssertEqual(february[1], "Su Mo Tu We Th Fr Sa ")
        XCTAssertEqual(february[2], String(repeating: " ", count: 4 * 3) + " 1  2  3 ")
        XCTAssertEqual(numbers(february), Array(1...29))
        XCTAssertTrue(february.last!.hasPrefix("25 26 27 28 29★"), february.last!)
        let march = try grid("March", in: lines)
        XCTAssertEqual(march[2], String(repeating: " ", count: 5 * 3) + " 1▒ 2█")
        XCTAssertEqual(numbers(march), Array(1...31))
        XCTAssertFalse(lines.joined().contains("\u{1B}"), "no colour asked for")
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("\n4 entries, 853 words, 3 days written\n"), text)
        XCTAssertTrue(text.hasSuffix("░ 1-99  ▒ 100-299  ▓ 300-599  █ 600+ words  ★ starred"), text)

        let ascii = self.lines(leapDayAndMarch, ascii: true)
        XCTAssertTrue(try grid("February", in: ascii).last!.hasPrefix("25 26 27 28 29*"))
        XCTAssertEqual(try grid("March", in: ascii)[2], String(repeating: " ", count: 5 * 3) + " 1+ 2@")
    }

    /// Each shade starts at its documented word count.
    func testTheShadesStartAtTheirWordCounts() {
        XCTAssertEqual(YearHeatmap.level(DayTally()), 0)
        XCTAssertEqual(YearHeatmap.level(DayTally(entries: 1, words: 0)), 1, "an entry whose words were not counted")
        for (words, level) in [(1, 1), (99, 1), (100, 2), (299, 2), (300, 3), (599, 3), (600, 4), (10_000, 4)] {
            XCTAssertEqual(YearHeatmap.level(DayTally(entries: 1, words: words)), level, "\(words)")
        }
    }

    /// As many months side by side as the width holds (21 columns each, 2 between), every
    /// line within the width down to one month; the legend wraps too.
    func testMonthsPerRowFitTheWidth() {
        for (width, perRow) in [
            (10, 1), (43, 1), (44, 2), (66, 2), (67, 3), (80, 3), (89, 3), (90, 4), (135, 4), (136, 6), (200, 6),
        ] {
            XCTAssertEqual(YearHeatmap.monthsPerRow(width: width), perRow, "\(width) columns")
            let lines = self.lines(leapDayAndMarch, width: width)
            let headers = lines.filter { $0.hasPrefix("Su Mo Tu We Th Fr Sa") }
            XCTAssertEqual(headers.count, 12 / perRow, "\(width) columns")
            XCTAssertEqual(headers.first?.components(separatedBy: "Su Mo").count, perRow + 1, "\(width) columns")
            guard width >= MonthGrid.width else { continue }
            for line in lines {
                XCTAssertLessThanOrEqual(DisplayWidth.of(line), width, "\(width) columns: \(line)")
            }
        }
        let narrow = lines(leapDayAndMarch, width: 40).suffix(2)
        XCTAssertEqual(Array(narrow), ["░ 1-99  ▒ 100-299  ▓ 300-599", "█ 600+ words  ★ starred"])
    }

    /// With colour: a written day's number is green in its shade, a star yellow, today inverted.
    func testColourMarksWrittenDaysAndToday() throws {
        let lines = self.lines(leapDayAndMarch, colour: true, today: "2024-03-02")
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("\u{1B}[2;32m29\u{1B}[0m\u{1B}[33m★\u{1B}[0m"), text)
        XCTAssertTrue(text.contains("\u{1B}[32m 1\u{1B}[0m\u{1B}[32m▒\u{1B}[0m"), text)
        XCTAssertTrue(text.contains("\u{1B}[1;92;7m 2\u{1B}[0m"), "today, inverted: \(text)")
        XCTAssertTrue(text.contains(" 3  4"), "days without entries stay plain: \(text)")
    }

    /// The week starts where the locale starts it (Monday in Germany, Sunday in Korea), with
    /// the locale's short weekday names where they fit two columns.
    func testMonthsAndWeekdaysFollowTheLocale() throws {
        let german = lines(["2024-02-29": DayTally(entries: 1, words: 3, starred: true)], locale: "de_DE")
        let february = try grid("Februar", in: german)
        XCTAssertEqual(february[1], "Mo Di Mi Do Fr Sa So ")
        // Thursday is the fourth column when the week starts on Monday.
        XCTAssertEqual(february[2], String(repeating: " ", count: 3 * 3) + " 1  2  3  4 ")
        XCTAssertTrue(february.last!.hasPrefix("26 27 28 29★"), february.last!)
        XCTAssertNoThrow(try grid("März", in: german))
        XCTAssertNoThrow(try grid("Dezember", in: german))

        let korean = lines([:], locale: "ko_KR")
        XCTAssertTrue(korean.contains { $0.hasPrefix("일 월 화 수 목 금 토") }, korean.joined(separator: "\n"))
        XCTAssertEqual(numbers(try grid("2월", in: korean)), Array(1...29))
        XCTAssertNoThrow(try grid("12월", in: korean))
    }

    /// The months are Gregorian, so their names are too in a locale whose default calendar is
    /// another (Persian in fa_IR, Hijri in ar_SA), whole and never cut.
    func testMonthNamesAreGregorianInLocalesWithAnotherCalendar() throws {
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
            let lines = self.lines(["2024-11-25": DayTally(entries: 1, words: 3)], locale: locale, width: 21)
            // One month a row: each row starts with the month's name, after a blank line.
            let names = lines.indices.dropFirst().filter { lines[$0 - 1].isEmpty }.prefix(12)
                .map { lines[$0].trimmingCharacters(in: .whitespaces) }
            XCTAssertEqual(names, months, locale)
            XCTAssertEqual(numbers(try grid(months[1], in: lines)), Array(1...29), locale)
            XCTAssertTrue(try grid(months[10], in: lines).contains { $0.contains("25░") }, locale)
        }
    }
}
