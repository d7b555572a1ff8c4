import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// Tags that `--tag` takes for the same (`Walk`, `walk`, `WALK`) are one tag: an entry holds
/// one spelling (the first given), and `stats` counts them together under the most common.
final class TagCountTests: VaultTestCase {
    func testAnEntryHoldsOneSpellingTheFirstGiven() throws {
        let vault = try makeVault(.sqlite)
        XCTAssertEqual(try vault.write("Another #Walk and #WALK", on: "2024-01-01").tags, ["Walk"])
        XCTAssertEqual(try vault.write("Given first #WALK and #Walk", on: "2024-01-01", tags: ["walk"]).tags, ["walk"])
        let options = ["Sea", "#SEA", "@sea"].map(TagInput.clean)
        XCTAssertEqual(try vault.write("Options only", on: "2024-01-01", tags: options).tags, ["Sea"])
    }

    func testStatsCountsSpellingsAsOneTagUnderTheMostCommon() throws {
        let vault = try makeVault(.sqlite)
        for text in ["one #walk", "two #walk", "three #WALK", "four #Walk #sea"] {
            try vault.write(text, on: "2024-01-01")
        }
        let counts = StatsReport.tagCounts(try vault.list())
        XCTAssertEqual(counts.map(\.tag), ["walk", "sea"])
        XCTAssertEqual(counts.map(\.entries), [4, 1])
        XCTAssertEqual(try vault.list(EntryFilter(tag: "wAlK")).count, 4, "as --tag matches them")
    }

    func testEquallyUsedTagsAndSpellingsGoInSortOrder() throws {
        let vault = try makeVault(.sqlite)
        for text in ["#b #A", "#a #B", "#c"] { try vault.write(text, on: "2024-01-01") }
        let counts = StatsReport.tagCounts(try vault.list())
        XCTAssertEqual(counts.map(\.tag), ["A", "B", "c"], "ties by name; each spelling once: the first in sort order")
        XCTAssertEqual(counts.map(\.entries), [2, 2, 1])
    }
}
