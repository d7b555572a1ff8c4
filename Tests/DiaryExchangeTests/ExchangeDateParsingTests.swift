import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange

/// The dates of the exchange files are read byte by byte when they are ASCII
/// (`ASCIIDateScanner`) and by `Character` otherwise: both readers must give the same answer
/// for every ASCII text, near-miss forms included.
final class ExchangeDateParsingTests: XCTestCase {
    private let utc = TimeZone(identifier: "UTC")!

    func testTheExportsFormAndItsVariantsParse() {
        let ms = { (s: String) in ExchangeDates.parse(s, timeZone: self.utc)?.millisecondsSince1970 }
        XCTAssertEqual(ms("2024-02-22T15:00:00.123Z"), 1_708_614_000_123)
        XCTAssertEqual(ms(" \t2024-02-22T15:00:00.1Z "), 1_708_614_000_100)
        XCTAssertEqual(ms("2024-02-22 16:00:00,123456 +01:00"), 1_708_614_000_123)
        XCTAssertEqual(ms("2024-02-22T10:00-0500"), 1_708_614_000_000)
        XCTAssertEqual(ms("2024-02-22"), 1_708_560_000_000)
        XCTAssertEqual(ms("2024-02-29T00:00Z"), 1_709_164_800_000)
        for bad in ["2023-02-29", "2024-13-01", "2024-02-22T24:00Z", "2024-02-22T15:00:00.Z", "2024-2-22", "", " "] {
            XCTAssertNil(ms(bad), bad)
        }
    }

    func testTextThatIsNotASCIIStillTakesTheCharacterPath() {
        // U+3000 is white space to `CharacterSet.whitespaces`; full-width digits are not ASCII digits.
        XCTAssertEqual(
            ExchangeDates.parse("\u{3000}2024-02-22\u{3000}", timeZone: utc)?.millisecondsSince1970, 1_708_560_000_000)
        XCTAssertNil(ExchangeDates.parse("２０２４-02-22", timeZone: utc))
        XCTAssertNil(ExchangeDates.parse("2024-02-22T15:00Z\u{301}", timeZone: utc))
    }

    /// Random ASCII texts built from the grammar's pieces, valid or a piece off.
    func testBothReadersAgreeOnEveryASCIIText() {
        var rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
        let pieces = [
            "2024", "1999", "0001", "-", "02", "13", "29", "7", "T", "t", " ", "\t", ":", "00", "59", "60", "23", "24",
            ".", ",", "1", "123", "123456", "Z", "z", "+", "-", "01:00", "0530", "99", "x", "\r\n", "",
        ]
        let templates = [
            "2024-02-22T15:00:00.123Z", "2024-02-22", "2024-02-22 15:00", "2024-02-22T15:00:00+01:00",
            "2024-02-22T15:00:00,5 -0530", " 2024-02-22\t",
        ]
        for n in 0..<20_000 {
            var text: String
            if n % 2 == 0 {
                text = (0..<Int.random(in: 1...12, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }
                    .joined()
            } else {
                var bytes = Array(templates.randomElement(using: &rng)!.utf8)
                for _ in 0..<Int.random(in: 0...2, using: &rng) where !bytes.isEmpty {
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    let replacement = Array(pieces.randomElement(using: &rng)!.utf8)
                    if Bool.random(using: &rng) {
                        bytes.replaceSubrange(i...i, with: replacement)
                    } else {
                        bytes.insert(contentsOf: replacement, at: i)
                    }
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            let byBytes = ASCIIDateScanner.fields(in: Array(text.utf8))
            let byCharacters = ExchangeDates.characterFields(text)
            if byBytes != byCharacters {
                return XCTFail(
                    "\(text.debugDescription): bytes \(String(describing: byBytes)), "
                        + "characters \(String(describing: byCharacters))")
            }
        }
    }
}
