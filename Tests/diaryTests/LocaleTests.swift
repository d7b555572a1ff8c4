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

    /// The locale the environment names reaches what `list` and `show` print (which variable
    /// wins, and the formats, are DiaryAppTests' `LocaleCalendarTests`), and `TZ` the offset of
    /// JSON dates.
    func testTheEnvironmentsLocaleIsTheOneShown() throws {
        XCTAssertTrue(try list(["LC_ALL": "ko_KR.UTF-8"]).contains("2023년 9월 15일"))
        XCTAssertTrue(try list(["LC_ALL": "C"]).contains("Sep 15, 2023"))
        XCTAssertTrue(try list(["LC_TIME": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]).contains("15. Sept. 2023"))
        XCTAssertTrue(try list(["LANG": "fr_FR.UTF-8"]).contains("15 sept. 2023"))
        let id = try box.listJSON().first?["id"] as? String ?? ""
        let shown = try box.ok(["show", id], env: ["LC_ALL": "de_DE.UTF-8"]).stdout
        XCTAssertTrue(shown.contains("15:00"), shown)
        // JSON dates are ISO 8601 with the offset: typed as 15:00 UTC (the sandbox's TZ), shown
        // in Seoul's +09:00.
        XCTAssertEqual(
            try box.listJSON(env: ["TZ": "Asia/Seoul"]).first?["date"] as? String, "2023-09-16T00:00:00+09:00")
    }

    /// The date `list` prints in a locale can be given back to `--on` (and `--date`): it finds
    /// that entry, and only it.
    func testTheDateListPrintsIsAcceptedByOnInTheSameLocale() throws {
        try box.ok(["new", "Late autumn", "--date", "2026-11-25T15:00"])
        try box.ok(["new", "Next day", "--date", "2026-11-26T09:00"])
        // (Every locale's form is DiaryAppTests' `LocaleDateTests`; here, the round trip.)
        let expected = ["ko_KR.UTF-8": "2026년 11월 25일", "ru_RU.UTF-8": "25 нояб. 2026 г."]
        for (locale, printed) in expected {
            let env = ["LC_ALL": locale]
            let line = try XCTUnwrap(
                try box.ok(["list"], env: env).stdout.split(separator: "\n")
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
}
