import Foundation
import XCTest

@testable import DiaryCrypto

/// X25519 sealed boxes: the key pair a seed gives (against PyNaCl's), sealing and opening,
/// and the refusals a reader of hostile headers depends on.
final class SealedBoxTests: XCTestCase {
    private func seed(_ bytes: [UInt8]) throws -> SecretBytes {
        var copy = bytes
        return try SecretBytes(consuming: &copy)
    }

    func testSeedGivesTheKeyPairLibsodiumGives() throws {
        let pair = try BoxKeyPair(seed: seed(Array(0..<32)))
        // PyNaCl: nacl.bindings.crypto_box_seed_keypair(bytes(range(32))).
        XCTAssertEqual(
            pair.publicKey.map { String(format: "%02x", $0) }.joined(),
            "4701d08488451f545a409fb58ae3e58581ca40ac3f7f114698cd71deac73ca01")
        XCTAssertEqual(try BoxKeyPair(seed: seed(Array(0..<32))).publicKey, pair.publicKey)
    }

    func testSealedSecretOpensOnlyWithItsKeyPair() throws {
        let pair = try BoxKeyPair(seed: SecretBytes(randomCount: 32))
        let other = try BoxKeyPair(seed: SecretBytes(randomCount: 32))
        let secret = try seed(Array(repeating: 7, count: 52))
        let box = try SealedBox.seal(secret, to: pair.publicKey)
        XCTAssertEqual(box.count, 52 + SealedBox.overhead)
        XCTAssertTrue(try SealedBox.open(box, with: pair) == secret)
        XCTAssertThrowsError(try SealedBox.open(box, with: other)) {
            XCTAssertEqual($0 as? CryptoError, .authenticationFailed)
        }
        XCTAssertNotEqual(try SealedBox.seal(secret, to: pair.publicKey), box, "a fresh ephemeral key each time")
    }

    func testEveryAlteredByteIsRefused() throws {
        let pair = try BoxKeyPair(seed: SecretBytes(randomCount: 32))
        let box = try SealedBox.seal(try seed(Array(repeating: 1, count: 20)), to: pair.publicKey)
        for index in box.indices {
            var altered = box
            altered[index] ^= 0x01
            XCTAssertThrowsError(try SealedBox.open(altered, with: pair), "byte \(index)")
        }
        XCTAssertThrowsError(try SealedBox.open(Array(box.prefix(47)), with: pair))
    }

    func testWrongLengthsAreRefused() throws {
        XCTAssertThrowsError(try BoxKeyPair(seed: SecretBytes(randomCount: 31)))
        XCTAssertThrowsError(try SealedBox.seal(try seed([1]), to: Array(repeating: 9, count: 31)))
    }
}
