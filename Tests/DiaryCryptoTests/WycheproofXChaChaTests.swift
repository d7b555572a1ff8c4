import XCTest

@testable import DiaryCrypto

/// Every Wycheproof XChaCha20-Poly1305 test: valid ones must seal and open to the published
/// bytes, invalid ones must fail to open, and nonces other than 24 bytes must be refused.
final class WycheproofXChaChaTests: XCTestCase {
    private struct File: Decodable {
        struct Group: Decodable {
            let ivSize: Int
            let keySize: Int
            let tagSize: Int
            let tests: [Test]
        }
        struct Test: Decodable {
            let tcId: Int
            let comment: String
            let flags: [String]
            let key, iv, aad, msg, ct, tag, result: String
        }
        let numberOfTests: Int
        let testGroups: [Group]
    }

    private func load() throws -> File {
        try Vectors.load(File.self, from: "wycheproof_xchacha20_poly1305_test.json")
    }

    func testFileHoldsAllPublishedTests() throws {
        let file = try load()
        let tests = file.testGroups.flatMap(\.tests)
        XCTAssertEqual(file.numberOfTests, 315)
        XCTAssertEqual(tests.count, file.numberOfTests)
        XCTAssertEqual(tests.filter { $0.result == "valid" }.count, 246)
        XCTAssertEqual(tests.filter { $0.result == "invalid" }.count, 69)
        XCTAssertEqual(file.testGroups.filter { $0.ivSize != 192 }.flatMap(\.tests).count, 9)
        for group in file.testGroups {
            XCTAssertEqual(group.keySize, 256)
            XCTAssertEqual(group.tagSize, 128)
        }
    }

    func testValidVectorsSealToPublishedCiphertextAndOpen() throws {
        var checked = 0
        for group in try load().testGroups where group.ivSize == 192 {
            for t in group.tests where t.result == "valid" {
                let key = try SecretBytes.copying([UInt8](hex: t.key))
                let nonce = [UInt8](hex: t.iv), aad = [UInt8](hex: t.aad)
                let sealed = try XChaCha20Poly1305.seal(
                    [UInt8](hex: t.msg), key: key, nonce: nonce, associatedData: aad)
                XCTAssertEqual(sealed.hex, t.ct + t.tag, "tcId \(t.tcId)")
                let opened = try XChaCha20Poly1305.open(
                    [UInt8](hex: t.ct + t.tag), key: key, nonce: nonce, associatedData: aad)
                XCTAssertEqual(opened.hex, t.msg, "tcId \(t.tcId)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 246)
    }

    func testInvalidVectorsFailToOpen() throws {
        var checked = 0
        for group in try load().testGroups where group.ivSize == 192 {
            for t in group.tests where t.result == "invalid" {
                let key = try SecretBytes.copying([UInt8](hex: t.key))
                XCTAssertThrowsCryptoError(
                    try XChaCha20Poly1305.open(
                        [UInt8](hex: t.ct + t.tag), key: key, nonce: [UInt8](hex: t.iv),
                        associatedData: [UInt8](hex: t.aad)),
                    .authenticationFailed, "tcId \(t.tcId): \(t.comment)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 60)
    }

    func testWrongNonceSizesAreRejectedWithInvalidLength() throws {
        var checked = 0
        for group in try load().testGroups where group.ivSize != 192 {
            for t in group.tests {
                XCTAssertEqual(t.result, "invalid", "tcId \(t.tcId)")
                XCTAssertTrue(t.flags.contains("InvalidNonceSize"), "tcId \(t.tcId)")
                let key = try SecretBytes.copying([UInt8](hex: t.key))
                let nonce = [UInt8](hex: t.iv), aad = [UInt8](hex: t.aad)
                XCTAssertEqual(nonce.count * 8, group.ivSize)
                XCTAssertThrowsInvalidLength(
                    try XChaCha20Poly1305.open([UInt8](hex: t.ct + t.tag), key: key, nonce: nonce, associatedData: aad),
                    what: "nonce", "tcId \(t.tcId)")
                XCTAssertThrowsInvalidLength(
                    try XChaCha20Poly1305.seal([UInt8](hex: t.msg), key: key, nonce: nonce, associatedData: aad),
                    what: "nonce", "tcId \(t.tcId)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 9)
    }
}
