import DiaryTestSupport
import XCTest

@testable import DiaryCrypto

/// `Shamir` on its own: the field, any K of N rebuild, fewer do not, and the refusals.
/// ShamirLibgfshareTests checks the same shares against libgfshare.
final class ShamirTests: XCTestCase {
    /// The bitwise multiply against log and exp tables built from the generator 2, for every
    /// pair of elements.
    func testTheMultiplyIsTheFieldOf0x11DForEveryPair() {
        var exp = [UInt8](repeating: 0, count: 510)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            exp[power + 255] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        XCTAssertEqual(Set(exp[0..<255]).count, 255, "2 generates the group")
        for a in 0..<256 {
            for b in 0..<256 {
                let expected = a == 0 || b == 0 ? 0 : exp[log[a] + log[b]]
                XCTAssertEqual(GF256.multiply(UInt8(a), UInt8(b)), expected, "\(a)·\(b)")
            }
        }
        for a in UInt8(1)...255 { XCTAssertEqual(GF256.multiply(a, GF256.inverse(a)), 1, "\(a)") }
        XCTAssertEqual(GF256.inverse(0), 0)
    }

    func testAnyThresholdOfTheSharesRebuildsTheSecretAndFewerDoNot() throws {
        for (threshold, count) in [(2, 2), (2, 3), (3, 5), (4, 6), (5, 5), (2, 16), (16, 16)] {
            let secret = try SecretBytes(randomCount: 32)
            let shares = try Shamir.split(secret: secret, threshold: threshold, count: count)
            XCTAssertEqual(shares.map(\.x), (1...count).map { UInt8($0) })
            XCTAssertTrue(shares.allSatisfy { $0.y.count == 32 })
            for subset in Self.someSubsets(of: count, size: threshold) {
                let rebuilt = try Shamir.combine(subset.map { shares[$0] })
                XCTAssertEqual(rebuilt, secret, "\(threshold) of \(count): \(subset)")
            }
            for subset in Self.someSubsets(of: count, size: threshold - 1) where !subset.isEmpty {
                let rebuilt = try Shamir.combine(subset.map { shares[$0] })
                XCTAssertNotEqual(rebuilt, secret, "\(threshold - 1) of \(count) must not rebuild: \(subset)")
            }
            // More than enough also works: the extra points lie on the same polynomial.
            XCTAssertEqual(try Shamir.combine(shares.reversed()), secret)
        }
    }

    /// For K = 2, one share says nothing about a secret byte: whatever the secret, every value
    /// of the share is reached by exactly one coefficient.
    func testOneShareOfTwoFitsEverySecretEqually() throws {
        for x in [UInt8(1), 2, 77, 255] {
            for secretByte in [UInt8(0), 1, 0x5A, 0xFF] {
                var seen = Set<UInt8>()
                for coefficient in 0...255 {
                    let share = try Shamir.split(
                        secret: Self.secret([secretByte]), coefficients: Self.secret([UInt8(coefficient)]), xs: [x])
                    seen.insert(share[0].y.withUnsafeBytes { $0[0] })
                }
                XCTAssertEqual(seen.count, 256, "x \(x), secret \(secretByte)")
            }
        }
    }

    /// Rows of coefficients are the highest degree first: P(x) = c2·x² + c1·x + s.
    func testTheCoefficientRowsAreHighestDegreeFirst() throws {
        let (c2, c1, s): (UInt8, UInt8, UInt8) = (0x53, 0xCA, 0x07)
        let shares = try Shamir.split(secret: Self.secret([s]), coefficients: Self.secret([c2, c1]), xs: [1, 2, 3])
        for share in shares {
            let x = share.x
            let expected = GF256.multiply(c2, GF256.multiply(x, x)) ^ GF256.multiply(c1, x) ^ s
            XCTAssertEqual(share.y.withUnsafeBytes { $0[0] }, expected)
        }
    }

    func testEachSplitDrawsFreshCoefficients() throws {
        let secret = try SecretBytes(randomCount: 32)
        let first = try Shamir.split(secret: secret, threshold: 3, count: 3)
        let second = try Shamir.split(secret: secret, threshold: 3, count: 3)
        for (a, b) in zip(first, second) { XCTAssertNotEqual(a.y, b.y) }
    }

    func testTheSameShareTwiceIsRefused() throws {
        let shares = try Shamir.split(secret: try SecretBytes(randomCount: 32), threshold: 2, count: 3)
        XCTAssertThrowsError(try Shamir.combine([shares[1], shares[0], shares[1]])) {
            XCTAssertEqual($0 as? ShamirError, .duplicateX(2))
        }
        // Another share at an x already given is refused too, whatever its bytes.
        let forged = ShamirShare(x: 1, y: try SecretBytes(randomCount: 32))
        XCTAssertThrowsError(try Shamir.combine([shares[0], forged])) {
            XCTAssertEqual($0 as? ShamirError, .duplicateX(1))
        }
    }

    func testMalformedInputsAreRefused() throws {
        let secret = try SecretBytes(randomCount: 32)
        for (threshold, count) in [(1, 3), (0, 0), (4, 3), (2, 256), (-1, 2)] {
            XCTAssertThrowsError(try Shamir.split(secret: secret, threshold: threshold, count: count)) {
                XCTAssertEqual($0 as? ShamirError, .invalidParameters(threshold: threshold, count: count))
            }
        }
        XCTAssertThrowsError(try Shamir.split(secret: try SecretBytes(randomCount: 0), threshold: 2, count: 2)) {
            XCTAssertEqual($0 as? ShamirError, .emptySecret)
        }
        XCTAssertEqual(try Shamir.split(secret: secret, threshold: 255, count: 255).count, 255)
        XCTAssertThrowsError(try Shamir.combine([])) { XCTAssertEqual($0 as? ShamirError, .noShares) }
        let shares = try Shamir.split(secret: secret, threshold: 2, count: 2)
        let zero = ShamirShare(x: 0, y: try SecretBytes(randomCount: 32))
        XCTAssertThrowsError(try Shamir.combine([shares[0], zero])) { XCTAssertEqual($0 as? ShamirError, .zeroX) }
        let short = ShamirShare(x: 9, y: try SecretBytes(randomCount: 31))
        XCTAssertThrowsError(try Shamir.combine([shares[0], short])) {
            XCTAssertEqual($0 as? ShamirError, .lengthMismatch)
        }
    }

    static func secret(_ bytes: [UInt8]) throws -> SecretBytes {
        var copy = bytes
        return try SecretBytes(consuming: &copy)
    }

    /// Every subset of 0..<count of `size` when there are few, else the first, the last and
    /// a seeded sample.
    static func someSubsets(of count: Int, size: Int) -> [[Int]] {
        var all: [[Int]] = []
        func extend(_ partial: [Int], from next: Int) {
            if all.count > 400 { return }
            if partial.count == size {
                all.append(partial)
                return
            }
            for index in next..<count { extend(partial + [index], from: index + 1) }
        }
        extend([], from: 0)
        var generator = SeededGenerator(seed: UInt64(count * 31 + size))
        let tail = Array((count - size)..<count)
        let samples = (0..<20).map { _ in Array((0..<count).shuffled(using: &generator).prefix(size)) }
        return all + [tail] + samples
    }
}
