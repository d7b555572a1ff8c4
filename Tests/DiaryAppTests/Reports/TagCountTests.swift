import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// Tags that `--tag` takes for the same (`Walk`, `walk`, `WALK`) are one tag: `stats` counts
/// them together under the most common spelling.
final class TagCountTests: VaultTestCase {
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

/// An entry holds one spelling of a tag, the first given: the options' before the text's.
final class EntryTagSpellingTests: VaultTestCase {
    func testNewAndEditKeepOneSpellingTheFirstGiven() throws {
        let vault = try makeVault(.files)
        let inline = try vault.add(
            text: "Another #Walk and #WALK", tags: InlineTags.forNewEntry(given: [], text: "Another #Walk and #WALK"))
        XCTAssertEqual(inline.tags, ["Walk"])
        let text = "Given first #WALK and #Walk"
        XCTAssertEqual(
            try vault.add(text: text, tags: InlineTags.forNewEntry(given: ["walk"], text: text)).tags, ["walk"])
        let options = try vault.add(
            text: "Options only", tags: InlineTags.forNewEntry(given: ["Sea", "#SEA", "@sea"], text: ""))
        XCTAssertEqual(options.tags, ["Sea"])
        let edited = "Walk\nbody\nmore #WALK and #Swim"
        let tags = try XCTUnwrap(InlineTags.afterEdit(["walk"], before: "Walk\nbody", text: edited))
        let saved = try vault.update(try vault.add(text: "Walk\nbody", tags: ["walk"]).id, text: edited, tags: tags)
        XCTAssertEqual(saved.tags.sorted(), ["Swim", "walk"])
    }
}
