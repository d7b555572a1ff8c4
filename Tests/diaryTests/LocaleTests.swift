import Foundation
import XCTest

/// Dates are shown in the locale named by LC_ALL, else LC_TIME, else LANG — not Foundation's
/// `Locale.current`, which ignores those variables on Linux.
final class LocaleTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "locale")
        _ = try box.initVault()
        try box.ok(["new", "Autumn", "--date", "2023-09-15T15:00"])
    }

    override func tearDown() { box = nil }

    private func list(_ env: [String: String]) throws -> String {
        try box.ok(["list"], env: ["LC_ALL": "", "LC_TIME": "", "LANG": ""].merging(env) { $1 }).out
    }

    func testKoreanLocaleShowsKoreanDates() throws {
        XCTAssertTrue(try list(["LC_ALL": "ko_KR.UTF-8"]).contains("2023년 9월 15일"))
    }

    func testGermanLocaleShowsGermanDates() throws {
        let line = try list(["LC_ALL": "de_DE.UTF-8"])
        XCTAssertTrue(line.contains("15. Sept. 2023"), line)
    }

    func testPOSIXLocaleShowsEnglishDates() throws {
        XCTAssertTrue(try list(["LC_ALL": "C"]).contains("Sep 15, 2023"))
    }

    func testLCAllWinsOverLCTimeWhichWinsOverLang() throws {
        XCTAssertTrue(try list(["LC_ALL": "ko_KR.UTF-8", "LC_TIME": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]).contains("년"))
        XCTAssertTrue(try list(["LC_TIME": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]).contains("Sept."))
        XCTAssertTrue(try list(["LANG": "fr_FR.UTF-8"]).contains("15 sept. 2023"))
    }

    func testShowIncludesTheTimeInTheLocale() throws {
        let id = try box.listJSON().first?["id"] as? String ?? ""
        let shown = try box.ok(["show", id], env: ["LC_ALL": "de_DE.UTF-8"]).stdout
        XCTAssertTrue(shown.contains("15:00"), shown)
    }

    func testJSONDatesAreISO8601WithTheOffset() throws {
        let object = try box.listJSON(env: ["TZ": "Asia/Seoul"]).first
        // Typed as 15:00 UTC (the sandbox's TZ), shown in Seoul's +09:00.
        XCTAssertEqual(object?["date"] as? String, "2023-09-16T00:00:00+09:00")
    }

    func testDateWithAnOffsetIsThatInstant() throws {
        let id = try box.ok(["new", "Offset", "--date", "2024-02-22T15:00+09:00"]).out
        let shown = try box.ok(["show", id, "--json"]).stdout
        XCTAssertTrue(shown.contains("\"date\" : \"2024-02-22T06:00:00Z\""), shown)
    }

    func testFiltersByDayIncludeTheWholeDay() throws {
        try box.ok(["new", "Late", "--date", "2023-09-16T23:59"])
        try box.ok(["new", "Next", "--date", "2023-09-17T00:00"])
        let titles = try box.listJSON(["--from", "2023-09-16", "--to", "2023-09-16"]).map { $0["title"] as? String }
        XCTAssertEqual(titles, ["Late"])
    }

    /// The date `list` prints in a locale can be given back to `--on` (and `--date`): it finds
    /// that entry, and only it.
    func testTheDateListPrintsIsAcceptedByOnInTheSameLocale() throws {
        try box.ok(["new", "Late autumn", "--date", "2026-11-25T15:00"])
        try box.ok(["new", "Next day", "--date", "2026-11-26T09:00"])
        let expected = ["ko_KR.UTF-8": "2026년 11월 25일", "ja_JP.UTF-8": "2026年11月25日",
                        "de_DE.UTF-8": "25. Nov. 2026", "ru_RU.UTF-8": "25 нояб. 2026 г."]
        for (locale, printed) in expected {
            let env = ["LC_ALL": locale]
            let line = try XCTUnwrap(try box.ok(["list"], env: env).stdout.split(separator: "\n")
                .first { $0.contains("Late autumn") })
            // id, two spaces, the date, then at least two spaces before the title
            let date = try XCTUnwrap(line.dropFirst(10).components(separatedBy: "  ").first)
            // (Russian prints a no-break space before `г.`; as typed, with a plain one, it works too.)
            XCTAssertEqual(String(date.map { $0.isWhitespace ? " " : $0 }), printed, locale)
            for text in [date, printed] {
                let found = try box.run(["list", "--on", text], env: env)
                XCTAssertEqual(found.status, 0, "\(locale) --on \(text): \(found.stderr)")
                let titles = found.stdout.split(separator: "\n").map { $0.contains("Late autumn") }
                XCTAssertEqual(titles, [true], "\(locale) --on \(text): \(found.stdout)")
            }
            let written = try box.ok(["new", "Again", "--date", date], env: env).out
            let row = try XCTUnwrap(try box.listJSON().first { ($0["id"] as? String) == written })
            XCTAssertEqual(row["date"] as? String, "2026-11-25T00:00:00Z", locale)
            try box.ok(["delete", written, "--yes"])
        }
    }

    /// Day and month in the locale's words, without a year: the most recent such day.
    func testDayAndMonthInTheLocalesWordsWithoutAYear() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func recent(_ month: Int, _ day: Int) -> String {
            let today = calendar.dateComponents([.year, .month, .day], from: Date())
            let year = (month, day) > (today.month!, today.day!) ? today.year! - 1 : today.year!
            return String(format: "%04d-%02d-%02dT00:00:00Z", year, month, day)
        }
        let cases: [(String, String, String)] = [
            ("ko_KR.UTF-8", "2월 22일", recent(2, 22)), ("ja_JP.UTF-8", "2月22日", recent(2, 22)),
            ("de_DE.UTF-8", "22. Februar", recent(2, 22)), ("de_DE.UTF-8", "22. Feb.", recent(2, 22)),
            ("de_DE.UTF-8", "Mär 3", recent(3, 3)), ("de_DE.UTF-8", "3. März 2024", "2024-03-03T00:00:00Z"),
            ("ru_RU.UTF-8", "22 февр.", recent(2, 22)), ("ru_RU.UTF-8", "22 февраля", recent(2, 22)),
            ("fr_FR.UTF-8", "22 févr.", recent(2, 22)),
        ]
        for (locale, text, date) in cases {
            let result = try box.run(["new", "On \(text)", "--date", text], env: ["LC_ALL": locale])
            XCTAssertEqual(result.status, 0, "\(locale) \(text): \(result.stderr)")
            let row = try box.listJSON().first { ($0["id"] as? String) == result.out }
            XCTAssertEqual(row?["date"] as? String, date, "\(locale) \(text)")
            let on = try box.run(["list", "--on", text, "--json"], env: ["LC_ALL": locale])
            XCTAssertEqual(on.status, 0, "\(locale) --on \(text): \(on.stderr)")
        }
        // Still strict: a day no month has, and words that are no date.
        for (locale, text) in [("de_DE.UTF-8", "30. Feb. 2026"), ("ko_KR.UTF-8", "2월 30일"), ("ja_JP.UTF-8", "2月30日"),
                               ("de_DE.UTF-8", "30. Februar"), ("ko_KR.UTF-8", "2026년 13월 1일"), ("de_DE.UTF-8", "Nov.")] {
            let result = try box.run(["list", "--on", text], env: ["LC_ALL": locale])
            XCTAssertEqual(result.status, 64, "\(locale) \(text): \(result.stdout)")
        }
    }
}
