import XCTest

@testable import DiaryCrypto

/// The capture seal (FORMAT.md §7.8): only the inbox key opens an item, only as its device's,
/// and the device that sealed it cannot open it.
final class CaptureSealTests: XCTestCase {
    private let prefix = Array("DIARYCAP-header".utf8)
    private let plaintext = Array("walked to the lake #outside".utf8)

    private func bytes(_ secret: SecretBytes) -> [UInt8] { secret.withUnsafeBytes { Array($0) } }

    func testTheInboxKeyOpensWhatTheDeviceSealed() throws {
        let (device, inbox) = (try X25519KeyPair.generate(), try X25519KeyPair.generate())
        let sealed = try CaptureSeal.seal(plaintext, device: device, inboxPublicKey: inbox.publicKey, prefix: prefix)
        XCTAssertNil(sealed.firstRange(of: plaintext), "the text is not in the sealed bytes")
        XCTAssertEqual(
            try CaptureSeal.open(sealed, prefix: prefix, inbox: inbox, devicePublicKey: device.publicKey), plaintext)
        let again = try CaptureSeal.seal(plaintext, device: device, inboxPublicKey: inbox.publicKey, prefix: prefix)
        XCTAssertNotEqual(Array(again.prefix(32)), Array(sealed.prefix(32)), "a fresh ephemeral key per item")
    }

    /// The device holds d and I_pub: neither X25519(d, e_pub) nor treating its own key as the
    /// inbox's gives K, because X25519(e, I) needs e (gone) or I's secret (never on the device).
    func testTheDeviceCannotOpenWhatItSent() throws {
        let (device, inbox) = (try X25519KeyPair.generate(), try X25519KeyPair.generate())
        let sealed = try CaptureSeal.seal(plaintext, device: device, inboxPublicKey: inbox.publicKey, prefix: prefix)
        XCTAssertThrowsError(
            try CaptureSeal.open(sealed, prefix: prefix, inbox: device, devicePublicKey: device.publicKey))
        let ephemeralPublicKey = Array(sealed.prefix(32))
        let guessed = try CaptureSeal.derive(
            first: try CaptureSeal.sharedSecret(device.secretKey, ephemeralPublicKey),
            second: try CaptureSeal.sharedSecret(device.secretKey, inbox.publicKey),
            ephemeralPublicKey: ephemeralPublicKey, devicePublicKey: device.publicKey, inboxPublicKey: inbox.publicKey)
        XCTAssertThrowsError(
            try XChaCha20Poly1305.open(
                Array(sealed[56...]), key: guessed, nonce: Array(sealed[32..<56]),
                associatedData: prefix + ephemeralPublicKey))
    }

    func testAnItemOpensOnlyAsItsDevicesAndOnlyUntouched() throws {
        let (device, inbox, other) = (
            try X25519KeyPair.generate(), try X25519KeyPair.generate(), try X25519KeyPair.generate()
        )
        let sealed = try CaptureSeal.seal(plaintext, device: device, inboxPublicKey: inbox.publicKey, prefix: prefix)
        XCTAssertThrowsError(
            try CaptureSeal.open(sealed, prefix: prefix, inbox: inbox, devicePublicKey: other.publicKey),
            "another device")
        let forged = try CaptureSeal.seal(plaintext, device: other, inboxPublicKey: inbox.publicKey, prefix: prefix)
        XCTAssertThrowsError(
            try CaptureSeal.open(forged, prefix: prefix, inbox: inbox, devicePublicKey: device.publicKey),
            "sealed without the device's secret key")
        XCTAssertThrowsError(
            try CaptureSeal.open(sealed, prefix: prefix + [0], inbox: inbox, devicePublicKey: device.publicKey),
            "the header changed")
        for at in [0, 31, 32, 55, 56, sealed.count - 1] {
            var tampered = sealed
            tampered[at] ^= 0x01
            XCTAssertThrowsError(
                try CaptureSeal.open(tampered, prefix: prefix, inbox: inbox, devicePublicKey: device.publicKey),
                "byte \(at)")
        }
        XCTAssertThrowsError(
            try CaptureSeal.open(
                Array(sealed.prefix(71)), prefix: prefix, inbox: inbox, devicePublicKey: device.publicKey))
    }

    func testALowOrderPublicKeyIsRefused() throws {
        let device = try X25519KeyPair.generate()
        for low in [[UInt8](repeating: 0, count: 32), [1] + [UInt8](repeating: 0, count: 31)] {
            XCTAssertThrowsError(try CaptureSeal.seal(plaintext, device: device, inboxPublicKey: low, prefix: prefix)) {
                XCTAssertEqual($0 as? CryptoError, .weakPublicKey)
            }
        }
    }

    /// K is BLAKE2b-256 of the context, both shared secrets and the three public keys, in that order.
    func testTheKeyIsTheDocumentedHash() throws {
        let (e, d, i) = (try X25519KeyPair.generate(), try X25519KeyPair.generate(), try X25519KeyPair.generate())
        let first = try CaptureSeal.sharedSecret(e.secretKey, i.publicKey)
        let second = try CaptureSeal.sharedSecret(d.secretKey, i.publicKey)
        XCTAssertEqual(bytes(first), bytes(try CaptureSeal.sharedSecret(i.secretKey, e.publicKey)))
        let key = try CaptureSeal.derive(
            first: first, second: second, ephemeralPublicKey: e.publicKey, devicePublicKey: d.publicKey,
            inboxPublicKey: i.publicKey)
        let expected = BLAKE2b.hash(
            Array("diary.capture.v1".utf8) + bytes(first) + bytes(second) + e.publicKey + d.publicKey + i.publicKey)
        XCTAssertEqual(bytes(key), expected)
        XCTAssertEqual(try X25519KeyPair(secretKey: d.secretKey).publicKey, d.publicKey)
    }
}
