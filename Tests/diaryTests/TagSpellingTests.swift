import Foundation
import XCTest

/// Tags that `--tag` takes for the same (`Walk`, `walk`, `WALK`: letter case aside) are one tag
/// everywhere: `edit` and `diary tag` add and remove in any case; a tag with white space is
/// refused on the command line. (An import makes it `a-b`: `ImportExportLogicTests`. One
/// spelling per entry, the first given, and `stats`' counts are DiaryAppTests'
/// `EntryTagSpellingTests` and `TagCountTests`.)
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
        for args in [
            ["new", "Not stored", "--tag", "a b"], ["new", "Not stored", "--tag", "#a\tb"],
            ["tag", id, "+c d"], ["tag", id, "c d"], ["list", "--tag", "a b"],
            ["search", "Kept", "--tag", "a b"], ["export", "--tag", "a b", "--yes"],
        ] {
            let result = try box.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("a tag has no spaces"), "\(args): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(args)")
        }
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "nothing was written")
    }
}
