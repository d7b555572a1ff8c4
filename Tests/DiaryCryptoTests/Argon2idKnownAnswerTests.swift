import XCTest

@testable import DiaryCrypto

/// `PassphraseKDF.deriveKey` against argon2-cffi/PyNaCl answers and libsodium's own
/// `pwhash_argon2id` KATs. Vectors outside our bounds must be refused, not computed.
///
/// Every vector in the file uses at most 64 MiB, so none is skipped for speed.
final class Argon2idKnownAnswerTests: XCTestCase {
    private struct File: Decodable {
        let primaryVectors3264: [Vector]
        let libsodiumKatOddOutlen: [Vector]
        let errorCases: [Vector]
    }
    private struct Vector: Decodable {
        let name: String
        let passwordHex: String
        let saltHex: String
        let opslimit: UInt64
        let memlimit: UInt64
        let outlen: Int
        let expectedHex: String?
        let expected: String?
        let passwordUtf8: String?
    }

    // The bounds the design states, written out here rather than read from KDFParameters so
    // that a change to the bounds shows up as a failing test.
    private let opsBounds: ClosedRange<UInt64> = 1...4
    private let memBounds: ClosedRange<UInt64> = 8192...(1 << 30)

    private func load() throws -> File { try Vectors.load(File.self, from: "argon2id_vectors.json") }

    private func derive(_ v: Vector) throws -> SecretBytes {
        try PassphraseKDF.deriveKey(
            passphrase: .copying([UInt8](hex: v.passwordHex)), salt: [UInt8](hex: v.saltHex),
            parameters: KDFParameters(opsLimit: v.opslimit, memLimit: v.memlimit), outputCount: v.outlen)
    }

    func testPrimaryVectorsDeriveThePublishedKeys() throws {
        var checked = 0
        for v in try load().primaryVectors3264 where !v.passwordHex.isEmpty {
            let expected = try XCTUnwrap(v.expectedHex, v.name)
            XCTAssertEqual(try derive(v).exposedForTesting.hex, expected, v.name)
            checked += 1
        }
        XCTAssertEqual(checked, 8)
    }

    func testEmptyPasswordVectorIsRefusedByDesign() throws {
        // libsodium accepts an empty password; diary does not, so this answer is not computed.
        let empty = try load().primaryVectors3264.filter { $0.passwordHex.isEmpty }
        XCTAssertEqual(empty.map(\.name), ["memlimit_min_empty_pw"])
        for v in empty { XCTAssertThrowsCryptoError(try derive(v), .emptyPassphrase, v.name) }
    }

    func testLibsodiumOddLengthVectorsDeriveOrAreRefusedByBounds() throws {
        var derived = 0, refused = 0
        for v in try load().libsodiumKatOddOutlen {
            XCTAssertFalse(v.outlen == 32 || v.outlen == 64, "\(v.name) should have an unusual length")
            if opsBounds.contains(v.opslimit) && memBounds.contains(v.memlimit) {
                let key = try derive(v)
                XCTAssertEqual(key.count, v.outlen, v.name)
                XCTAssertEqual(key.exposedForTesting.hex, v.expectedHex, v.name)
                derived += 1
            } else {
                XCTAssertThrowsOutOfBounds(try derive(v), v.name)
                refused += 1
            }
        }
        // libsodium_tv[0] asks for 5 passes, above our cap of 4.
        XCTAssertEqual(derived, 8)
        XCTAssertEqual(refused, 1)
    }

    func testErrorCasesAreRefusedWithTheRightError() throws {
        let cases = try load().errorCases
        XCTAssertEqual(cases.count, 4)
        for v in cases {
            XCTAssertEqual(v.expected, "error", v.name)
            if !opsBounds.contains(v.opslimit) || !memBounds.contains(v.memlimit) {
                XCTAssertThrowsOutOfBounds(try derive(v), v.name)
            } else {
                XCTAssertLessThan(v.outlen, 16, v.name)
                XCTAssertThrowsInvalidLength(try derive(v), what: "derived key", v.name)
            }
        }
    }

    func testDecomposedSpellingOfUTF8VectorDerivesTheSameKeyAfterNormalising() throws {
        // "pässwörd 日記 🔐" is stored NFC; typed decomposed, normalisation must recover it.
        let v = try XCTUnwrap(try load().primaryVectors3264.first { $0.name == "utf8_pw_1MiB" })
        let typed = try XCTUnwrap(v.passwordUtf8).decomposedStringWithCanonicalMapping
        XCTAssertNotEqual(Array(typed.utf8).hex, v.passwordHex, "the NFD spelling must differ in bytes")
        var raw = Array(typed.utf8)
        let passphrase = try Passphrase.normalized(SecretBytes(consuming: &raw))
        let key = try PassphraseKDF.deriveKey(
            passphrase: passphrase, salt: [UInt8](hex: v.saltHex),
            parameters: KDFParameters(opsLimit: v.opslimit, memLimit: v.memlimit), outputCount: v.outlen)
        XCTAssertEqual(key.exposedForTesting.hex, v.expectedHex)
    }
}
