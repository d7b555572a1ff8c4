import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

/// `UUID(hyphenatedHex:)` reads ids byte by byte in place of Foundation's `UUID(uuidString:)`
/// (an import parses one per entry). It accepts the canonical 8-4-4-4-12 form in either case,
/// as Foundation does, with the same value; Foundation's `sscanf` also takes some malformed
/// texts (`c1d5ed66-3f-4-4e0f-…`), which this refuses.
final class UUIDHyphenatedHexTests: XCTestCase {
    func testItReadsTheCanonicalFormAsFoundationDoesAndNothingElse() {
        var rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
        let alphabet = Array("0123456789abcdefABCDEFgG-x {}é")
        for n in 0..<20_000 {
            var text = UUID().uuidString
            if n % 3 == 0 { text = text.lowercased() }
            if n % 2 == 1 {
                var characters = Array(text)
                for _ in 0..<Int.random(in: 1...2, using: &rng) {
                    let i = Int.random(in: 0...characters.count, using: &rng)
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0 where i < characters.count: characters[i] = alphabet.randomElement(using: &rng)!
                    case 1: characters.insert(alphabet.randomElement(using: &rng)!, at: i)
                    default: if i < characters.count { characters.remove(at: i) }
                    }
                }
                text = String(characters)
            }
            let ours = UUID(hyphenatedHex: text)
            let foundations = UUID(uuidString: text)
            let canonical = foundations.map { $0.uuidString.lowercased() == text.lowercased() } ?? false
            if ours != (canonical ? foundations : nil) {
                return XCTFail(
                    "\(text.debugDescription): \(String(describing: ours)), Foundation \(String(describing: foundations))"
                )
            }
            // An entry file's name: Foundation's id whose lowercase spelling is the name itself.
            let named = foundations.flatMap { $0.uuidString.lowercased() == text ? $0 : nil }
            if FileStore.entryID(fromFileName: text) != named {
                return XCTFail("\(text.debugDescription) names \(String(describing: named)) as an entry file")
            }
        }
    }

    func testLowercaseOnlyRefusesCapitals() {
        let id = UUID()
        XCTAssertEqual(UUID(hyphenatedHex: id.uuidString.lowercased(), lowercaseOnly: true), id)
        XCTAssertNil(UUID(hyphenatedHex: id.uuidString, lowercaseOnly: true))
        XCTAssertEqual(UUID(hyphenatedHex: id.uuidString), id)
    }
}
