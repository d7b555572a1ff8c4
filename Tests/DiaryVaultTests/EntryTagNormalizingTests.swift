import DiaryTestSupport
import XCTest

@testable import DiaryVault

/// Printable ASCII tags skip Foundation's trimming (`EntryText.normalizedTag`): the short cut
/// must give what the full path gives for every text.
final class EntryTagNormalizingTests: XCTestCase {
    func testTheShortCutAgreesWithTheFullPathOnEveryText() {
        var rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
        let pieces = [
            "a", "Z", "7", "-", "_", "#", "##", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{7F}", "\u{01}",
            "\u{85}", "\u{A0}", "\u{3000}", "é", "e\u{301}", "walk", "#walk",
        ]
        for _ in 0..<20_000 {
            let raw = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let fast = EntryText.normalizedTag(raw)
            let full = EntryText.normalizedTagByCharacter(raw)
            if fast != full {
                return XCTFail("\(raw.debugDescription): \(fast.debugDescription) ≠ \(full.debugDescription)")
            }
        }
    }

    func testTagsAreTrimmedUnhashedAndJoined() {
        XCTAssertEqual(EntryText.normalizedTag("walk"), "walk")
        XCTAssertEqual(EntryText.normalizedTag(" #long walk\t"), "long-walk")
        XCTAssertEqual(EntryText.normalizedTags(["Walk", "#walk", "b", " "]), ["Walk", "b"])
    }
}
