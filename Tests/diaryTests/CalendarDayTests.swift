import Foundation
import XCTest

/// A date without a time is a calendar day: written in one time zone, it is the same day when
/// read in any other (docs/FORMAT.md §7, "Entry dates that are calendar days"). The vault reads
/// the process's TZ, so each zone is a process here; the storage rule itself, with the zones
/// given, is DiaryVaultTests' `CalendarDayStorageTests`.
final class CalendarDayTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "days")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private let zones = [
        "Asia/Seoul", "Europe/London", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago",
    ]

    private func dates(in zone: String, _ extra: [String] = []) throws -> [String: String] {
        var byTitle: [String: String] = [:]
        for row in try box.listJSON(extra, env: ["TZ": zone]) {
            byTitle[row["title"] as? String ?? ""] = row["date"] as? String
        }
        return byTitle
    }

    func testADayWrittenInSeoulIsTheSameDayEverywhere() throws {
        for store in ["sqlite", "files"] {
            box = try DiarySandbox(name: "days-\(store)")
            _ = try box.initVault(store: store)
            try box.ok(["new", "First of March", "--date", "2024-03-01"], env: ["TZ": "Asia/Seoul"])
            try box.ok(["new", "Leap day", "--date", "feb 29 2024"], env: ["TZ": "Pacific/Kiritimati"])
            for zone in zones {
                let shown = try dates(in: zone)
                XCTAssertEqual(shown["First of March"]?.prefix(19), "2024-03-01T00:00:00", "\(store) \(zone): \(shown)")
                XCTAssertEqual(shown["Leap day"]?.prefix(19), "2024-02-29T00:00:00", "\(store) \(zone): \(shown)")
                let list = try box.ok(["list"], env: ["TZ": zone]).stdout
                XCTAssertTrue(list.contains("Mar 1, 2024"), "\(zone): \(list)")
                XCTAssertTrue(list.contains("Feb 29, 2024"), "\(zone): \(list)")
            }
            // `show` gives a day without a time of day, an instant with one.
            let id = try XCTUnwrap(
                try box.listJSON().first { ($0["title"] as? String) == "First of March" }?["id"] as? String)
            let shown = try box.ok(["show", id], env: ["TZ": "America/Los_Angeles"]).stdout
            XCTAssertTrue(shown.contains("Mar 1, 2024\n"), shown)
            // In London (written in Seoul) the whole day is the 1st: so it was not before the fix.
            let london = try box.ok(["list", "--json"], env: ["TZ": "Europe/London"]).stdout
            XCTAssertFalse(london.contains("2024-02-29T15:00"), london)
        }
    }

    func testRangesAndOrderFollowTheDayInTheReadersZone() throws {
        try box.ok(["new", "Day entry", "--date", "2024-03-01"], env: ["TZ": "Asia/Seoul"])
        // 20:00 on Feb 29 in Los Angeles is 04:00 UTC on March 1, after the day's midnight UTC.
        try box.ok(["new", "Evening before", "--date", "2024-02-29T20:00"], env: ["TZ": "America/Los_Angeles"])
        let la = ["TZ": "America/Los_Angeles"]
        let march = try box.listJSON(["--from", "2024-03-01", "--to", "2024-03-01"], env: la)
        XCTAssertEqual(march.map { $0["title"] as? String }, ["Day entry"])
        let february = try box.listJSON(["--to", "2024-02-29"], env: la)
        XCTAssertEqual(february.map { $0["title"] as? String }, ["Evening before"])
        // Newest first by the date shown: the day (March 1) before the evening of February 29,
        // with and without a limit.
        XCTAssertEqual(try box.listJSON([], env: la).map { $0["title"] as? String }, ["Day entry", "Evening before"])
        XCTAssertEqual(try box.listJSON(["-n", "1"], env: la).map { $0["title"] as? String }, ["Day entry"])
    }

    func testTheDayOutlivesChangesToTheEntry() throws {
        let id = try box.ok(["new", "Kept as a day", "--date", "2024-03-01"], env: ["TZ": "Asia/Seoul"]).out
        try box.ok(["star", id], env: ["TZ": "Asia/Seoul"])
        try box.ok(["tag", id, "+kept"], env: ["TZ": "America/Los_Angeles"])
        try box.ok(["edit", id], env: ["TZ": "Pacific/Kiritimati", "EDITOR": try box.script("echo more >> \"$1\"")])
        for zone in zones {
            XCTAssertEqual(try dates(in: zone)["Kept as a day"]?.prefix(10), "2024-03-01", zone)
        }
        // A new date with a time makes it an instant again; a day again with a date alone.
        try box.ok(["edit", id, "--date", "2024-03-05T10:00Z"], env: ["EDITOR": "true"])
        XCTAssertEqual(try dates(in: "America/Los_Angeles")["Kept as a day"]?.prefix(16), "2024-03-05T02:00")
        try box.ok(["edit", id, "--date", "2024-03-06"], env: ["EDITOR": "true", "TZ": "Asia/Seoul"])
        XCTAssertEqual(try dates(in: "America/Los_Angeles")["Kept as a day"]?.prefix(10), "2024-03-06")
    }

    /// Written in Seoul, exported there, imported in Los Angeles: the lossless export keeps the
    /// day, and so does Markdown (`date: 2024-03-01`), read as a day in every zone.
    func testExportsKeepTheDayAcrossZones() throws {
        try box.ok(["new", "Exported day", "--date", "2024-03-01"], env: ["TZ": "Asia/Seoul"])
        let file = box.root.appendingPathComponent("all.json").path
        try box.ok(["export", "--format", "json", "-o", file, "--yes"], env: ["TZ": "Asia/Seoul"])
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("\"date\" : \"2024-03-01\""))
        let other = try DiarySandbox(name: "days-import")
        _ = try other.initVault()
        try other.ok(["import", "--from", "diary", file], env: ["TZ": "America/Los_Angeles"])
        let rows = try other.listJSON([], env: ["TZ": "Europe/London"])
        XCTAssertEqual((rows.first?["date"] as? String)?.prefix(10), "2024-03-01", "\(rows)")
        // Markdown writes the day and the import reads it as a day.
        let dir = box.root.appendingPathComponent("md").path + "/"
        try box.ok(["export", "--format", "markdown", "-o", dir, "--yes"], env: ["TZ": "Asia/Seoul"])
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first)
        let content = try String(contentsOfFile: dir + name, encoding: .utf8)
        XCTAssertTrue(content.contains("date: 2024-03-01\n"), content)
        let markdown = try DiarySandbox(name: "days-md")
        _ = try markdown.initVault()
        try markdown.ok(["import", "--from", "markdown", dir], env: ["TZ": "America/Los_Angeles"])
        for zone in zones {
            let markdownRows = try markdown.listJSON([], env: ["TZ": zone])
            XCTAssertEqual(
                (markdownRows.first?["date"] as? String)?.prefix(10), "2024-03-01", "\(zone): \(markdownRows)")
        }
    }
}
