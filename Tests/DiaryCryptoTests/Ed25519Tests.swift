import Foundation
import XCTest

@testable import DiaryCrypto

/// Ed25519 against RFC 8032 §7.1, and the refusals a verifier of hostile files depends on.
final class Ed25519Tests: XCTestCase {
    private struct VectorFile: Decodable {
        var source: String
        var tests: [Vector]
    }

    private struct Vector: Decodable {
        var name: String
        var secretKey: String
        var publicKey: String
        var message: String
        var signature: String
    }

    private func vectors() throws -> [Vector] {
        let file = try Vectors.load(VectorFile.self, from: "ed25519_rfc8032_vectors.json")
        XCTAssertTrue(file.source.contains("RFC 8032"))
        return file.tests
    }

    func testRFC8032VectorsSignAndVerify() throws {
        let tests = try vectors()
        XCTAssertEqual(tests.map(\.name), ["TEST 1", "TEST 2", "TEST 3", "TEST 1024", "TEST SHA(abc)"])
        XCTAssertEqual([UInt8](hex: tests[3].message).count, 1023, "TEST 1024's message is 1023 bytes")
        for test in tests {
            let pair = try SigningKeyPair(seed: .copying([UInt8](hex: test.secretKey)))
            XCTAssertEqual(pair.publicKey.hex, test.publicKey, test.name)
            let message = [UInt8](hex: test.message)
            XCTAssertEqual(try Ed25519.sign(message, secretKey: pair.secretKey).hex, test.signature, test.name)
            XCTAssertTrue(
                Ed25519.verify([UInt8](hex: test.signature), message: message, publicKey: pair.publicKey), test.name)
        }
    }

    func testAnyFlippedBitInMessageSignatureOrKeyFails() throws {
        for test in try vectors() where !test.message.isEmpty {
            let message = [UInt8](hex: test.message)
            let signature = [UInt8](hex: test.signature)
            let key = [UInt8](hex: test.publicKey)
            for bit in [0, 7, message.count * 8 - 1] {
                var bad = message
                bad[bit / 8] ^= 1 << (bit % 8)
                XCTAssertFalse(
                    Ed25519.verify(signature, message: bad, publicKey: key), "\(test.name) message bit \(bit)")
            }
            for bit in stride(from: 0, to: 512, by: 37) {
                var bad = signature
                bad[bit / 8] ^= 1 << (bit % 8)
                XCTAssertFalse(
                    Ed25519.verify(bad, message: message, publicKey: key), "\(test.name) signature bit \(bit)")
            }
            for bit in stride(from: 0, to: 256, by: 29) {
                var bad = key
                bad[bit / 8] ^= 1 << (bit % 8)
                XCTAssertFalse(
                    Ed25519.verify(signature, message: message, publicKey: bad), "\(test.name) key bit \(bit)")
            }
            XCTAssertFalse(Ed25519.verify(signature + [0], message: message, publicKey: key))
            XCTAssertFalse(Ed25519.verify(signature, message: message + [0], publicKey: key))
            XCTAssertFalse(Ed25519.verify(Array(signature.dropLast()), message: message, publicKey: key))
            XCTAssertFalse(Ed25519.verify(signature, message: message, publicKey: Array(key.dropLast())))
        }
    }

    func testAGeneratedPairSignsAndAnotherPairsKeyDoesNotVerify() throws {
        let pair = try SigningKeyPair.generate()
        let other = try SigningKeyPair.generate()
        XCTAssertEqual(pair.publicKey.count, 32)
        XCTAssertEqual(pair.secretKey.count, 64)
        XCTAssertNotEqual(pair.publicKey, other.publicKey)
        let message = Array("diary.sync.record.v2\0 hello".utf8)
        let signature = try Ed25519.sign(message, secretKey: pair.secretKey)
        XCTAssertTrue(Ed25519.verify(signature, message: message, publicKey: pair.publicKey))
        XCTAssertFalse(Ed25519.verify(signature, message: message, publicKey: other.publicKey))
    }

    func testAStoredSecretKeyRoundTripsAndADamagedOneIsRefused() throws {
        let pair = try SigningKeyPair.generate()
        let restored = try SigningKeyPair(secretKey: .copying(pair.secretKey.exposedForTesting))
        XCTAssertEqual(restored.publicKey, pair.publicKey)
        XCTAssertEqual(restored.secretKey, pair.secretKey)
        var damaged = pair.secretKey.exposedForTesting
        damaged[40] ^= 1  // the public half no longer matches the seed
        XCTAssertThrowsCryptoError(try SigningKeyPair(secretKey: .copying(damaged)), .invalidSigningKey)
        XCTAssertThrowsInvalidLength(
            try SigningKeyPair(secretKey: .copying([UInt8](repeating: 1, count: 32))), what: "signing key")
        XCTAssertThrowsInvalidLength(
            try SigningKeyPair(seed: .copying([UInt8](repeating: 1, count: 64))), what: "signing seed")
        XCTAssertThrowsInvalidLength(
            try Ed25519.sign([1], secretKey: .copying([UInt8](repeating: 1, count: 32))), what: "signing key")
    }

    func testTheFingerprintIsTheHashsFirstEightBytesInGroupsOfFour() throws {
        let key = [UInt8](hex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let hash = BLAKE2b.hash(key).prefix(8).map { String(format: "%02x", $0) }.joined()
        let expected = stride(from: 0, to: 16, by: 4).map { offset in
            String(hash.dropFirst(offset).prefix(4))
        }.joined(separator: " ")
        XCTAssertEqual(Ed25519.fingerprint(key), expected)
        XCTAssertEqual(Ed25519.fingerprint(key).count, 19)
    }
}

/// Keyed BLAKE2b against the BLAKE2 reference known answers (BLAKE2/BLAKE2
/// `testvectors/blake2b-kat.txt`: key 00…3f, input 00…, 64-byte output).
final class KeyedBLAKE2bTests: XCTestCase {
    func testReferenceKnownAnswers() throws {
        let key = try SecretBytes.copying((0..<64).map(UInt8.init))
        XCTAssertEqual(
            try BLAKE2b.keyedHash([], key: key, outputCount: 64).hex,
            "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
                + "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568")
        XCTAssertEqual(
            try BLAKE2b.keyedHash([0], key: key, outputCount: 64).hex,
            "961f6dd1e4dd30f63901690c512e78e4b45e4742ed197c3c5e45c549fd25f2e4"
                + "187b0bc9fe30492b16b0d0bc4ef9b0f34c7003fac09a5ef1532e69430234cebd")
    }

    func testTheKeyMattersAndBadKeyLengthsAreRefused() throws {
        let message = Array("diary.sync.key-id.v2".utf8)
        let a = try BLAKE2b.keyedHash(message, key: .copying([UInt8](repeating: 1, count: 32)))
        let b = try BLAKE2b.keyedHash(message, key: .copying([UInt8](repeating: 2, count: 32)))
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, BLAKE2b.hash(message))
        XCTAssertNoThrow(try BLAKE2b.keyedHash(message, key: .copying([UInt8](repeating: 1, count: 16))))
        XCTAssertThrowsInvalidLength(
            try BLAKE2b.keyedHash(message, key: .copying([UInt8](repeating: 1, count: 15))), what: "BLAKE2b key")
        XCTAssertThrowsInvalidLength(
            try BLAKE2b.keyedHash(message, key: .copying([UInt8](repeating: 1, count: 65))), what: "BLAKE2b key")
    }
}
