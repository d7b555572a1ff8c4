import XCTest

@testable import DiaryCrypto

/// `SecretBytes.deriveSubkey` against libsodium's `crypto_kdf` test vectors, and its refusals.
final class SubkeyKnownAnswerTests: XCTestCase {
    private struct File: Decodable {
        struct Vector: Decodable {
            let masterKey: String
            let context: String
            let subkeyId: UInt64
            let subkeyLen: Int
            let subkey: String
        }
        let vectors: [Vector]
    }

    private let master = [UInt8](hex: "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")

    func testLibsodiumVectorsDeriveThePublishedSubkeys() throws {
        let vectors = try Vectors.load(File.self, from: "kdf_blake2b_vectors.json").vectors
        XCTAssertEqual(vectors.count, 59)
        for v in vectors {
            let master = try SecretBytes.copying([UInt8](hex: v.masterKey))
            let subkey = try master.deriveSubkey(id: v.subkeyId, context: SubkeyContext(v.context), count: v.subkeyLen)
            XCTAssertEqual(subkey.count, v.subkeyLen)
            XCTAssertEqual(subkey.exposedForTesting.hex, v.subkey, "id \(v.subkeyId), length \(v.subkeyLen)")
        }
    }

    func testSubkeyLengthsOutside16To64AreRejected() throws {
        // The range libsodium's kdf test walks: 0...128, valid only within 16...64.
        let key = try SecretBytes.copying(master)
        let context = try SubkeyContext("KDF test")
        for count in Array(0..<16) + Array(65...128) {
            XCTAssertThrowsInvalidLength(
                try key.deriveSubkey(id: 0, context: context, count: count), what: "subkey", "\(count)")
        }
    }

    func testMasterKeyMustBe32Bytes() throws {
        let context = try SubkeyContext("KDF test")
        for count in [0, 16, 31, 33, 64] {
            XCTAssertThrowsInvalidLength(
                try SecretBytes(randomCount: count).deriveSubkey(id: 0, context: context), what: "master key",
                "\(count)")
        }
    }

    func testContextMustBeExactlyEightBytes() {
        for text in ["", "KDF tes", "KDF test!", "entries-v1"] {
            XCTAssertThrowsCryptoError(try SubkeyContext(text), .invalidSubkeyContext, text)
        }
        // Counted in UTF-8 bytes, not characters: "caféxyz" is 7 characters, 8 bytes.
        XCTAssertEqual(try SubkeyContext("caféxyz").bytes.count, 8)
        XCTAssertThrowsCryptoError(try SubkeyContext("caféxyzw"), .invalidSubkeyContext)
    }

    func testDifferentIdsAndContextsGiveIndependentKeys() throws {
        let key = try SecretBytes.copying(master)
        let entries = try SubkeyContext("entries_"), index = try SubkeyContext("index___")
        let a = try key.deriveSubkey(id: 1, context: entries)
        XCTAssertEqual(a, try key.deriveSubkey(id: 1, context: entries))
        XCTAssertNotEqual(a, try key.deriveSubkey(id: 2, context: entries))
        XCTAssertNotEqual(a, try key.deriveSubkey(id: 1, context: index))
        XCTAssertNotEqual(a.exposedForTesting, master, "a subkey is not the master key")
    }
}
