import XCTest

@testable import DiaryCrypto

/// `SecretBytes` never shows its bytes, compares by content, and leaves no copy behind.
final class SecretBytesTests: XCTestCase {
    /// Bytes that would be easy to spot in any rendering: DE AD BE EF…
    private let pattern: [UInt8] = Array(repeating: [0xDE, 0xAD, 0xBE, 0xEF], count: 8).flatMap { $0 }

    /// Every way the pattern's bytes could appear in text.
    private func assertShowsNoBytes(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let lower = text.lowercased()
        for needle in ["dead", "beef", "de ad", "0xde", "222", "173", "190", "239", "3q2+7w"] {
            XCTAssertFalse(lower.contains(needle), "\"\(text)\" shows \(needle)", file: file, line: line)
        }
    }

    func testDescriptionAndDebugDescriptionAreRedacted() throws {
        let secret = try SecretBytes.copying(pattern)
        for text in [secret.description, secret.debugDescription, "\(secret)", String(reflecting: secret)] {
            XCTAssertTrue(text.contains("redacted"), text)
            XCTAssertTrue(text.contains("32 bytes"), text)
            assertShowsNoBytes(text)
        }
    }

    func testDumpShowsOnlyTheCount() throws {
        let secret = try SecretBytes.copying(pattern)
        var output = ""
        dump(secret, to: &output)
        XCTAssertTrue(output.contains("count: 32"), output)
        assertShowsNoBytes(output)
        let children = Mirror(reflecting: secret).children
        XCTAssertEqual(children.map(\.label), ["count"])
        // Nested in another value, the secret is still redacted.
        var nested = ""
        dump(["key": secret], to: &nested)
        assertShowsNoBytes(nested)
    }

    func testEqualityComparesContentsNotIdentity() throws {
        let a = try SecretBytes.copying(pattern)
        XCTAssertEqual(a, a)
        XCTAssertEqual(a, try SecretBytes.copying(pattern))
        var first = pattern, last = pattern
        first[0] ^= 1
        last[pattern.count - 1] ^= 1
        XCTAssertNotEqual(a, try SecretBytes.copying(first), "differs in the first byte")
        XCTAssertNotEqual(a, try SecretBytes.copying(last), "differs in the last byte")
        XCTAssertNotEqual(a, try SecretBytes.copying(Array(pattern.dropLast())), "a prefix is not equal")
        XCTAssertEqual(try SecretBytes.copying([]), try SecretBytes.copying([]))
        XCTAssertTrue(a.constantTimeEquals(try SecretBytes.copying(pattern)))
        XCTAssertFalse(a.constantTimeEquals(try SecretBytes.copying(first)))
    }

    func testConsumingInitZeroesTheCallersStorage() throws {
        var source = [UInt8](repeating: 0xA5, count: 64)
        let storage = source.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress!) }
        let secret = try SecretBytes(consuming: &source)
        XCTAssertEqual(secret.exposedForTesting, [UInt8](repeating: 0xA5, count: 64))
        XCTAssertTrue(source.isEmpty)
        // The storage that held the secret is still the caller's (capacity kept), and zeroed.
        withExtendedLifetime(source) {
            let current = source.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
            // Read the old storage only while the array provably still owns it.
            guard current == storage else { return XCTFail("the secret's storage was released, not kept zeroed") }
            XCTAssertTrue(UnsafeRawBufferPointer(start: storage, count: 64).allSatisfy { $0 == 0 })
        }
    }

    func testSecureZeroOverwritesInPlace() {
        var bytes = pattern
        secureZero(&bytes)
        XCTAssertEqual(bytes, [UInt8](repeating: 0, count: pattern.count))
    }

    func testSliceCopiesTheRange() throws {
        let secret = try SecretBytes.copying(pattern)
        XCTAssertEqual(try secret.slice(1..<5).exposedForTesting, [0xAD, 0xBE, 0xEF, 0xDE])
        XCTAssertEqual(try secret.slice(0..<32), secret)
        XCTAssertEqual(try secret.slice(32..<32).count, 0)
        XCTAssertFalse(try secret.slice(0..<32) === secret, "a slice is a new guarded copy")
    }

    func testRandomSecretsHaveTheRequestedCountAndDiffer() throws {
        let a = try SecretBytes(randomCount: 32), b = try SecretBytes(randomCount: 32)
        XCTAssertEqual(a.count, 32)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(try SecretBytes(randomCount: 0).count, 0)
    }

    func testFailingInitializerPropagatesItsError() {
        struct Refused: Error {}
        XCTAssertThrowsError(try SecretBytes(count: 8) { _ in throw Refused() }) { XCTAssertTrue($0 is Refused) }
    }

    func testPublicConstantTimeEqualsComparesByteStrings() {
        XCTAssertTrue(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(constantTimeEquals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(constantTimeEquals([1, 2, 3], [1, 2]))
        XCTAssertTrue(constantTimeEquals([], []))
    }
}
