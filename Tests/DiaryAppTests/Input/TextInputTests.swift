import DiaryApp
import XCTest

/// Entry text is checked before anything is stored: the size limit, UTF-8, and blank text.
final class TextInputTests: XCTestCase {
    func testTextWithinTheLimitIsDecoded() throws {
        XCTAssertEqual(try TextInput.decode(Array("Hi 오늘".utf8), total: 9, limit: 9, source: "stdin"), "Hi 오늘")
    }

    func testMoreThanTheLimitIsRefusedWithTheWholeSize() {
        // The reader keeps no bytes past the limit but counts them.
        XCTAssertThrowsError(try TextInput.decode(Array("abcd".utf8), total: 20_000_000, limit: 4, source: "stdin")) {
            XCTAssertEqual($0 as? InputError, .tooLarge(bytes: 20_000_000, limit: 4))
        }
        XCTAssertThrowsError(try TextInput.check("abcde", limit: 4)) {
            XCTAssertEqual($0 as? InputError, .tooLarge(bytes: 5, limit: 4))
        }
        XCTAssertThrowsError(try TextInput.check("é", limit: 1), "bytes, not characters") {
            XCTAssertEqual($0 as? InputError, .tooLarge(bytes: 2, limit: 1))
        }
    }

    func testInvalidUTF8IsRefusedNamingTheSource() {
        XCTAssertThrowsError(
            try TextInput.decode([0x48, 0x69, 0xFF, 0xFE, 0x0A], total: 5, limit: 10, source: "stdin")
        ) {
            XCTAssertEqual($0 as? InputError, .notUTF8(source: "stdin"))
        }
    }

    func testBlankTextIsRefused() {
        for blank in ["", " \n\n", "\t \u{00A0}"] {
            XCTAssertThrowsError(try TextInput.check(blank, limit: 100), "'\(blank)'") {
                XCTAssertEqual($0 as? InputError, .emptyText)
            }
        }
        XCTAssertNoThrow(try TextInput.check(" x ", limit: 100))
    }
}
