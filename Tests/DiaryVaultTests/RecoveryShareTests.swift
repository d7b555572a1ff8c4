import DiaryCrypto
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Recovery shares: their bytes and text, their files, and every refusal named.
final class RecoveryShareTests: XCTestCase {
    private let vault = UUID()

    private func split(threshold: Int = 3, count: Int = 5) throws -> (SecretBytes, [RecoveryShare]) {
        let key = try SecretBytes(randomCount: 32)
        return (key, try RecoveryShares.split(key: key, vaultID: vault, threshold: threshold, count: count))
    }

    func testThreeOfFiveRebuildTheKeyThroughTheirTextAndTwoDoNot() throws {
        let (key, shares) = try split()
        XCTAssertEqual(shares.map(\.x), [1, 2, 3, 4, 5])
        XCTAssertEqual(Set(shares.map(\.shareSetID)).count, 1)
        let typed = try shares.map { try RecoveryShare(text: $0.text.lowercased()) }
        for subset in [[0, 1, 2], [4, 2, 0], [1, 3, 4], [0, 1, 2, 3, 4]] {
            XCTAssertEqual(try RecoveryShares.combine(subset.map { typed[$0] }, vaultID: vault), key)
        }
        XCTAssertThrowsError(try RecoveryShares.combine([typed[0], typed[3]], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .tooFew(needed: 3, have: 2))
        }
    }

    func testTheBytesAreTheDocumentedLayout() throws {
        let (_, shares) = try split(threshold: 2, count: 3)
        let share = shares[1]
        var bytes = share.encoded()
        defer { secureZero(&bytes) }
        XCTAssertEqual(bytes.count, 60)
        XCTAssertEqual(bytes[0], 1)
        XCTAssertEqual(Array(bytes[1..<9]), share.shareSetID)
        XCTAssertEqual(Array(bytes[9..<25]), share.vaultID.bytes)
        XCTAssertEqual(Array(bytes[25..<28]), [2, 3, 2])
        XCTAssertEqual(Array(bytes[28...]), share.y.withUnsafeBytes { Array($0) })
        XCTAssertEqual(share.text, CheckedBase32.encode(bytes))
        XCTAssertEqual(share.text.filter { $0 != "-" }.count, 98)
    }

    func testEachSplitHasItsOwnShareSet() throws {
        let key = try SecretBytes(randomCount: 32)
        let first = try RecoveryShares.split(key: key, vaultID: vault, threshold: 2, count: 2)
        let second = try RecoveryShares.split(key: key, vaultID: vault, threshold: 2, count: 2)
        XCTAssertNotEqual(first[0].shareSetID, second[0].shareSetID)
        XCTAssertNotEqual(first[0].y, second[0].y, "fresh coefficients")
        XCTAssertThrowsError(try RecoveryShares.combine([first[0], second[1]], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .otherShareSet)
        }
    }

    func testAShareOfAnotherVaultIsNamedAsSuch() throws {
        let other = UUID()
        let (_, mine) = try split()
        let theirs = try RecoveryShares.split(
            key: try SecretBytes(randomCount: 32), vaultID: other, threshold: 3, count: 5)
        XCTAssertThrowsError(try RecoveryShares.check(theirs[0], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .otherVault(other))
        }
        XCTAssertNoThrow(try RecoveryShares.check(mine[0], vaultID: vault))
        // Before any counting: one share of another vault among enough of this one's.
        XCTAssertThrowsError(try RecoveryShares.combine([mine[0], mine[1], theirs[2], mine[3]], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .otherVault(other))
        }
    }

    func testTheSameShareTwiceIsNamed() throws {
        let (_, shares) = try split()
        XCTAssertThrowsError(try RecoveryShares.combine([shares[0], shares[1], shares[1]], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .duplicateShare(x: 2))
        }
    }

    func testSharesThatDisagreeOnTheThresholdAreRefused() throws {
        let (_, shares) = try split()
        let altered = try forge(shares[2]) { $0[25] = 2 }
        XCTAssertEqual(altered.threshold, 2)
        XCTAssertThrowsError(try RecoveryShares.combine([shares[0], shares[1], altered], vaultID: vault)) {
            XCTAssertEqual($0 as? RecoveryShareError, .thresholdsDisagree)
        }
    }

    /// A cheating share that passes every check rebuilds some other key (the caller's public
    /// key comparison then refuses it).
    func testACheatingShareLeadsToAnotherKey() throws {
        let (key, shares) = try split()
        let cheat = try forge(shares[2]) { $0[40] ^= 0x01 }
        let rebuilt = try RecoveryShares.combine([shares[0], shares[1], cheat], vaultID: vault)
        XCTAssertNotEqual(rebuilt, key)
    }

    func testEveryMistypedCharacterIsCaught() throws {
        let (_, shares) = try split()
        let text = Array(shares[0].text)
        for position in text.indices where text[position] != "-" {
            var typo = text
            typo[position] = text[position] == "7" ? "8" : "7"
            XCTAssertThrowsError(try RecoveryShare(text: String(typo))) {
                XCTAssertEqual($0 as? RecoveryShareError, .mistyped(.checksumMismatch))
            }
        }
        XCTAssertThrowsError(try RecoveryShare(text: String(text.dropLast()))) {
            XCTAssertEqual($0 as? RecoveryShareError, .mistyped(.wrongLength(expected: 98, got: 97)))
        }
    }

    func testAnUnknownVersionAndImpossibleFieldsAreNamed() throws {
        let (_, shares) = try split()
        var bytes = shares[0].encoded()
        defer { secureZero(&bytes) }
        var newer = bytes
        newer[0] = 2
        XCTAssertThrowsError(try RecoveryShare(text: CheckedBase32.encode(newer))) {
            XCTAssertEqual($0 as? RecoveryShareError, .unknownVersion(2))
        }
        // A later version may be longer: its checks still hold, so it is not called a typo.
        XCTAssertThrowsError(try RecoveryShare(text: CheckedBase32.encode(newer + [0, 0, 0]))) {
            XCTAssertEqual($0 as? RecoveryShareError, .unknownVersion(2))
        }
        for (offset, value) in [(25, 1), (25, 6), (26, 17), (27, 0), (27, 6)] as [(Int, UInt8)] {
            var impossible = bytes
            impossible[offset] = value
            XCTAssertThrowsError(try RecoveryShare(text: CheckedBase32.encode(impossible)), "\(offset) = \(value)") {
                XCTAssertEqual($0 as? RecoveryShareError, .invalidFields)
            }
        }
    }

    func testARecoveryKeyGivenAsAShareIsNamed() throws {
        let key = SecureRandom.bytes(count: 32)
        XCTAssertThrowsError(try RecoveryShare(text: CheckedBase32.encode(key))) {
            XCTAssertEqual($0 as? RecoveryShareError, .recoveryKeyNotShare)
        }
    }

    func testSplitParametersAreChecked() throws {
        let key = try SecretBytes(randomCount: 32)
        for (threshold, count) in [(1, 5), (6, 5), (2, 17), (0, 0)] {
            XCTAssertThrowsError(try RecoveryShares.split(key: key, vaultID: vault, threshold: threshold, count: count))
            {
                XCTAssertEqual($0 as? RecoveryShareError, .invalidParameters(threshold: threshold, count: count))
            }
        }
        XCTAssertEqual(try RecoveryShares.split(key: key, vaultID: vault, threshold: 16, count: 16).count, 16)
    }

    // MARK: - Files

    func testAShareFileSaysWhatItIsAndReadsBack() throws {
        let (key, shares) = try split()
        let created = Date(timeIntervalSince1970: 1_795_000_000)
        let contents = RecoveryShareFile.contents(of: shares[1], created: created)
        let lines = contents.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5)
        XCTAssertEqual(lines[0], "# diary recovery share 2 of 5: any 3 of the 5 shares rebuild the recovery key")
        XCTAssertEqual(lines[1], "# vault \(vault.uuidString.lowercased())")
        XCTAssertEqual(lines[2], "# share set \(shares[1].shareSetHex)")
        XCTAssertEqual(lines[3], "# created 2026-11-18")
        XCTAssertEqual(lines[4], shares[1].text)
        XCTAssertEqual(RecoveryShareFile.fileName(for: shares[1]), "share-2-of-5.txt")
        let read = try shares.map {
            try RecoveryShareFile.read(Array(RecoveryShareFile.contents(of: $0, created: created).utf8))
        }
        XCTAssertEqual(try RecoveryShares.combine(Array(read.suffix(3)), vaultID: vault), key)
    }

    func testAHandTypedShareFileMayBreakTheTextOverLines() throws {
        let (_, shares) = try split()
        let groups = shares[0].text.split(separator: "-")
        let typed =
            "# from the paper copy\r\n" + groups[0..<8].joined(separator: " ") + "\r\n\n"
            + groups[8...].joined(separator: " ").lowercased() + "\n"
        let read = try RecoveryShareFile.read(Array(typed.utf8))
        XCTAssertEqual(read.y, shares[0].y)
        XCTAssertEqual(read.x, 1)
    }

    func testFilesThatHoldNoShareAreSaidToBeNone() throws {
        let (_, shares) = try split()
        let notShares: [[UInt8]] = [
            [], Array("# only a comment\n\n".utf8), [0xFF, 0xFE, 0x41], Array("Dear diary, today I…\n".utf8),
            Array("hello\n".utf8),
            Array(repeating: UInt8(ascii: "0"), count: RecoveryShareFile.maximumByteCount + 1),
        ]
        for bytes in notShares {
            XCTAssertThrowsError(try RecoveryShareFile.read(bytes)) {
                XCTAssertEqual($0 as? RecoveryShareError, .notAShareFile)
            }
        }
        // Without the first line, a text a character short is still a typo.
        let short = String(shares[0].text.dropLast())
        XCTAssertThrowsError(try RecoveryShareFile.read(Array(short.utf8))) {
            XCTAssertEqual($0 as? RecoveryShareError, .mistyped(.wrongLength(expected: 98, got: 97)))
        }
        // With its first line, a share file with a stray character is a typo, named where it is.
        var contents = Array(RecoveryShareFile.contents(of: shares[0], created: Date()))
        let start = contents.lastIndex(of: "#").map { contents[$0...].firstIndex(of: "\n")! + 1 }!
        contents[start + 2] = "U"
        XCTAssertThrowsError(try RecoveryShareFile.read(Array(String(contents).utf8))) {
            XCTAssertEqual($0 as? RecoveryShareError, .mistyped(.badCharacter(position: 3, character: "U")))
        }
    }

    /// Hostile files: random bytes and a real share file with random bytes changed, inserted
    /// or cut are either read (when the checks still hold) or refused with a typed error.
    func testRandomAndDamagedFilesGiveTypedErrorsOnly() throws {
        let (_, shares) = try split()
        let valid = Array(RecoveryShareFile.contents(of: shares[0], created: Date()).utf8)
        var generator = SeededGenerator(seed: 2026)
        for round in 0..<3000 {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = valid
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let at = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes.insert(UInt8.random(in: 0x20...0x7E, using: &generator), at: at)
                    default: bytes.remove(at: at)
                    }
                }
            }
            do {
                // Several changes can, rarely, keep the checks: then it is some share, in range.
                let share = try RecoveryShareFile.read(bytes)
                XCTAssertTrue(2 <= share.threshold && share.threshold <= share.count && share.count <= 16)
                XCTAssertTrue((1...share.count).contains(share.x))
            } catch {
                XCTAssertTrue(error is RecoveryShareError, "round \(round): \(error)")
            }
        }
    }

    /// `share` with its bytes changed by `change` and its checks recomputed: a share that
    /// passes every check alone but was not made by the split.
    private func forge(_ share: RecoveryShare, _ change: (inout [UInt8]) -> Void) throws -> RecoveryShare {
        var bytes = share.encoded()
        defer { secureZero(&bytes) }
        change(&bytes)
        return try RecoveryShare(text: CheckedBase32.encode(bytes))
    }
}
