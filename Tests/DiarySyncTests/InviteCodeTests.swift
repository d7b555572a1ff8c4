import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

final class InviteCodeTests: XCTestCase {
    private let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    private func fixed() throws -> InviteCode {
        InviteCode(
            inviteID: [0, 1, 2, 3, 4, 5, 6, 7],
            secret: try SecretBytes(count: 16) { $0.initializeMemory(as: UInt8.self, repeating: 0x11) },
            head: [UInt8](repeating: 0, count: 16))
    }

    func testADrawnCodeReadsBackAsTyped() throws {
        let head = BLAKE2b.hash([1, 2, 3])
        let code = try InviteCode.draw(head: head)
        XCTAssertEqual(code.inviteID.count, 8)
        XCTAssertEqual(code.secret.count, 16)
        XCTAssertEqual(code.head, Array(head.prefix(16)))
        let text = code.text
        let groups = text.split(separator: "-")
        XCTAssertEqual(groups.count, 18, "43 bytes are 69 digits")
        XCTAssertTrue(groups.dropLast().allSatisfy { $0.count == 4 })
        XCTAssertEqual(groups.last?.count, 1)
        XCTAssertTrue(text.allSatisfy { $0 == "-" || alphabet.contains($0) })
        for typed in [
            text, text.lowercased(), text.replacingOccurrences(of: "-", with: ""),
            text.replacingOccurrences(of: "-", with: " "),
        ] {
            let read = try InviteCode(text: typed)
            XCTAssertEqual(read.inviteID, code.inviteID)
            XCTAssertEqual(read.secret, code.secret)
            XCTAssertEqual(read.head, code.head)
        }
        XCTAssertNotEqual(try InviteCode.draw(head: head).text, text)
    }

    func testTheLettersCrockfordReadAsDigitsAreAccepted() throws {
        let text = try fixed().text
        XCTAssertTrue(text.contains("0") && text.contains("1"))
        for (digit, letter) in [("0", "O"), ("0", "o"), ("1", "I"), ("1", "l"), ("1", "L")] {
            let read = try InviteCode(text: text.replacingOccurrences(of: digit, with: letter))
            XCTAssertEqual(read.inviteID, [0, 1, 2, 3, 4, 5, 6, 7])
        }
    }

    func testTheChecksumIsCRC16CCITTFalse() {
        XCTAssertEqual(InviteCode.checksum(Array("123456789".utf8)), [0x29, 0xB1], "the catalogue's check value")
        XCTAssertEqual(InviteCode.checksum([]), [0xFF, 0xFF])
    }

    /// Every code, not only a lucky one: a hash-based checksum passed this for most codes and
    /// missed one change in 65,536 (CI drew such a code once).
    func testAnySingleChangedCharacterIsCaught() throws {
        for seed in 0..<8 {
            try assertEverySingleChangeIsCaught(try InviteCode.draw(head: BLAKE2b.hash([UInt8(seed)])).text)
        }
    }

    private func assertEverySingleChangeIsCaught(_ text: String) throws {
        let digits = Array(text.filter { $0 != "-" })
        for i in digits.indices {
            for replacement in alphabet where replacement != digits[i] {
                var changed = digits
                changed[i] = replacement
                XCTAssertThrowsError(try InviteCode(text: String(changed)), "\(i) → \(replacement)") {
                    let error = $0 as? InviteCodeError
                    XCTAssertTrue(error == .badChecksum || error == .malformed, "\(i): \(String(describing: error))")
                }
            }
        }
    }

    func testSwappedNeighboursAreCaught() throws {
        for seed in 0..<8 { try assertEverySwapIsCaught(try InviteCode.draw(head: BLAKE2b.hash([UInt8(seed)])).text) }
    }

    private func assertEverySwapIsCaught(_ text: String) throws {
        let digits = Array(text.filter { $0 != "-" })
        var swaps = 0
        for i in digits.indices.dropLast() where digits[i] != digits[i + 1] {
            var swapped = digits
            swapped.swapAt(i, i + 1)
            XCTAssertThrowsError(try InviteCode(text: String(swapped)), "swap at \(i)")
            swaps += 1
        }
        XCTAssertGreaterThan(swaps, 50)
    }

    func testAnotherVersionOrLengthOrAlphabetIsRefusedByName() throws {
        var payload: [UInt8] = [2] + [UInt8](repeating: 7, count: 40)
        payload += InviteCode.checksum(payload)
        XCTAssertThrowsError(try InviteCode(text: CrockfordBase32.encode(payload))) {
            XCTAssertEqual($0 as? InviteCodeError, .unsupportedVersion(2))
        }
        XCTAssertThrowsError(try InviteCode(text: CrockfordBase32.encode([3] + [UInt8](repeating: 7, count: 50)))) {
            XCTAssertEqual($0 as? InviteCodeError, .unsupportedVersion(3))
        }
        let text = try fixed().text
        for bad in [
            "", "-", String(text.dropLast()), text + "0", text.replacingOccurrences(of: "0", with: "U"), text + "é",
        ] {
            XCTAssertThrowsError(try InviteCode(text: bad), bad) { XCTAssertEqual($0 as? InviteCodeError, .malformed) }
        }
    }

    func testCrockfordBase32RoundTripsAndRefusesNonZeroPaddingBits() {
        for count in 0..<12 {
            let bytes = (0..<count).map { UInt8(($0 * 37 + 11) & 0xFF) }
            XCTAssertEqual(CrockfordBase32.decode(CrockfordBase32.encode(bytes)), bytes, "\(count)")
        }
        XCTAssertEqual(CrockfordBase32.encode([0xFF]), "ZW")
        XCTAssertNil(CrockfordBase32.decode("ZZ"), "the unused low bits of the last digit must be zero")
    }

    func testTheProofIsTheKeyedHashOfTheDesignsMessage() throws {
        let secret = try SecretBytes(randomCount: 16)
        let vaultID = UUID()
        let machine = UUID()
        let publicKey = try SigningKeyPair.generate().publicKey
        let head = BLAKE2b.hash([4])
        let proof = try InviteCode.proof(
            secret: secret, vaultID: vaultID, machine: machine, publicKey: publicKey, name: "desk", head: head)
        let message =
            Array("diary.sync.join.v2".utf8) + vaultID.bytes + machine.bytes + publicKey + [0, 4]
            + Array("desk".utf8) + head
        XCTAssertEqual(proof, try BLAKE2b.keyedHash(message, key: secret))
        XCTAssertEqual(proof.count, 32)
        func other(name: String = "desk", head: [UInt8] = head, secret: SecretBytes = secret) throws -> [UInt8] {
            try InviteCode.proof(
                secret: secret, vaultID: vaultID, machine: machine, publicKey: publicKey, name: name, head: head)
        }
        XCTAssertNotEqual(try other(name: "desk2"), proof)
        XCTAssertNotEqual(try other(head: BLAKE2b.hash([5])), proof)
        XCTAssertNotEqual(try other(secret: SecretBytes(randomCount: 16)), proof)
    }
}
