import DiaryCrypto
import DiaryTestSupport
import XCTest

@testable import DiaryVault

/// `CheckedBase32`: the text of a recovery key and of a share (docs/FORMAT.md, Checked base32).
final class CheckedBase32Tests: XCTestCase {
    private let digits = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Vectors from an independent implementation (GF(32) by log tables, the checks found by
    /// trying all 1,024 pairs), so the encoder is not checked against itself.
    func testKnownVectors() throws {
        let vectors: [(String, String)] = [
            ("", "00"),
            ("ff", "ZWCF"),
            ("48656c6c6f", "91JPRV3FKG"),
            (
                "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
                "000G40R40M30E209185GR38E1W8124GK2GAHC5RR34D1P70X3RFGTK"
            ),
        ]
        for (hex, text) in vectors {
            let bytes = Self.bytes(hex: hex)
            XCTAssertEqual(CheckedBase32.encode(bytes, groupSize: 0), text, hex)
            XCTAssertEqual(try CheckedBase32.decode(text, expectedByteCount: bytes.count), bytes, hex)
        }
    }

    func testAThirtyTwoByteKeyIsNineGroupsOfSix() throws {
        let key = SecureRandom.bytes(count: 32)
        let text = CheckedBase32.encode(key)
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        XCTAssertEqual(groups.count, 9)
        XCTAssertTrue(groups.allSatisfy { $0.count == 6 }, text)
        XCTAssertEqual(CheckedBase32.characterCount(byteCount: 32), 54)
        XCTAssertEqual(try CheckedBase32.decode(text, expectedByteCount: 32), key)
    }

    func testRoundTripsEveryLengthAndGroupSize() throws {
        var generator = SeededGenerator(seed: 26)
        for count in 0...70 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            for groupSize in [0, 1, 4, 6, 7] {
                let text = CheckedBase32.encode(bytes, groupSize: groupSize)
                XCTAssertEqual(text.filter { $0 != "-" }.count, CheckedBase32.characterCount(byteCount: count))
                XCTAssertEqual(try CheckedBase32.decode(text, expectedByteCount: count), bytes)
            }
        }
    }

    func testTheDigitOfEachValueIsCrockfords() {
        for value in 0..<32 {
            XCTAssertEqual(CheckedBase32.digit(of: UInt8(value)), CheckedBase32.alphabet[value])
        }
    }

    func testDecodingForgivesCaseSeparatorsAndLookAlikes() throws {
        // 0x0A 0x1F… chosen so the text holds 0 and 1 to be typed as O, I and L.
        let bytes = Self.bytes(hex: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
        let text = CheckedBase32.encode(bytes)
        XCTAssertEqual(try CheckedBase32.decode(text.lowercased(), expectedByteCount: 32), bytes)
        let spaced = text.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "G", with: "g")
        XCTAssertEqual(try CheckedBase32.decode(" \(spaced)\n", expectedByteCount: 32), bytes)
        let lines = text.split(separator: "-").joined(separator: "\r\n\t")
        XCTAssertEqual(try CheckedBase32.decode(lines, expectedByteCount: 32), bytes)
        var lookAlikes = ""
        var ones = 0
        for character in text {
            switch character {
            case "0": lookAlikes.append(lookAlikes.count % 2 == 0 ? "O" : "o")
            case "1":
                lookAlikes.append(["I", "i", "L", "l"][ones % 4])
                ones += 1
            default: lookAlikes.append(character)
            }
        }
        XCTAssertNotEqual(lookAlikes, text)
        XCTAssertGreaterThanOrEqual(ones, 4, "the vector must exercise every reading of 1")
        XCTAssertEqual(try CheckedBase32.decode(lookAlikes, expectedByteCount: 32), bytes)
    }

    /// Every position, every other digit: caught, for a few random keys (the guarantee, not a
    /// sample of it).
    func testEverySingleWrongCharacterIsCaught() throws {
        for _ in 0..<4 {
            let text = Array(CheckedBase32.encode(SecureRandom.bytes(count: 32), groupSize: 0))
            for position in text.indices {
                for digit in digits where digit != text[position] {
                    var typo = text
                    typo[position] = digit
                    XCTAssertThrowsError(try CheckedBase32.decode(String(typo), expectedByteCount: 32)) { error in
                        XCTAssertEqual(error as? CheckedBase32.Error, .checksumMismatch)
                    }
                }
            }
        }
    }

    func testEverySwapOfDifferentNeighboursIsCaught() throws {
        for count in [1, 16, 32, 60] {
            for _ in 0..<4 {
                let text = Array(CheckedBase32.encode(SecureRandom.bytes(count: count), groupSize: 0))
                for position in text.indices.dropLast() where text[position] != text[position + 1] {
                    var swapped = text
                    swapped.swapAt(position, position + 1)
                    XCTAssertThrowsError(try CheckedBase32.decode(String(swapped), expectedByteCount: count)) {
                        XCTAssertEqual($0 as? CheckedBase32.Error, .checksumMismatch, "swap at \(position)")
                    }
                }
            }
        }
    }

    func testABadCharacterIsNamedWithItsPositionAmongTheDigits() {
        let text = CheckedBase32.encode(SecureRandom.bytes(count: 32))
        for bad: Unicode.Scalar in ["U", "u", "*", "é", "_", "+"] {
            var characters = Array(text)
            characters[8] = Character(bad)  // after "XXXXXX-X": the 8th digit
            XCTAssertThrowsError(try CheckedBase32.decode(String(characters), expectedByteCount: 32)) {
                XCTAssertEqual($0 as? CheckedBase32.Error, .badCharacter(position: 8, character: bad))
            }
        }
    }

    func testAMissingOrExtraCharacterIsAWrongLength() {
        let text = CheckedBase32.encode(SecureRandom.bytes(count: 32), groupSize: 0)
        XCTAssertThrowsError(try CheckedBase32.decode(String(text.dropLast()), expectedByteCount: 32)) {
            XCTAssertEqual($0 as? CheckedBase32.Error, .wrongLength(expected: 54, got: 53))
        }
        XCTAssertThrowsError(try CheckedBase32.decode(text + "0", expectedByteCount: 32)) {
            XCTAssertEqual($0 as? CheckedBase32.Error, .wrongLength(expected: 54, got: 55))
        }
        XCTAssertThrowsError(try CheckedBase32.decode(" - \n", expectedByteCount: 1)) {
            XCTAssertEqual($0 as? CheckedBase32.Error, .wrongLength(expected: 4, got: 0))
        }
    }

    /// A text whose checks match but whose last data digit has spare bits set is refused, so
    /// each byte string has exactly one text.
    func testNonZeroSpareBitsAreRefusedEvenWithMatchingChecks() throws {
        for count in [1, 2, 3, 4, 32] where count * 8 % 5 != 0 {
            var values = CheckedBase32.dataValues(SecureRandom.bytes(count: count))
            values[values.count - 1] |= 1
            values += CheckedBase32.checks(values)
            XCTAssertEqual(CheckedBase32.syndromes(values).0, 0)
            XCTAssertEqual(CheckedBase32.syndromes(values).1, 0)
            let text = String(decoding: values.map(CheckedBase32.digit(of:)), as: UTF8.self)
            XCTAssertThrowsError(try CheckedBase32.decode(text, expectedByteCount: count)) {
                XCTAssertEqual($0 as? CheckedBase32.Error, .nonZeroPadding)
            }
        }
    }

    func testTheFieldIsGF32WithItsInverses() {
        for a in UInt8(1)..<32 {
            XCTAssertEqual(GF32.multiply(a, GF32.inverse(a)), 1, "\(a)")
            XCTAssertEqual(GF32.multiply(a, 1), a)
            XCTAssertEqual(GF32.multiply(a, 0), 0)
        }
        // α has order 31: its powers are every non-zero element once.
        XCTAssertEqual(Set((0..<31).map { GF32.power(GF32.alpha, $0) }).count, 31)
        XCTAssertEqual(GF32.power(GF32.alpha, 31), 1)
        XCTAssertEqual(GF32.power(GF32.alpha, 5), 0b00101)
    }

    private static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map {
            UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)!
        }
    }
}
