import DiaryApp
import XCTest

/// `search`'s arguments: each a word, an argument with a space a phrase, double quotes inside
/// an argument mark phrases; repeats dropped; nothing left or an unpaired quote refused.
final class SearchQueryTests: XCTestCase {
    private func terms(_ arguments: [String]) throws -> [String] { try SearchQuery(arguments: arguments).terms }

    func testWordsAndPhrases() throws {
        XCTAssertEqual(try terms(["heron", "frost"]), ["heron", "frost"])
        XCTAssertEqual(try terms(["lake was"]), ["lake was"], "an argument with a space is a phrase")
        XCTAssertEqual(try terms([" lake was\n"]), ["lake was"], "trimmed")
        XCTAssertEqual(try terms(["\"frozen lake\" heron"]), ["frozen lake", "heron"])
        XCTAssertEqual(try terms(["a \"b c\" d \"e\""]), ["a", "b c", "d", "e"])
    }

    func testRepeatsAndEmptyTermsAreDropped() throws {
        XCTAssertEqual(try terms(["heron", "HERON", "frost", "heron"]), ["heron", "frost"])
        XCTAssertEqual(try terms(["\"\" heron"]), ["heron"])
    }

    func testNothingToSearchIsRefused() {
        for arguments in [[], [""], ["  "], ["\"\""]] {
            XCTAssertThrowsError(try SearchQuery(arguments: arguments), "\(arguments)") { error in
                XCTAssertEqual(error as? InputError, .emptySearch)
            }
        }
    }

    func testAnUnpairedQuoteIsRefused() {
        XCTAssertThrowsError(try SearchQuery(arguments: ["heron", "\"frozen lake"])) { error in
            XCTAssertEqual(error as? InputError, .unpairedQuote(argument: "\"frozen lake"))
        }
        XCTAssertThrowsError(try SearchQuery(arguments: ["a\"b\"c\""]))
    }
}
