import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `EntryText.title(of:)` and `isBlank` scan line by line, without NSString; they must give
/// exactly what splitting the whole text and trimming through Foundation gave.
final class EntryTextTitleTests: XCTestCase {
    func testTitleAndBlankAgreeWithFoundationsTrimming() {
        var rng = SeededGenerator(seed: 23)
        let pieces = [
            " ", "\t", "\n", "\r\n", "\r", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{200B}", "\u{FEFF}",
            "\u{301}", "a", "Z", "é", "서울", "👩‍💻", "#", "-", String(repeating: "x", count: 150),
            String(repeating: "한", count: 120),
        ]
        for round in 0..<20_000 {
            let count = Int(rng.next() % 12)
            let text = (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            XCTAssertEqual(
                EntryText.isBlank(text), Self.foundationIsBlank(text), "round \(round): \(text.debugDescription)")
            XCTAssertEqual(
                EntryText.title(of: text), Self.foundationTitle(text), "round \(round): \(text.debugDescription)")
        }
    }

    static func foundationIsBlank(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }

    /// The title as it was computed before: the whole text split, each line trimmed.
    static func foundationTitle(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let firstLine = lines.first { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty } ?? ""
        let trimmed = firstLine.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return EntryText.untitled }
        var title = Substring(trimmed.prefix(EntryText.maximumTitleCharacters))
        while title.utf8.count > EntryText.maximumTitleBytes { title.removeLast() }
        return title.isEmpty ? EntryText.untitled : String(title)
    }
}
