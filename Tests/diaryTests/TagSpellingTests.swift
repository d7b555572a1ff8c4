import Foundation
import XCTest

/// Tags that `--tag` takes for the same (`Walk`, `walk`, `WALK`: letter case aside) are one tag
/// everywhere: `edit` and `diary tag` add and remove in any case; a tag with white space is
/// refused on the command line and made `a-b` by an import. (One spelling per entry, the first
/// given, and `stats`' counts are DiaryAppTests' `EntryTagSpellingTests` and `TagCountTests`.)
final class TagSpellingTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "tag-spelling")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func tags(_ id: String) throws -> [String] {
        let row = try box.listJSON().first { ($0["id"] as? String) == id }
        return row?["tags"] as? [String] ?? []
    }

    func testEditAndTagCommandKeepOneSpelling() throws {
        let id = try box.ok(["new", "Walk\nbody", "--tag", "walk"]).out
        let editor = try box.script("printf '\\nmore #WALK and #Swim\\n' >> \"$1\"")
        try box.ok(["edit", id], env: ["EDITOR": editor])
        XCTAssertEqual(try tags(id), ["Swim", "walk"])
        try box.ok(["tag", id, "+SWIM", "+Walk"])
        XCTAssertEqual(try tags(id), ["Swim", "walk"], "adding another spelling adds nothing")
        try box.ok(["tag", id, "-WALK"])
        XCTAssertEqual(try tags(id), ["Swim"], "removing takes any spelling")
    }

    func testATagWithWhiteSpaceIsRefusedAndNothingIsWritten() throws {
        let id = try box.ok(["new", "Kept", "--tag", "b"]).out
        let before = try box.ok(["list", "--json"]).stdout
        for args in [["new", "Not stored", "--tag", "a b"], ["new", "Not stored", "--tag", "#a\tb"],
                     ["tag", id, "+c d"], ["tag", id, "c d"], ["list", "--tag", "a b"],
                     ["search", "Kept", "--tag", "a b"], ["export", "--tag", "a b", "--yes"]] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("a tag has no spaces"), "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(args)")
        }
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "nothing was written")
    }

    func testAnImportedTagWithWhiteSpaceBecomesDashedAndSpellingsMerge() throws {
        let export = #"""
            {"tags": {"@long walk": 1},
             "entries": [{"title": "Imported", "body": "x", "date": "2024-02-29", "time": "09:00",
                          "tags": ["@long  walk", "@Sea", "@sea", "@ice\tfloe"], "starred": false}]}
            """#
        let file = box.root.appendingPathComponent("jrnl.json")
        try Data(export.utf8).write(to: file)
        try box.ok(["import", "--from", "jrnl", file.path])
        let row = try XCTUnwrap(try box.listJSON().first)
        XCTAssertEqual(row["tags"] as? [String], ["Sea", "ice-floe", "long-walk"])
    }
}
