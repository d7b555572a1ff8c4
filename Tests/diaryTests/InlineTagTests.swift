import Foundation
import XCTest

/// Tags written in the text (`#walk`, `@nature`, jrnl's convention) become the entry's tags,
/// through `new` and an import. (What is a tag, and what `edit` adds, is DiaryAppTests'
/// `TagInputTests` and `EntryTagsTests`.)
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

    func testJrnlAtTagsImportWithoutTheAt() throws {
        let export = #"""
            {"tags": {"@work": 1},
             "entries": [{"title": "Standup", "body": "with @work people", "date": "2024-02-29", "time": "09:00",
                          "tags": ["@work"], "starred": false}]}
            """#
        let file = box.root.appendingPathComponent("jrnl.json")
        try Data(export.utf8).write(to: file)
        try box.ok(["import", "--from", "jrnl", file.path])
        let rows = try box.listJSON(["--tag", "work"])
        XCTAssertEqual(rows.map { $0["tags"] as? [String] }, [["work"]])
        let list = try box.ok(["list"]).stdout
        XCTAssertTrue(list.contains("#work"), list)
        XCTAssertFalse(list.contains("#@work"), list)
    }
}
