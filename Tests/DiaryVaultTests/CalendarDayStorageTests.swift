import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// How an entry date that is a calendar day is stored (docs/FORMAT.md §7): midnight UTC of the
/// day, read back as local midnight of the same day in any time zone; an instant never lands on
/// midnight UTC. The zones are given here; `CalendarDayTests` (diaryTests) runs the whole
/// vault in processes with different TZ.
final class CalendarDayStorageTests: XCTestCase {
    private func zone(_ name: String) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: name)!
        return calendar
    }

    private let zones = [
        "Asia/Seoul", "Europe/London", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago",
    ]

    private func instant(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: iso)!
    }

    func testADayWrittenInOneZoneIsTheSameDayInEvery() {
        for (written, iso, day) in [
            ("Asia/Seoul", "2024-03-01T00:00:00+09:00", (2024, 3, 1)),
            ("Pacific/Kiritimati", "2024-02-29T09:00:00+14:00", (2024, 2, 29)),
        ] {
            let ms = CalendarDay.storedMilliseconds(of: instant(iso), isDay: true, local: zone(written))
            XCTAssertTrue(CalendarDay.isDay(storedMilliseconds: ms))
            XCTAssertEqual(
                Date(millisecondsSince1970: ms),
                zone("UTC").date(from: DateComponents(year: day.0, month: day.1, day: day.2)))
            for reader in zones {
                let read = CalendarDay.date(storedMilliseconds: ms, local: zone(reader))
                let c = zone(reader).dateComponents([.year, .month, .day, .hour, .minute], from: read)
                XCTAssertEqual(
                    [c.year, c.month, c.day, c.hour, c.minute], [day.0, day.1, day.2, 0, 0], "\(written) → \(reader)")
            }
        }
    }

    /// An instant that falls exactly on midnight UTC is stored a millisecond later, so that it
    /// is not read back as a day: in Los Angeles it stays 16:00 the day before.
    func testAnInstantAtMidnightUTCStaysAnInstant() {
        for (iso, writer) in [("2024-03-01T00:00:00Z", "UTC"), ("2024-03-01T09:00:00+09:00", "Asia/Seoul")] {
            let ms = CalendarDay.storedMilliseconds(of: instant(iso), isDay: false, local: zone(writer))
            XCTAssertFalse(CalendarDay.isDay(storedMilliseconds: ms), iso)
            XCTAssertEqual(ms, instant("2024-03-01T00:00:00Z").millisecondsSince1970 + 1, iso)
            let read = CalendarDay.date(storedMilliseconds: ms, local: zone("America/Los_Angeles"))
            let c = zone("America/Los_Angeles").dateComponents([.month, .day, .hour, .minute], from: read)
            XCTAssertEqual([c.month, c.day, c.hour, c.minute], [2, 29, 16, 0], iso)
        }
        let other = instant("2024-03-01T10:15:00Z")
        XCTAssertEqual(CalendarDay.storedMilliseconds(of: other, isDay: false), other.millisecondsSince1970)
    }
}
