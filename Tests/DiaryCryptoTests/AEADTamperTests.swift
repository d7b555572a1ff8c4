import XCTest

@testable import DiaryCrypto

/// Any change to a sealed object is detected, and a failed open yields nothing.
final class AEADTamperTests: XCTestCase {
    private var key: SecretBytes!
    private let plaintext = Array(
        "2024-03-01: the tamper test entry, long enough to span blocks of ChaCha20 state".utf8)
    private let associatedData = Array("vault-id|entry-uuid|entry|gen-1".utf8)
    private var box: XChaCha20Poly1305.SealedBox!

    override func setUpWithError() throws {
        key = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
        box = try XChaCha20Poly1305.seal(plaintext, key: key, associatedData: associatedData)
        // The untampered box must open, or every rejection below would prove nothing.
        XCTAssertEqual(try XChaCha20Poly1305.open(box, key: key, associatedData: associatedData), plaintext)
    }

    /// Every way of flipping exactly one bit of `bytes`.
    private func singleBitFlips(of bytes: [UInt8]) -> [(bit: Int, flipped: [UInt8])] {
        (0..<bytes.count * 8).map { bit in
            var copy = bytes
            copy[bit / 8] ^= 1 << (bit % 8)
            return (bit, copy)
        }
    }

    func testEveryBitFlipOfCiphertextIsRejected() throws {
        let body = Array(box.ciphertext.dropLast(XChaCha20Poly1305.tagByteCount))
        let tag = Array(box.ciphertext.suffix(XChaCha20Poly1305.tagByteCount))
        for (bit, flipped) in singleBitFlips(of: body) {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(flipped + tag, key: key, nonce: box.nonce, associatedData: associatedData),
                .authenticationFailed, "ciphertext bit \(bit)")
        }
    }

    func testEveryBitFlipOfTagIsRejected() throws {
        let body = Array(box.ciphertext.dropLast(XChaCha20Poly1305.tagByteCount))
        let tag = Array(box.ciphertext.suffix(XChaCha20Poly1305.tagByteCount))
        XCTAssertEqual(singleBitFlips(of: tag).count, 128)
        for (bit, flipped) in singleBitFlips(of: tag) {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(body + flipped, key: key, nonce: box.nonce, associatedData: associatedData),
                .authenticationFailed, "tag bit \(bit)")
        }
    }

    func testEveryBitFlipOfNonceIsRejected() throws {
        XCTAssertEqual(singleBitFlips(of: box.nonce).count, 192)
        for (bit, flipped) in singleBitFlips(of: box.nonce) {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(box.ciphertext, key: key, nonce: flipped, associatedData: associatedData),
                .authenticationFailed, "nonce bit \(bit)")
        }
    }

    func testEveryBitFlipOfAssociatedDataIsRejected() throws {
        for (bit, flipped) in singleBitFlips(of: associatedData) {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(box.ciphertext, key: key, nonce: box.nonce, associatedData: flipped),
                .authenticationFailed, "associated data bit \(bit)")
        }
    }

    func testAddedOrRemovedAssociatedDataIsRejected() throws {
        for changed in [[], associatedData + [0], Array(associatedData.dropLast())] {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(box, key: key, associatedData: changed), .authenticationFailed)
        }
    }

    func testWrongKeyIsRejected() throws {
        let other = try SecretBytes(randomCount: XChaCha20Poly1305.keyByteCount)
        XCTAssertThrowsCryptoError(
            try XChaCha20Poly1305.open(box, key: other, associatedData: associatedData), .authenticationFailed)
        // A key one bit away from the right one is as wrong as a random one.
        var nearBytes = key.exposedForTesting
        nearBytes[31] ^= 0x80
        let near = try SecretBytes(consuming: &nearBytes)
        XCTAssertThrowsCryptoError(
            try XChaCha20Poly1305.open(box, key: near, associatedData: associatedData), .authenticationFailed)
    }

    func testCiphertextShorterThanTagIsRejectedBeforeLibsodium() throws {
        // libsodium would answer authenticationFailed; invalidLength shows our own check ran first.
        for count in 0..<XChaCha20Poly1305.tagByteCount {
            XCTAssertThrowsInvalidLength(
                try XChaCha20Poly1305.open(
                    Array(box.ciphertext.prefix(count)), key: key, nonce: box.nonce, associatedData: associatedData),
                what: "ciphertext", "\(count) bytes")
        }
    }

    func testTruncatedOrExtendedCiphertextNeverYieldsPartialPlaintext() throws {
        // Every prefix long enough to hold a tag, and the box with bytes appended, must fail
        // as a whole: AEAD open is all or nothing.
        for count in XChaCha20Poly1305.tagByteCount..<box.ciphertext.count {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(
                    Array(box.ciphertext.prefix(count)), key: key, nonce: box.nonce, associatedData: associatedData),
                .authenticationFailed, "prefix of \(count) bytes")
        }
        for extra in [[0], [0xFF], [UInt8](repeating: 0, count: 16)] as [[UInt8]] {
            XCTAssertThrowsCryptoError(
                try XChaCha20Poly1305.open(
                    box.ciphertext + extra, key: key, nonce: box.nonce, associatedData: associatedData),
                .authenticationFailed)
        }
    }

    func testSwappedCiphertextsUnderTheirOwnAssociatedDataAreRejected() throws {
        // The identity binding the vault relies on: a sealed entry moved to another entry's
        // slot (another associated data) does not open.
        let otherAD = Array("vault-id|other-uuid|entry|gen-1".utf8)
        let other = try XChaCha20Poly1305.seal(Array("another entry".utf8), key: key, associatedData: otherAD)
        XCTAssertThrowsCryptoError(
            try XChaCha20Poly1305.open(other, key: key, associatedData: associatedData), .authenticationFailed)
        XCTAssertThrowsCryptoError(
            try XChaCha20Poly1305.open(box, key: key, associatedData: otherAD), .authenticationFailed)
    }
}
