import Foundation
import XCTest

/// `diary stats` end to end: totals, streaks, the busiest weekday and the tags, as lines and as
/// JSON with stable keys; damage named on stderr; colour only on a terminal. (The numbers are
/// DiaryAppTests' `StatsReportTests`; their wording for other days and locales, `StatsLinesTests`.)
final class StatsTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "stats")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func write(_ text: String, on date: String, _ extra: [String] = []) throws {
        try box.ok(["new", "--date", date] + extra, stdin: Data(text.utf8))
    }

    private func stats() throws -> [String: Any] {
        let out = try box.ok(["stats", "--json"]).stdout
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], out)
    }

    /// `YYYY-MM-DD` of today minus `days`, in UTC (the sandbox's TZ).
    private func day(_ daysAgo: Int) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.year, .month, .day], from: utc.date(byAdding: .day, value: -daysAgo, to: Date())!)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func testCountsEntriesWordsStreaksWeekdaysTagsAndDamagedEntries() throws {
        // Monday 2024-03-04 to Friday 2024-03-08: the longest streak, five days.
        for (i, date) in ["2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07", "2024-03-08"].enumerated() {
            try write("day \(i) of the walk", on: date, ["--tag", "walk"])
        }
        // Three more Mondays: Monday is the busiest weekday (4, and one per recent entry on a
        // Monday), whatever today is (any other weekday has at most 1 + 2).
        try write("monday again", on: "2024-03-11", ["--tag", "work"])
        try write("and again", on: "2024-03-18", ["--tag", "walk"])
        try write("and once more", on: "2024-03-25T09:00", ["--star"])
        // Today, yesterday, the day before: a current streak of three.
        try write("two days ago", on: day(2))
        try write("yesterday it rained", on: day(1), ["--star"])
        try write("today", on: day(0))
        try write("today again, twice", on: day(0))

        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let recentMondays = [0, 0, 1, 2].filter {
            utc.component(.weekday, from: utc.date(byAdding: .day, value: -$0, to: Date())!) == 2
        }.count
        let mondays = 4 + recentMondays

        let s = try stats()
        XCTAssertEqual(s["entries"] as? Int, 12)
        XCTAssertEqual(s["words"] as? Int, 5 * 5 + 2 + 2 + 3 + 3 + 3 + 1 + 3)
        XCTAssertEqual(s["daysWritten"] as? Int, 11)
        XCTAssertEqual(s["starred"] as? Int, 2)
        let current = try XCTUnwrap(s["currentStreak"] as? [String: Any])
        XCTAssertEqual(current["days"] as? Int, 3)
        XCTAssertEqual(current["from"] as? String, day(2))
        XCTAssertEqual(current["to"] as? String, day(0))
        let longest = try XCTUnwrap(s["longestStreak"] as? [String: Any])
        XCTAssertEqual(longest["days"] as? Int, 5)
        XCTAssertEqual(longest["from"] as? String, "2024-03-04")
        XCTAssertEqual(longest["to"] as? String, "2024-03-08")
        let busiest = try XCTUnwrap(s["busiestWeekday"] as? [String: Any])
        XCTAssertEqual(busiest["weekday"] as? String, "monday")
        XCTAssertEqual(busiest["entries"] as? Int, mondays)
        let tags = try XCTUnwrap(s["tags"] as? [[String: Any]])
        XCTAssertEqual(tags.map { $0["tag"] as? String }, ["walk", "work"])
        XCTAssertEqual(tags.map { $0["entries"] as? Int }, [6, 1])
        XCTAssertEqual(s["first"] as? String, "2024-03-04T00:00:00Z")
        XCTAssertTrue((s["last"] as? String)?.hasPrefix(day(0)) == true, "\(String(describing: s["last"]))")

        let lines = try box.ok(["stats"]).stdout
        XCTAssertFalse(lines.contains("\u{1B}["), "no colour into a pipe")
        for expected in [
            "entries          12\n", "days written     11\n", "current streak   3 days, through today\n",
            "longest streak   5 days, Mar 4, 2024 - Mar 8, 2024\n", "busiest weekday  Monday (\(mondays) entries)\n",
            "first entry      Mar 4, 2024\n", "tags\n  6  #walk\n  1  #work\n",
        ] {
            XCTAssertTrue(lines.contains(expected), "\(expected) in:\n\(lines)")
        }

        try checkADamagedEntryCountsWithoutItsWordsAndIsNamed()
    }

    /// An entry whose text does not open still counts as an entry (the index has its date),
    /// without words, and is named on stderr, as `search` names what it could not search.
    private func checkADamagedEntryCountsWithoutItsWordsAndIsNamed() throws {
        let files = try DiarySandbox(name: "stats-damage")
        _ = try files.initVault(store: "files")
        let ids = try ["one two", "three four five", "six"].map {
            try files.ok(["new", "--date", "2024-05-01"], stdin: Data($0.utf8)).out
        }
        let file = files.vault.appendingPathComponent("entries/\(ids[1])")
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count - 5] ^= 0x01
        try Data(bytes).write(to: file)

        for command in [["stats", "--json"], ["calendar", "2024", "--json"]] {
            let result = try files.ok(command)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            XCTAssertEqual(object["entries"] as? Int, 3, "\(command)")
            XCTAssertEqual(object["words"] as? Int, 3, "\(command)")
            XCTAssertTrue(result.stderr.contains("diary: warning: entry \(ids[1]) is damaged"), result.stderr)
            XCTAssertFalse(result.stderr.contains(ids[0]) || result.stderr.contains(ids[2]), result.stderr)
        }
    }

    func testColourOnlyOnATerminalAndNeverWithNOCOLOR() throws {
        try write("tagged", on: "2024-03-03", ["--tag", "walk"])
        let coloured = try box.runOnTerminal(["stats"], colour: true)
        XCTAssertEqual(coloured.status, 0, coloured.shown)
        XCTAssertTrue(coloured.shown.contains("\u{1B}[36m#walk"), "a cyan tag on a terminal: \(coloured.shown)")
        let plain = try box.runOnTerminal(["stats"], colour: true, env: ["NO_COLOR": "1"])
        XCTAssertEqual(plain.status, 0, plain.shown)
        XCTAssertTrue(plain.shown.contains("#walk"), plain.shown)
        XCTAssertFalse(plain.shown.contains("\u{1B}["), "NO_COLOR: \(plain.shown)")
    }
}
