import DiaryApp
import Foundation
import XCTest

/// jrnl's `yesterday 9pm: text` (`DatedText`), against the fixed now of `DateInputTests`
/// (2026-03-11 15:30 UTC): the date is all before the first ': ', and only a date counts.
final class DatedTextTests: XCTestCase {
    private func split(_ text: String) -> (DateInput.Value, String)? {
        DatedText.split(text, now: Fixed.now, in: Fixed.context()).map { ($0.date.value, $0.text) }
    }

    func testADatePhraseAndColonAreRemoved() throws {
        let dated = try XCTUnwrap(split("yesterday 9pm: Saw a heron by the canal"))
        XCTAssertEqual(dated.0, .instant(Fixed.instant("2026-03-10T21:00:00Z")))
        XCTAssertEqual(dated.1, "Saw a heron by the canal")
        XCTAssertEqual(split("2024-02-22: Trip")?.0, .day(year: 2024, month: 2, day: 22))
        // The colon inside a time is not the separator (jrnl looks for ': ' too).
        XCTAssertEqual(split("yesterday 9:30pm: late")?.0, .instant(Fixed.instant("2026-03-10T21:30:00Z")))
        XCTAssertEqual(split("friday: a: b")?.1, "a: b", "only the first ': ' separates")
    }

    func testTextThatDoesNotOpenWithADateStaysAsTyped() {
        XCTAssertNil(split("Note to self: buy milk"))
        XCTAssertNil(split("Saw a heron"))
        XCTAssertNil(split("yesterday:no space"))
        XCTAssertNil(split(": nothing before"))
        XCTAssertNil(split("yesterdy: a typo is text"))
        XCTAssertNil(split("Title\nyesterday: on the second line"), "the first line only")
    }
}
