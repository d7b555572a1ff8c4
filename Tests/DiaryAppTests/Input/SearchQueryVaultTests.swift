import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// What `search` finds for its arguments: every term in any order and case (diacritics
/// ignored), a quoted argument or one with a space as one phrase.
final class SearchQueryVaultTests: VaultTestCase {
    private var vault: Vault!
    private var walk: UUID!, evening: UUID!, lake: UUID!

    override func setUpWithError() throws {
        try super.setUpWithError()
        vault = try makeVault(.sqlite)
        walk = try vault.add(text: "Morning walk\nA heron stood in the frost by the lake.").id
        evening = try vault.add(text: "Evening\nThe frost came early; no birds at all.").id
        lake = try vault.add(text: "Lake day\nThe lake was frozen. A Héron flew over.").id
    }

    override func tearDownWithError() throws {
        vault = nil
        try super.tearDownWithError()
    }

    private func found(_ arguments: [String]) throws -> Set<UUID> {
        Set(try vault.search(all: try SearchQuery(arguments: arguments).terms).matches.map(\.id))
    }

    func testEveryWordMustOccurInAnyOrder() throws {
        XCTAssertEqual(try found(["heron", "frost"]), [walk])
        XCTAssertEqual(try found(["FROST", "heron"]), [walk], "any order, any case")
        XCTAssertEqual(try found(["heron"]), [walk, lake], "diacritics ignored")
        XCTAssertEqual(try found(["frost"]), [walk, evening])
        XCTAssertEqual(try found(["heron", "birds"]), [])
    }

    func testAQuotedArgumentOrOneWithASpaceIsAPhrase() throws {
        XCTAssertEqual(try found(["lake was"]), [lake], "an argument with a space")
        XCTAssertEqual(try found(["frozen", "lake"]), [lake])
        XCTAssertEqual(try found(["\"frozen lake\""]), [], "the phrase, not the words")
        XCTAssertEqual(try found(["frozen lake"]), [], "the phrase, not the words")
        XCTAssertEqual(try found(["\"lake was\""]), [lake], "quotes inside the argument")
        XCTAssertEqual(try found(["\"the frost\" heron"]), [walk], "a phrase and a word in one argument")
        XCTAssertEqual(try found(["\"the lake\"", "frost"]), [walk])
    }
}
