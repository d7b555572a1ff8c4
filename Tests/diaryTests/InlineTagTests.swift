import Foundation
import XCTest

/// Tags written in the text (`#walk`, `@nature`, jrnl's convention) become the entry's tags,
/// through `new`. (What is a tag, and what `edit` adds, is DiaryAppTests' `TagInputTests` and
/// `EntryTagsTests`; jrnl's `@work` imported as `work` is `ImportExportLogicTests`'.)
final class InlineTagTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "inline-tags")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func tags(_ id: String) throws -> [String] {
        let row = try box.listJSON().first { ($0["id"] as? String) == id }
        return row?["tags"] as? [String] ?? []
    }

    func testHashAndAtWordsInTheTextBecomeTags() throws {
        let text = """
            # Walk by the river
            ## A heading is not a tag
            Saw a heron on the #walk, felt @nature.
            #morning-light and @산책 count; so does #with_underscore.
            Not tags: https://example.org/#anchor, me@example.org, issue #15, C# code, a#b.
            """
        let id = try box.ok(["new", "--tag", "given"], stdin: Data(text.utf8)).out
        XCTAssertEqual(try tags(id), ["given", "morning-light", "nature", "walk", "with_underscore", "산책"])
        let list = try box.ok(["list", "--tag", "walk"]).stdout
        XCTAssertTrue(list.contains("Walk by the river"), list)
        XCTAssertEqual(try box.listJSON(["--tag", "@nature"]).count, 1, "@ is optional in --tag, as # is")
    }

    /// A tag removed with `diary tag ID -planning` stays removed when the text, which still
    /// holds `#planning`, is edited again; a tag the edit writes is added.
    func testATagRemovedWithTagStaysRemovedAfterAnEdit() throws {
        let id = try box.ok(["new", "Plans\nfor the week #planning"]).out
        XCTAssertEqual(try tags(id), ["planning"])
        try box.ok(["tag", String(id.prefix(8)), "-planning"])
        XCTAssertEqual(try tags(id), [])
        let editor = try box.script("printf '\\nanother paragraph, a #swim\\n' >> \"$1\"")
        try box.ok(["edit", String(id.prefix(8))], env: ["EDITOR": editor])
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("another paragraph"))
        XCTAssertEqual(try tags(id), ["swim"], "only the tag the edit wrote is added")
    }
}
