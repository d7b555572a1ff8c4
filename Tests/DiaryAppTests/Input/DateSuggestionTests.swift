import DiaryApp
import Foundation
import XCTest

/// `DateSuggestion`: a mistyped word of a date phrase is replaced by the nearest word diary
/// knows, and the result is offered only when it parses.
final class DateSuggestionTests: XCTestCase {
    private func suggestion(_ text: String, locale: String = "en_US_POSIX") -> String? {
        DateSuggestion.suggestion(for: text, now: Fixed.now, in: Fixed.context(locale))
    }

    func testTyposOfTheWordsDiaryKnows() {
        XCTAssertEqual(suggestion("yesterdy"), "yesterday")
        XCTAssertEqual(suggestion("Yesterady"), "yesterday")
        XCTAssertEqual(suggestion("tomorow"), "tomorrow")
        XCTAssertEqual(suggestion("last fridy 9pm"), "last friday 9pm")
        XCTAssertEqual(suggestion("2 dyas ago"), "2 days ago")
        XCTAssertEqual(suggestion("febuary 22"), "february 22")
    }

    func testMonthNamesOfTheLocale() {
        XCTAssertEqual(suggestion("22 septembr 2023", locale: "de_DE"), "22 september 2023")
    }

    func testNoSuggestionForWhatIsNoTypo() {
        XCTAssertNil(suggestion("garbage"))
        XCTAssertNil(suggestion("next tuesday"), "every word is known; the phrase is not a form diary takes")
        XCTAssertNil(suggestion("2024-02-30"))
        XCTAssertNil(suggestion("notes.md"))
    }

    func testEditDistance() {
        XCTAssertEqual(EditDistance.between(Array("lsit"), Array("list")), 1)
        XCTAssertEqual(EditDistance.nearest("yesterdy", among: ["yesterday", "today"]), ["yesterday"])
        XCTAssertNil(EditDistance.nearest("zzz", among: ["yesterday", "today"]))
    }
}
