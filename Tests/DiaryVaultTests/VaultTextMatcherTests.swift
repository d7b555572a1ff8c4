import Foundation
import XCTest

@testable import DiaryVault

/// The ASCII fast path of search matching must give Foundation's answer on every text.
final class VaultTextMatcherTests: XCTestCase {
    /// Pieces chosen to stress the segmenting: Hangul, kana and CJK (barriers), accents both
    /// precomposed and combining, a combining mark right after a barrier, the Kelvin sign,
    /// ß, a ligature, dotted I, CR LF, emoji, and ASCII in both cases.
    static let pieces = [
        "cafe", "CAFÉ", "café", "cafe\u{301}", "e\u{301}", "\u{301}", "한국어", "카페", "한\u{301}", "ひらがな", "漢字",
        "Kelvin \u{212A}", "straße", "STRASSE", "ﬁle", "FILE", "İstanbul", "istanbul", "\r\n", "\n", " ", ".",
        "👩‍💻", "naïve", "NAIVE", "Quetzalcoatlus", "quetzal", "résumé", "RESUME", "x", "Ω", "ﬀ",
    ]
    static let needles = [
        "cafe", "CAFE", "e", "E", "resume", "naive", "k", "K", "kelvin", "strasse", "ss", "file", "fi", "istanbul",
        "i", "quetzalcoatlus", "QUETZAL", "e.", " c", "x ", "a b", "café", "카페", "ff", "~", "e\u{301}",
    ]

    func testFastPathAgreesWithFoundationOnGeneratedTexts() {
        var rng = SplitMix(seed: 42)
        var checked = 0
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 8) {
                text += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
                if rng.next() % 2 == 0 { text += " " }
            }
            for needle in Self.needles {
                XCTAssertEqual(
                    TextMatcher.contains(text, needle), TextMatcher.foundationContains(text, needle),
                    "text \(text.debugDescription), needle \(needle.debugDescription)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 3000 * Self.needles.count)
    }

    func testASCIINeedleFindsWordsBetweenHangulAndAcrossCase() {
        XCTAssertTrue(TextMatcher.contains("오늘 QUETZALCOATLUS 봤다", "quetzalcoatlus"))
        XCTAssertTrue(TextMatcher.contains("박물관에서quetzalcoatlus를", "Quetzalcoatlus"))
        XCTAssertFalse(TextMatcher.contains("quetzal한coatlus", "quetzalcoatlus"))
        XCTAssertTrue(TextMatcher.contains("Un café noir", "cafe"))
        XCTAssertFalse(TextMatcher.contains("", "a"))
    }
}

/// A tiny deterministic generator (SplitMix64), so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
