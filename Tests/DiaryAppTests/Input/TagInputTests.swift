import DiaryApp
import XCTest

/// Tags written in the text (`#walk`, `@nature`, jrnl's convention); headings, link anchors,
/// e-mail addresses and numbers are not tags. A tag typed in an option may start with # or @.
final class TagInputTests: XCTestCase {
    func testHashAndAtWordsInTheTextAreTags() {
        let text = """
            # Walk by the river
            ## A heading is not a tag
            Saw a heron on the #walk, felt @nature.
            #morning-light and @산책 count; so does #with_underscore.
            Not tags: https://example.org/#anchor, me@example.org, issue #15, C# code, a#b.
            """
        XCTAssertEqual(InlineTags.find(in: text), ["walk", "nature", "morning-light", "산책", "with_underscore"])
    }

    func testTextWithoutTagsHasNone() {
        XCTAssertEqual(InlineTags.find(in: "# Title only\nplain words, 100% sure, #1 and # spaced"), [])
        XCTAssertEqual(InlineTags.find(in: ""), [])
        XCTAssertEqual(InlineTags.find(in: "#"), [])
    }

    func testEveryOccurrenceAndSpellingIsFound() {
        XCTAssertEqual(InlineTags.find(in: "#walk\tand @Walk\n#WALK."), ["walk", "Walk", "WALK"])
        XCTAssertEqual(InlineTags.find(in: "later a #swim with @friends"), ["swim", "friends"])
        XCTAssertEqual(InlineTags.find(in: "#2024-trip"), ["2024-trip"], "a letter anywhere makes it a word")
    }

    func testAnOptionsTagLosesOneLeadingHashOrAt() {
        XCTAssertEqual(TagInput.clean("#work"), "work")
        XCTAssertEqual(TagInput.clean("@work"), "work")
        XCTAssertEqual(TagInput.clean(" work "), "work")
        XCTAssertEqual(TagInput.clean("##work"), "#work")
    }

    func testATagWithWhiteSpaceIsRefused() {
        for tag in ["a b", "#a\tb", "c d"] {
            XCTAssertThrowsError(try TagInput.check(tag), tag) { error in
                XCTAssertEqual(error as? InputError, .tagWithSpace(tag: TagInput.clean(tag)))
            }
        }
        XCTAssertNoThrow(try TagInput.check(" #walk "))
        XCTAssertNoThrow(try TagInput.check("long-walk"))
    }
}

/// The tags `new` stores and `edit` saves: options first, then the text's; an edit adds the
/// tags newly written and removes none.
final class EntryTagsTests: XCTestCase {
    func testANewEntrysTagsAreTheOptionsThenTheTexts() {
        XCTAssertEqual(
            InlineTags.forNewEntry(given: ["#Sea", "walk"], text: "a #WALK by the @sea"),
            ["Sea", "walk", "WALK", "sea"])
        XCTAssertEqual(InlineTags.forNewEntry(given: [], text: "no tags"), [])
    }

    func testAnEditAddsTheTagsNewlyWrittenAndRemovesNone() {
        XCTAssertEqual(
            InlineTags.afterEdit(["kept"], before: "Before", text: "Before\nlater a #swim with @friends"),
            ["kept", "swim", "friends"])
        // Saving again without new tags writes nothing new and removes none.
        XCTAssertNil(
            InlineTags.afterEdit(["friends", "kept", "swim"], before: "", text: "later a #swim with @friends\nmore"))
        XCTAssertNil(InlineTags.afterEdit(["kept"], before: "", text: "no tags at all"))
        // Another spelling of a held tag is not new.
        XCTAssertNil(InlineTags.afterEdit(["walk"], before: "", text: "more #WALK"))
        XCTAssertEqual(InlineTags.afterEdit(["walk"], before: "", text: "more #WALK and #Swim"), ["walk", "Swim"])
    }

    /// A tag removed with `diary tag ID -planning` does not come back at the next edit because
    /// `#planning` is still in the text; written anew, or another tag, it is added.
    func testATagTheTextHeldBeforeIsNotNew() {
        let before = "Plans #planning\n"
        XCTAssertNil(InlineTags.afterEdit([], before: before, text: before + "another paragraph"))
        XCTAssertNil(InlineTags.afterEdit(["kept"], before: before, text: "Plans #Planning, moved"))
        XCTAssertEqual(
            InlineTags.afterEdit(["kept"], before: before, text: before + "a #swim"), ["kept", "swim"])
        XCTAssertEqual(InlineTags.afterEdit([], writtenBefore: ["planning"], text: "#planning #new"), ["new"])
    }
}
