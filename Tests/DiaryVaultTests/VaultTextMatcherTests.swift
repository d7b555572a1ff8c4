import DiaryTestSupport
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
        var rng = SeededGenerator(seed: 42)
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

    /// The in-place byte path used by `search` (whole-text bytewise scan, eight bytes at a time)
    /// against Foundation, on texts long enough to cross many words, with matches at every
    /// offset, including the last bytes.
    func testBytePathAgreesWithFoundationOnGeneratedTexts() {
        var rng = SeededGenerator(seed: 7)
        let filler = ["the", "QuEtZaL", "museum", "오늘", "카페에", "a", "@`", "1!", "~", "\t", "coatlus", "c"]
        let needles = Self.needles + ["quetzalcoatlus", "@", "`", "1", "q", "the museum", "s c", "lus"]
        for round in 0..<3000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 40) {
                // Mostly ASCII and Hangul (the common case), sometimes a piece that needs Foundation.
                let fromPieces = rng.next() % 8 == 0
                let pool = fromPieces ? Self.pieces : filler
                text += pool[Int(rng.next() % UInt64(pool.count))]
                if rng.next() % 3 != 0 { text += " " }
            }
            let query = needles[Int(rng.next() % UInt64(needles.count))]
            var bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, TextMatcher.Query(query)) }
            XCTAssertEqual(
                fast, TextMatcher.foundationContains(text, query),
                "round \(round): text \(text.debugDescription), needle \(query.debugDescription)")
            bytes.removeAll()
        }
    }

    func testBytePathFindsMatchesAtEveryOffsetAndNotPastTheEnd() {
        let query = TextMatcher.Query("Quetzal")
        for prefix in 0..<20 {
            for suffix in 0..<10 {
                let text = String(repeating: "x", count: prefix) + "qUETZAL" + String(repeating: "y", count: suffix)
                XCTAssertTrue(
                    Array(text.utf8).withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, query) }, text)
                let cut = String(repeating: "x", count: prefix) + "qUETZA"
                XCTAssertFalse(
                    Array(cut.utf8).withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, query) }, cut)
                let split = String(repeating: "x", count: prefix) + "qUET한ZAL"
                XCTAssertFalse(
                    Array(split.utf8).withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, query) }, split)
            }
        }
        XCTAssertFalse([UInt8]().withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, query) })
        XCTAssertTrue(
            Array("CAFÉ au lait".utf8).withUnsafeBytes {
                TextMatcher.contains(UTF8Check.scan($0)!, TextMatcher.Query("cafe"))
            })
        XCTAssertTrue(
            Array("오늘 카페".utf8).withUnsafeBytes { TextMatcher.contains(UTF8Check.scan($0)!, TextMatcher.Query("카페")) })
    }

    func testASCIINeedleFindsWordsBetweenHangulAndAcrossCase() {
        XCTAssertTrue(TextMatcher.contains("오늘 QUETZALCOATLUS 봤다", "quetzalcoatlus"))
        XCTAssertTrue(TextMatcher.contains("박물관에서quetzalcoatlus를", "Quetzalcoatlus"))
        XCTAssertFalse(TextMatcher.contains("quetzal한coatlus", "quetzalcoatlus"))
        XCTAssertTrue(TextMatcher.contains("Un café noir", "cafe"))
        XCTAssertFalse(TextMatcher.contains("", "a"))
    }
}
