import Foundation
import XCTest

@testable import DiaryCrypto

/// Argon2id parameter bounds, inputs checked before work, Unicode normalisation and presets.
final class PassphraseKDFTests: XCTestCase {
    private let salt = [UInt8](repeating: 0x5A, count: PassphraseKDF.saltByteCount)

    private func secret(_ text: String) throws -> SecretBytes { try .copying(Array(text.utf8)) }

    private func derive(_ text: String, parameters: KDFParameters = .insecureForTesting) throws -> SecretBytes {
        try PassphraseKDF.deriveKey(passphrase: Passphrase.normalized(secret(text)), salt: salt, parameters: parameters)
    }

    func testHugeMemoryLimitIsRefusedInstantlyWithoutAllocating() throws {
        let start = Date()
        XCTAssertThrowsOutOfBounds(
            try PassphraseKDF.deriveKey(
                passphrase: secret("hunter2"), salt: salt, parameters: KDFParameters(opsLimit: 2, memLimit: 64 << 30)))
        XCTAssertThrowsOutOfBounds(
            try PassphraseKDF.deriveKey(
                passphrase: secret("hunter2"), salt: salt, parameters: KDFParameters(opsLimit: 2, memLimit: .max)))
        // Actually attempting 64 GiB would either fail slowly or take minutes.
        XCTAssertLessThan(Date().timeIntervalSince(start), 1.0)
    }

    func testOutOfBoundsParametersAreRefusedBeforeAnyOtherCheck() throws {
        // A crafted header is refused for its parameters even if every other input is bad too.
        for parameters in [
            KDFParameters(opsLimit: 0, memLimit: 65536), KDFParameters(opsLimit: 5, memLimit: 65536),
            KDFParameters(opsLimit: 1_000_000, memLimit: 65536), KDFParameters(opsLimit: 2, memLimit: 8191),
            KDFParameters(opsLimit: 2, memLimit: (1 << 30) + 1),
        ] {
            XCTAssertThrowsOutOfBounds(try parameters.validate(), "\(parameters)")
            XCTAssertThrowsOutOfBounds(
                try PassphraseKDF.deriveKey(passphrase: secret(""), salt: [], parameters: parameters), "\(parameters)")
        }
    }

    func testBoundaryParametersAreAccepted() throws {
        XCTAssertNoThrow(try KDFParameters(opsLimit: 1, memLimit: 8192).validate())
        XCTAssertNoThrow(try KDFParameters(opsLimit: 4, memLimit: 1 << 30).validate())
        XCTAssertEqual(try derive("x", parameters: KDFParameters(opsLimit: 1, memLimit: 8192)).count, 32)
    }

    func testSaltOfWrongLengthIsRejected() throws {
        for count in [0, 8, 15, 17, 32] {
            XCTAssertThrowsInvalidLength(
                try PassphraseKDF.deriveKey(
                    passphrase: secret("hunter2"), salt: [UInt8](repeating: 1, count: count),
                    parameters: .insecureForTesting), what: "salt", "\(count) bytes")
        }
    }

    func testOutputLengthOutsideBoundsIsRejected() throws {
        for count in [0, 15, 1025] {
            XCTAssertThrowsInvalidLength(
                try PassphraseKDF.deriveKey(
                    passphrase: secret("hunter2"), salt: salt, parameters: .insecureForTesting, outputCount: count),
                what: "derived key", "\(count)")
        }
        XCTAssertEqual(
            try PassphraseKDF.deriveKey(
                passphrase: secret("hunter2"), salt: salt, parameters: .insecureForTesting, outputCount: 16
            ).count, 16)
    }

    func testEmptyPassphraseIsRefused() throws {
        let empty = try SecretBytes(count: 0) { _ in }
        XCTAssertThrowsCryptoError(try Passphrase.normalized(empty), .emptyPassphrase)
        XCTAssertThrowsCryptoError(
            try PassphraseKDF.deriveKey(
                passphrase: empty, salt: salt, parameters: .insecureForTesting), .emptyPassphrase)
    }

    func testComposedAndDecomposedKoreanPassphrasesDeriveTheSameKey() throws {
        try assertSpellingsAgree("비밀번호 한글")
    }

    func testComposedAndDecomposedCafeDeriveTheSameKey() throws {
        try assertSpellingsAgree("café")
    }

    private func assertSpellingsAgree(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let composed = text.precomposedStringWithCanonicalMapping
        let decomposed = text.decomposedStringWithCanonicalMapping
        // Without this the test would pass for any implementation.
        XCTAssertNotEqual(
            Array(composed.utf8), Array(decomposed.utf8), "spellings should differ in bytes", file: file, line: line)
        XCTAssertEqual(
            try Passphrase.normalized(secret(decomposed)).exposedForTesting, Array(composed.utf8),
            "normalised form is NFC", file: file, line: line)
        XCTAssertEqual(try derive(composed), try derive(decomposed), file: file, line: line)
        // And normalisation is what makes them agree: the raw decomposed bytes give another key.
        let raw = try PassphraseKDF.deriveKey(
            passphrase: secret(decomposed), salt: salt, parameters: .insecureForTesting)
        XCTAssertNotEqual(raw, try derive(composed), file: file, line: line)
    }

    func testASCIIPassphraseIsUnchangedByNormalising() throws {
        let text = "correct horse battery staple"
        XCTAssertEqual(try Passphrase.normalized(secret(text)).exposedForTesting, Array(text.utf8))
    }

    func testInvalidUTF8PassphraseIsRefused() throws {
        let invalid: [[UInt8]] = [
            [0xFF, 0xFE], [0x61, 0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x63, 0x61, 0x66, 0xE9],
        ]
        for bytes in invalid {
            XCTAssertThrowsCryptoError(try Passphrase.normalized(.copying(bytes)), .passphraseNotUTF8, bytes.hex)
        }
    }

    func testDerivationIsDeterministicAndDependsOnSaltAndPassphrase() throws {
        let a = try derive("hunter2")
        XCTAssertEqual(a, try derive("hunter2"))
        XCTAssertNotEqual(a, try derive("hunter3"))
        let otherSalt = try PassphraseKDF.deriveKey(
            passphrase: secret("hunter2"), salt: PassphraseKDF.randomSalt(), parameters: .insecureForTesting)
        XCTAssertNotEqual(a, otherSalt)
        XCTAssertNotEqual(a, try derive("hunter2", parameters: KDFParameters(opsLimit: 2, memLimit: 64 * 1024)))
    }

    func testPresetsMatchLibsodium() throws {
        XCTAssertEqual(KDFParameters.interactive, KDFParameters(opsLimit: 2, memLimit: 64 << 20))
        XCTAssertEqual(KDFParameters.moderate, KDFParameters(opsLimit: 3, memLimit: 256 << 20))
        XCTAssertEqual(KDFParameters.sensitive, KDFParameters(opsLimit: 4, memLimit: 1 << 30))
        for preset in [KDFParameters.interactive, .moderate, .sensitive, .insecureForTesting] {
            XCTAssertNoThrow(try preset.validate(), "\(preset)")
        }
    }

    func testOnlyModerateAndAboveCountAsDefaultStrength() {
        XCTAssertTrue(KDFParameters.insecureForTesting.isBelowDefault)
        XCTAssertTrue(KDFParameters.interactive.isBelowDefault)
        XCTAssertFalse(KDFParameters.moderate.isBelowDefault)
        XCTAssertFalse(KDFParameters.sensitive.isBelowDefault)
    }

    func testRandomSaltsHaveTheRightLengthAndDiffer() {
        let a = PassphraseKDF.randomSalt(), b = PassphraseKDF.randomSalt()
        XCTAssertEqual(a.count, 16)
        XCTAssertNotEqual(a, b)
    }
}
