import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// A day as a range (`--from`/`--to`/`--on`) holds the whole day of the time zone, and no more.
final class DateRangeTests: VaultTestCase {
    private func titles(_ vault: Vault, on day: DateInput, in calendar: Calendar) throws -> [String] {
        try vault.list(EntryFilter(from: day.start(in: calendar), to: day.end(in: calendar))).map(\.title)
    }

    func testADayIncludesItsLastMinuteAndNotTheNextDay() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            try vault.write("Early", on: "2023-09-16T00:00:00Z")
            try vault.write("Late", on: "2023-09-16T23:59:00Z")
            try vault.write("Next", on: "2023-09-17T00:00:00Z")
            try vault.write("Before", on: "2023-09-15T23:59:59Z")
            let day = try XCTUnwrap(DateInput.parse("2023-09-16", now: Fixed.now, in: Fixed.context()))
            XCTAssertEqual(try titles(vault, on: day, in: Fixed.utc), ["Late", "Early"])
            // The same day in Seoul runs from 15:00 UTC the day before to 15:00 UTC on the day.
            let seoul = Fixed.context(zone: "Asia/Seoul").calendar
            XCTAssertEqual(try titles(vault, on: day, in: seoul), ["Early", "Before"])
        }
    }
}
