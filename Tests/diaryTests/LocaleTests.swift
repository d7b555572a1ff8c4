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
}
