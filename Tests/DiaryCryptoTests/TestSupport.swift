import Foundation
import XCTest

@testable import DiaryCrypto

/// Loading the published vectors bundled under `Vectors/` and small byte helpers shared by
/// the crypto tests.
enum Vectors {
    /// Decodes `Vectors/<name>` (bundled with `.copy("Vectors")`) as `T`.
    static func load<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        let directory = try XCTUnwrap(
            Bundle.module.url(forResource: "Vectors", withExtension: nil),
            "the Vectors resource directory is missing from the test bundle")
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase  // "password_hex" -> passwordHex
        return try decoder.decode(T.self, from: data)
    }
}

extension Array where Element == UInt8 {
    /// Bytes from a lowercase or uppercase hex string; traps on malformed hex, which would be
    /// a broken vector file rather than a behaviour under test.
    init(hex: String) {
        let digits = Array(hex.utf8)
        precondition(digits.count % 2 == 0, "odd-length hex string")
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: preconditionFailure("not a hex digit")
            }
        }
        self = stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }

    var hex: String { map { String(format: "%02x", $0) }.joined() }
}

extension SecretBytes {
    /// A guarded copy of `bytes` (test inputs only: the source array is public test data).
    static func copying(_ bytes: [UInt8]) throws -> SecretBytes {
        try SecretBytes(count: bytes.count) { $0.copyBytes(from: bytes) }
    }

    /// The secret as an ordinary array, so tests can compare it with a known answer.
    var exposedForTesting: [UInt8] { withUnsafeBytes { Array($0) } }
}

/// Asserts that `expression` throws exactly `expected`.
func XCTAssertThrowsCryptoError<T>(
    _ expression: @autoclosure () throws -> T,
    _ expected: CryptoError,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), message(), file: file, line: line) { error in
        XCTAssertEqual(error as? CryptoError, expected, message(), file: file, line: line)
    }
}

/// Asserts that `expression` throws `invalidLength` for `what`, whatever the numbers.
func XCTAssertThrowsInvalidLength<T>(
    _ expression: @autoclosure () throws -> T,
    what: String,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), message(), file: file, line: line) { error in
        guard case .invalidLength(let actualWhat, _, _)? = error as? CryptoError else {
            return XCTFail("expected invalidLength(\(what)), got \(error). \(message())", file: file, line: line)
        }
        XCTAssertEqual(actualWhat, what, message(), file: file, line: line)
    }
}

/// Asserts that `expression` throws `kdfParametersOutOfBounds`.
func XCTAssertThrowsOutOfBounds<T>(
    _ expression: @autoclosure () throws -> T,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), message(), file: file, line: line) { error in
        guard case .kdfParametersOutOfBounds? = error as? CryptoError else {
            return XCTFail("expected kdfParametersOutOfBounds, got \(error). \(message())", file: file, line: line)
        }
    }
}
