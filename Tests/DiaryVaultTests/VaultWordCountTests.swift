import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `WordCount` and `Vault.wordCounts`: words counted in place agree with the String count, the
/// filter decides which entries are opened, and damage is reported, not counted.
final class VaultWordCountTests: VaultTestCase {
    private func inPlace(_ text: String) -> Int {
        Array(text.utf8).withUnsafeBytes { WordCount.count(UTF8Check.scan($0)!) }
    }

    func testTheListOfSpacesIsUnicodesWhiteSpaceBeyondASCII() {
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            XCTAssertEqual(WordCount.isNonASCIISpace(value), scalar.properties.isWhitespace, String(value, radix: 16))
        }
    }

    func testInPlaceCountAgreesWithTheStringCount() {
        let samples = [
            "", " ", "one", " one  two\tthree\nfour ", "오늘은 비가 왔다", "tea\u{00A0}time\u{3000}再见",
            "e\u{301}t\u{E9} 👩‍💻 ok", "line\r\nbreak\u{2028}sep\u{85}x", "日本語の文",
        ]
        for text in samples { XCTAssertEqual(inPlace(text), WordCount.count(text), text) }
        XCTAssertEqual(WordCount.count(" one  two\tthree\nfour "), 4)
        XCTAssertEqual(WordCount.count("tea\u{00A0}time\u{3000}再见"), 3)
        XCTAssertEqual(WordCount.count("日本語の文"), 1)
    }

    func testCountsTheFilteredEntriesAndReportsDamage() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let early = try vault.add(text: "one two three", date: date("2024-01-01T10:00:00Z"))
            let late = try vault.add(text: "four five", date: date("2024-06-01T10:00:00Z"))
            let damaged = try vault.add(text: "six seven eight nine", date: date("2024-06-02T10:00:00Z"))
            var sealed = try XCTUnwrap(try vault.backend.readEntry(damaged.id))
            sealed[sealed.count - 1] ^= 1
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [damaged.id: sealed])) }

            let all = try vault.wordCounts()
            XCTAssertEqual(all.words, [early.id: 3, late.id: 2])
            XCTAssertEqual(all.damaged, [damaged.id])
            let june = try vault.wordCounts(EntryFilter(from: date("2024-05-01T00:00:00Z"), limit: 1))
            XCTAssertEqual(june.words, [late.id: 2], "the date filter applies; the limit does not")
            XCTAssertEqual(june.damaged, [damaged.id])
        }
    }
}
