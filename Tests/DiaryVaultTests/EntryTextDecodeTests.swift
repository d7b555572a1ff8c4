import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `EntryCodec.text(in:textLimit:)`, the in-place decode `search` uses, must accept exactly the
/// entries `EntryCodec.decode` accepts, with the same text; and `UTF8Check` must accept exactly
/// what `String(validating:)` accepts.
final class EntryTextDecodeTests: XCTestCase {
    private func fast(_ bytes: [UInt8], limit: Int = 1 << 20) -> Result<[UInt8], FormatError> {
        bytes.withUnsafeBytes { raw in
            do { return .success(Array(try EntryCodec.text(in: raw, textLimit: limit).bytes)) } catch {
                return .failure(error as! FormatError)
            }
        }
    }

    private func slow(_ bytes: [UInt8], limit: Int = 1 << 20) -> Result<[UInt8], FormatError> {
        do { return .success(Array(try EntryCodec.decode(bytes, id: UUID(), textLimit: limit).text.utf8)) } catch {
            return .failure(error as! FormatError)
        }
    }

    private func sample(_ rng: inout SeededGenerator) -> Entry {
        let pieces = ["오늘 카페에 갔다", "Quetzalcoatlus", "café", "e\u{301}", "👩‍💻", "line\n", " ", "ﬁ"]
        let text = (0..<Int(rng.next() % 30)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        let d = Date(millisecondsSince1970: Int64(rng.next() % 4_000_000_000_000))
        return Entry(
            id: UUID(), text: text, date: d, created: d, modified: d, starred: rng.next() % 2 == 0,
            tags: (0..<Int(rng.next() % 3)).map { "tag\($0)é" }, source: rng.next() % 2 == 0 ? "jrnl:x" : nil)
    }

    func testBothDecodesAgreeOnGeneratedEntriesAndTheirMutations() {
        var rng = SeededGenerator(seed: 2024)
        for round in 0..<4000 {
            var bytes = EntryCodec.encode(sample(&rng))
            switch round % 5 {
            case 0: break
            case 1: bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            case 2: bytes.removeLast(Int(rng.next() % UInt64(bytes.count)) + 1)
            case 3: bytes.append(UInt8(truncatingIfNeeded: rng.next()))
            default:  // several random bytes: hits lengths, times, flags and UTF-8 alike
                for _ in 0..<4 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            XCTAssertEqual(fast(bytes), slow(bytes), "round \(round)")
        }
    }

    func testTheTextLimitAndHostileLengthsAreRefusedLikeDecode() {
        let d = Date(millisecondsSince1970: 0)
        let bytes = EntryCodec.encode(
            Entry(
                id: UUID(), text: "twelve bytes", date: d, created: d, modified: d,
                starred: false, tags: [], source: nil))
        XCTAssertEqual(fast(bytes, limit: 11), .failure(.fieldTooLarge))
        XCTAssertEqual(fast(bytes, limit: 12), .success(Array("twelve bytes".utf8)))
        var huge = bytes
        let lengthAt = bytes.count - 12 - 4
        huge.replaceSubrange(lengthAt..<lengthAt + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        XCTAssertEqual(fast(huge, limit: Int(UInt32.max)), slow(huge, limit: Int(UInt32.max)))
        XCTAssertEqual(fast(huge, limit: Int(UInt32.max)), .failure(.truncated))
        XCTAssertEqual(fast([]), .failure(.truncated))
        XCTAssertEqual(fast([2]), .failure(.unsupportedVersion(2)))
    }

    /// Long runs of Hangul and ASCII (the eight-byte path), with a byte changed here and there.
    func testUTF8CheckAgreesWithStringValidatingOnMutatedHangulText() {
        var rng = SeededGenerator(seed: 5)
        let words = [
            "가", "각", "한", "했", "힣", "하", "오늘", "카페", "뷁", "ㄱ", "ힰ", "퀘", "a", "Ab", "e\u{301}", "漢", "カ", "é", "😀",
            "a much longer run of plain ascii prose, past thirty-two bytes", "박물관에서 익룡을 봤다",
        ]
        let replacements: [UInt8] = [
            0x20, 0x80, 0x9D, 0x9E, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC2, 0xE0, 0xE9, 0xEA,
            0xEB, 0xEC, 0xED, 0xEE, 0xF0, 0xFF,
        ]
        for round in 0..<20_000 {
            let text = (0..<Int(rng.next() % 40)).map { _ in words[Int(rng.next() % UInt64(words.count))] }
                .joined(separator: rng.next() % 2 == 0 ? " " : "")
            var bytes = Array(text.utf8)
            if !bytes.isEmpty, round % 3 != 0 {
                bytes[Int(rng.next() % UInt64(bytes.count))] =
                    replacements[Int(rng.next() % UInt64(replacements.count))]
            }
            let reference = String(validating: bytes, as: UTF8.self)
            let scanned = bytes.withUnsafeBytes { UTF8Check.scan($0).map(\.onlyASCIIAndBarriers) }
            XCTAssertEqual(scanned != nil, reference != nil, "round \(round): \(bytes)")
            if let reference, let scanned {
                let expected = reference.unicodeScalars.allSatisfy { s in
                    s.isASCII || (0xAC00...0xD7A3).contains(s.value) || (0x3040...0x30FF).contains(s.value)
                        || (0x4E00...0x9FFF).contains(s.value)
                }
                XCTAssertEqual(scanned, expected, "round \(round): \(reference.debugDescription)")
            }
        }
    }

    func testUTF8CheckAgreesWithStringValidatingOnGeneratedBytes() {
        var rng = SeededGenerator(seed: 99)
        // Bytes near the edges of table 3-7, so overlong forms, surrogates and the U+10FFFF limit come up often.
        let interesting: [UInt8] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9D, 0x9E, 0x9F, 0xA0, 0xAF, 0xB0, 0xBF, 0xC0,
            0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEA, 0xEB, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1,
            0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for round in 0..<20_000 {
            let count = Int(rng.next() % 40)
            let bytes: [UInt8] = (0..<count).map { _ in
                rng.next() % 3 == 0
                    ? UInt8(truncatingIfNeeded: rng.next()) : interesting[Int(rng.next() % UInt64(interesting.count))]
            }
            let expected = String(validating: bytes, as: UTF8.self) != nil
            XCTAssertEqual(bytes.withUnsafeBytes(UTF8Check.isValid), expected, "round \(round): \(bytes)")
        }
        // ASCII with one stray byte anywhere, for the ASCII pass's word loop and its tail alike.
        for count in 1...24 {
            for at in 0..<count {
                var bytes = [UInt8](repeating: 0x61, count: count)
                bytes[at] = 0x80
                XCTAssertFalse(bytes.withUnsafeBytes(UTF8Check.isValid), "\(count) bytes, 0x80 at \(at)")
                bytes[at] = 0x7F
                XCTAssertTrue(bytes.withUnsafeBytes(UTF8Check.isValid), "\(count) bytes, 0x7F at \(at)")
            }
        }
        for text in ["", "plain ascii longer than eight bytes", "오늘 카페", "👩‍💻 e\u{301} \u{10FFFF}"] {
            XCTAssertTrue(Array(text.utf8).withUnsafeBytes(UTF8Check.isValid), text)
        }
    }
}
