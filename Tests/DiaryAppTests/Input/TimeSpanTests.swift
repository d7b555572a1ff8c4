import DiaryApp
import XCTest

/// Durations as typed (`90s`, `15m`, `1h30m`, a bare number of minutes) and as described.
final class TimeSpanTests: XCTestCase {
    func testTheAcceptedForms() {
        XCTAssertEqual(TimeSpan(parsing: "90s")?.seconds, 90)
        XCTAssertEqual(TimeSpan(parsing: "15m")?.seconds, 900)
        XCTAssertEqual(TimeSpan(parsing: "8H")?.seconds, 8 * 3600)
        XCTAssertEqual(TimeSpan(parsing: "1d")?.seconds, 86400)
        XCTAssertEqual(TimeSpan(parsing: "1h30m")?.seconds, 5400)
        XCTAssertEqual(TimeSpan(parsing: "20")?.seconds, 1200, "a bare number is minutes")
        XCTAssertEqual(TimeSpan(parsing: "1.5h")?.seconds, 5400)
        XCTAssertEqual(TimeSpan(parsing: "30d")?.seconds, TimeSpan.maximum)
    }

    func testAnythingElseIsRefused() {
        for bad in ["", "0", "0m", "31d", "inf", "nan", "1e300", "15x", "h", "1h30", "-5m", "m5"] {
            XCTAssertNil(TimeSpan(parsing: bad), bad)
        }
    }

    func testDescribedInTheLargestTwoUnits() {
        XCTAssertEqual(TimeSpan.describe(3900), "1h 5m")
        XCTAssertEqual(TimeSpan.describe(872), "14m 32s")
        XCTAssertEqual(TimeSpan.describe(45), "45s")
        XCTAssertEqual(TimeSpan.describe(90_000), "1d 1h")
        XCTAssertEqual(TimeSpan.describe(0), "0s")
        XCTAssertEqual(TimeSpan.describe(-5), "0s")
        XCTAssertEqual(TimeSpan.describe(.infinity), "0s")
    }
}
