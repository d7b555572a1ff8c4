import XCTest

@testable import DiaryCrypto

/// XChaCha20-Poly1305 against the draft-irtf-cfrg-xchacha A.3.1 vector and libsodium's own KAT.
final class XChaChaKnownAnswerTests: XCTestCase {
    private struct DraftVector: Decodable {
        let key, nonce, aad, plaintext, ciphertext, tag: String
        let combinedCiphertextPlusTag: String
    }

    private struct LibsodiumFile: Decodable {
        struct Vector: Decodable {
            let name, key, nonce, aad, plaintext, ciphertext, tag, result: String
        }
        let vectors: [Vector]
    }

    func testSealReproducesDraftA31VectorWithTagAppended() throws {
        let v = try Vectors.load(DraftVector.self, from: "xchacha_draft_vector.json")
        let key = try SecretBytes.copying([UInt8](hex: v.key))
        let sealed = try XChaCha20Poly1305.seal(
            [UInt8](hex: v.plaintext), key: key, nonce: [UInt8](hex: v.nonce), associatedData: [UInt8](hex: v.aad))
        XCTAssertEqual(sealed.hex, v.ciphertext + v.tag)
        XCTAssertEqual(sealed.hex, v.combinedCiphertextPlusTag)
    }

    func testOpenRecoversDraftA31Plaintext() throws {
        let v = try Vectors.load(DraftVector.self, from: "xchacha_draft_vector.json")
        let key = try SecretBytes.copying([UInt8](hex: v.key))
        let opened = try XChaCha20Poly1305.open(
            [UInt8](hex: v.combinedCiphertextPlusTag), key: key,
            nonce: [UInt8](hex: v.nonce), associatedData: [UInt8](hex: v.aad))
        XCTAssertEqual(opened.hex, v.plaintext)
    }

    func testLibsodiumKnownAnswersSealAndOpen() throws {
        let file = try Vectors.load(LibsodiumFile.self, from: "libsodium_xchacha20poly1305_kat.json")
        XCTAssertEqual(file.vectors.count, 2, "the KAT file should hold the with-AD and no-AD vectors")
        for v in file.vectors {
            XCTAssertEqual(v.result, "valid", v.name)
            let key = try SecretBytes.copying([UInt8](hex: v.key))
            let nonce = [UInt8](hex: v.nonce), aad = [UInt8](hex: v.aad)
            let sealed = try XChaCha20Poly1305.seal(
                [UInt8](hex: v.plaintext), key: key, nonce: nonce, associatedData: aad)
            XCTAssertEqual(sealed.hex, v.ciphertext + v.tag, v.name)
            let opened = try XChaCha20Poly1305.open(
                [UInt8](hex: v.ciphertext + v.tag), key: key, nonce: nonce, associatedData: aad)
            XCTAssertEqual(opened.hex, v.plaintext, v.name)
        }
    }

    func testRandomNonceSealRoundTripsAndNeverRepeatsNonce() throws {
        let key = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
        let message = Array("dear diary".utf8)
        var nonces = Set<[UInt8]>()
        for _ in 0..<64 {
            let box = try XChaCha20Poly1305.seal(message, key: key, associatedData: [1, 2, 3])
            XCTAssertEqual(box.nonce.count, XChaCha20Poly1305.nonceByteCount)
            XCTAssertEqual(box.ciphertext.count, message.count + XChaCha20Poly1305.tagByteCount)
            XCTAssertNotEqual(
                Array(box.ciphertext.prefix(message.count)), message, "the plaintext must not show through")
            XCTAssertEqual(try XChaCha20Poly1305.open(box, key: key, associatedData: [1, 2, 3]), message)
            nonces.insert(box.nonce)
        }
        XCTAssertEqual(nonces.count, 64)
    }

    func testEmptyPlaintextAndEmptyAssociatedDataRoundTrip() throws {
        let key = try SecretBytes(randomCount: 32)
        let box = try XChaCha20Poly1305.seal([], key: key, associatedData: [])
        XCTAssertEqual(box.ciphertext.count, XChaCha20Poly1305.tagByteCount)
        XCTAssertEqual(try XChaCha20Poly1305.open(box, key: key, associatedData: []), [])
    }

    func testKeysOfWrongLengthAreRejected() throws {
        let nonce = [UInt8](repeating: 0, count: 24)
        for count in [0, 16, 31, 33, 64] {
            let key = try SecretBytes(randomCount: count)
            XCTAssertThrowsInvalidLength(
                try XChaCha20Poly1305.seal([1], key: key, nonce: nonce, associatedData: []), what: "key", "\(count)")
            XCTAssertThrowsInvalidLength(
                try XChaCha20Poly1305.open(
                    [UInt8](repeating: 0, count: 17), key: key, nonce: nonce, associatedData: []),
                what: "key", "\(count)")
        }
    }
}
