import XCTest

@testable import diary

/// verify, reindex and restore count entries and templates apart, and say nothing of templates
/// when there are none.
final class EntryCountWordsTests: XCTestCase {
    func testEntriesAndTemplatesAreCountedApart() {
        XCTAssertEqual(EntryCountWords.describe(entries: 19, templates: 9), "19 entries and 9 templates")
        XCTAssertEqual(EntryCountWords.describe(entries: 1, templates: 1), "1 entry and 1 template")
        XCTAssertEqual(EntryCountWords.describe(entries: 0, templates: 2), "0 entries and 2 templates")
        XCTAssertEqual(EntryCountWords.describe(entries: 1, templates: 0), "1 entry")
        XCTAssertEqual(EntryCountWords.describe(entries: 3, templates: 0), "3 entries")
    }
}
