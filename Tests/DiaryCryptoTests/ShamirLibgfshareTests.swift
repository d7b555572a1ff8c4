import CGFShare
import DiaryTestSupport
import XCTest

@testable import DiaryCrypto

/// diary's Shamir against Debian's libgfshare (the field 0x11D, x = 1…255, P(0) = the
/// secret): its shares combine with ours, ours with its, the same coefficients give the same
/// bytes, and the shares `gfsplit` made (Vectors/) combine with ours.
final class ShamirLibgfshareTests: XCTestCase {
    private struct VectorFile: Decodable {
        struct Vector: Decodable {
            struct Share: Decodable {
                var x: UInt8
                var yHex: String
            }
            var threshold: Int
            var count: Int
            var secretHex: String
            var shares: [Share]
        }
        var vectors: [Vector]
    }

    /// libgfshare's fill pointer is NULL until set, and `gfshare_ctx_free` calls it to scrub its
    /// buffer: every test sets it first, whatever test ran before it in the process (alone, as
    /// `swift test --parallel` runs each test, a test that only combines crashed in the free).
    override func setUp() {
        super.setUp()
        diary_gfshare_set_fill(Self.systemRandomFill)
    }

    func testGfsplitVectorsCombineWithOurs() throws {
        let file = try Vectors.load(VectorFile.self, from: "shamir_libgfshare_vectors.json")
        XCTAssertEqual(file.vectors.count, 4)
        for vector in file.vectors {
            XCTAssertEqual(vector.shares.count, vector.count)
            let shares = try vector.shares.map {
                ShamirShare(x: $0.x, y: try ShamirTests.secret([UInt8](hex: $0.yHex)))
            }
            let secret = [UInt8](hex: vector.secretHex)
            for subset in ShamirTests.someSubsets(of: vector.count, size: vector.threshold) {
                let rebuilt = try Shamir.combine(subset.map { shares[$0] })
                XCTAssertEqual(rebuilt.withUnsafeBytes { Array($0) }, secret, "\(subset)")
            }
            let fewer = try Shamir.combine(Array(shares.prefix(vector.threshold - 1)))
            if secret.count > 1 { XCTAssertNotEqual(fewer.withUnsafeBytes { Array($0) }, secret) }
        }
    }

    func testLibgfshareSharesCombineWithOurs() throws {
        diary_gfshare_set_fill(Self.systemRandomFill)
        for (threshold, count, length) in [(2, 3, 32), (3, 5, 32), (5, 9, 17), (16, 16, 32)] {
            let secret = SecureRandom.bytes(count: length)
            let xs = Array((UInt8(1)...255).shuffled().prefix(count))
            let theirs = try Self.libgfshareSplit(secret: secret, threshold: threshold, xs: xs)
            for subset in ShamirTests.someSubsets(of: count, size: threshold) {
                let shares = try subset.map { ShamirShare(x: xs[$0], y: try ShamirTests.secret(theirs[$0])) }
                XCTAssertEqual(try Shamir.combine(shares).withUnsafeBytes { Array($0) }, secret)
            }
        }
    }

    func testOurSharesCombineWithLibgfshare() throws {
        for (threshold, count, length) in [(2, 2, 32), (3, 5, 32), (4, 7, 5), (16, 16, 32)] {
            let secret = try SecretBytes(randomCount: length)
            let expected = secret.withUnsafeBytes { Array($0) }
            let shares = try Shamir.split(secret: secret, threshold: threshold, count: count)
            for subset in ShamirTests.someSubsets(of: count, size: threshold) {
                let chosen = subset.map { shares[$0] }
                XCTAssertEqual(Self.libgfshareCombine(chosen, length: length), expected, "\(subset)")
            }
        }
    }

    /// Given libgfshare's coefficients, our split writes libgfshare's bytes exactly.
    func testTheSameCoefficientsGiveLibgfsharesBytes() throws {
        diary_gfshare_set_fill(Self.patternFill)
        for (threshold, count, length) in [(2, 3, 32), (3, 5, 8), (7, 10, 3)] {
            let secret = SecureRandom.bytes(count: length)
            let xs = (1...count).map { UInt8($0 * 23 % 256) }
            let theirs = try Self.libgfshareSplit(secret: secret, threshold: threshold, xs: xs)
            var pattern = [UInt8](repeating: 0, count: (threshold - 1) * length)
            pattern.withUnsafeMutableBufferPointer { Self.patternFill($0.baseAddress, UInt32($0.count)) }
            let ours = try Shamir.split(
                secret: try ShamirTests.secret(secret), coefficients: try ShamirTests.secret(pattern), xs: xs)
            XCTAssertEqual(ours.map { $0.y.withUnsafeBytes { Array($0) } }, theirs)
        }
        diary_gfshare_set_fill(Self.systemRandomFill)
    }

    // MARK: - libgfshare

    /// libgfshare's coefficients from the system generator (its default pointer is NULL).
    private static let systemRandomFill: gfshare_rand_func_t = { buffer, count in
        var generator = SystemRandomNumberGenerator()
        for index in 0..<Int(count) { buffer?[index] = UInt8.random(in: 0...255, using: &generator) }
    }

    /// Coefficients the test can give our split too: byte i is 37·i + 11.
    private static let patternFill: gfshare_rand_func_t = { buffer, count in
        for index in 0..<Int(count) { buffer?[index] = UInt8(truncatingIfNeeded: 37 &* index &+ 11) }
    }

    private static func libgfshareSplit(secret: [UInt8], threshold: Int, xs: [UInt8]) throws -> [[UInt8]] {
        var xs = xs
        var secret = secret
        let context = try XCTUnwrap(
            gfshare_ctx_init_enc(&xs, UInt32(xs.count), UInt8(threshold), UInt32(secret.count)))
        defer { gfshare_ctx_free(context) }
        gfshare_ctx_enc_setsecret(context, &secret)
        return xs.indices.map { index in
            var share = [UInt8](repeating: 0, count: secret.count)
            gfshare_ctx_enc_getshare(context, UInt8(index), &share)
            return share
        }
    }

    private static func libgfshareCombine(_ shares: [ShamirShare], length: Int) -> [UInt8]? {
        var xs = shares.map(\.x)
        guard let context = gfshare_ctx_init_dec(&xs, UInt32(xs.count), UInt32(length)) else { return nil }
        defer { gfshare_ctx_free(context) }
        for (index, share) in shares.enumerated() {
            var y = share.y.withUnsafeBytes { Array($0) }
            gfshare_ctx_dec_giveshare(context, UInt8(index), &y)
        }
        var secret = [UInt8](repeating: 0, count: length)
        gfshare_ctx_dec_extract(context, &secret)
        return secret
    }
}
