import DiaryTestSupport
import XCTest

@testable import DiaryVault

/// `UTF8Check`'s sixteen-byte path against the plain answer (`String(validating:)` and a scan
/// of its scalars for barriers) on long generated texts: runs of ASCII and of three-byte
/// scalars that cross the windows' edges, with every kind of invalid sequence put in at random
/// places.
final class UTF8CheckWindowTests: XCTestCase {
    /// Pieces of valid text: ASCII, Hangul (the first and last syllables, and ED 9E, past the
    /// vector path's range), kana and CJK at the edges of their ranges, three-byte scalars that
    /// are not barriers (beside them, and the first above a surrogate), two- and four-byte ones.
    private let pieces = [
        "a", "The quick brown fox ", "\n", "가", "힣", "힢", "퀘", "오늘 카페에 갔다 ", "ぁ", "ヿ", "゠", "ゟ", "カタカナ", "一",
        "丁", "鿿", "漢字", "㐀", "ࠀ", "\u{FFFF}", "\u{E000}", "\u{D7FF}", "ힰ", "ㄱ", "é", "e\u{301}", "😀", "\u{10FFFF}",
    ]

    /// Invalid sequences, one of each class of Unicode table 3-7: lone continuations, overlong
    /// two-, three- and four-byte forms, surrogates, above U+10FFFF, bytes never used, and
    /// leads cut short (before ASCII, before another lead, at the end).
    private let invalid: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
        [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
        [0xFF], [0xFE], [0xEA], [0xEA, 0xB0], [0xE3, 0x81], [0xC2], [0xF0, 0x9F, 0x98], [0xEB, 0x41, 0x80],
        [0xEC, 0x80, 0x41], [0xE9, 0xEA, 0xB0, 0x80],
    ]

    private func plain(_ bytes: [UInt8]) -> Bool? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        return text.unicodeScalars.allSatisfy { s in
            s.isASCII || (0xAC00...0xD7A3).contains(s.value) || (0x3040...0x30FF).contains(s.value)
                || (0x4E00...0x9FFF).contains(s.value)
        }
    }

    private func generated(_ rng: inout SeededGenerator, round: Int) -> [UInt8] {
        // Long runs of one piece as well as mixtures, so that whole windows of each kind occur.
        let mixed = round % 2 == 0
        let run = pieces[Int(rng.next() % UInt64(pieces.count))]
        var bytes = Array(
            (0..<Int(rng.next() % 90)).map { _ in mixed ? pieces[Int(rng.next() % UInt64(pieces.count))] : run }
                .joined().utf8)
        if round % 3 != 0 {
            for _ in 0...Int(rng.next() % 2) {
                let at = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count + 1))
                switch rng.next() % 3 {
                case 0: bytes.insert(contentsOf: invalid[Int(rng.next() % UInt64(invalid.count))], at: at)
                case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                default: if at < bytes.count { bytes.remove(at: at) }
                }
            }
        }
        return bytes
    }

    func testScanAgreesWithThePlainAnswerOnLongGeneratedTexts() {
        var rng = SeededGenerator(seed: 23)
        for round in 0..<30_000 {
            let bytes = generated(&rng, round: round)
            let scanned = bytes.withUnsafeBytes { UTF8Check.scan($0).map(\.onlyASCIIAndBarriers) }
            XCTAssertEqual(scanned, plain(bytes), "round \(round): \(bytes)")
        }
    }

    /// The vector path alone: what it accepts from the start of a text is a whole number of
    /// valid scalars, barriers only when it was asked for barriers only.
    func testWindowsAcceptOnlyValidScalars() throws {
        var rng = SeededGenerator(seed: 24)
        var accepted = 0
        for round in 0..<30_000 {
            let bytes = generated(&rng, round: round)
            for barriersOnly in [true, false] {
                let reached = bytes.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.map {
                        UTF8Check.windows($0, from: 0, count: buffer.count, barriersOnly: barriersOnly)
                    } ?? 0
                }
                accepted += reached
                let prefix = Array(bytes[..<reached])
                let answer = try XCTUnwrap(plain(prefix), "round \(round): \(bytes), accepted \(reached)")
                if barriersOnly { XCTAssertTrue(answer, "round \(round): \(bytes), accepted \(reached)") }
            }
        }
        // The vector path did take part (on x86-64, where it exists).
        #if arch(x86_64)
        XCTAssertGreaterThan(accepted, 100_000)
        #endif
    }
}
