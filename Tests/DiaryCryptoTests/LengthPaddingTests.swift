import Foundation
import XCTest

@testable import DiaryCrypto

/// The bucket scheme of `LengthPadding` and its strict, canonical unpadding.
final class LengthPaddingTests: XCTestCase {
    /// Distinct filler so a test never confuses data bytes with padding bytes.
    private func data(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 % 251 + 1) } }

    func testEveryLengthUpTo4096RoundTripsAtItsBucketSize() throws {
        for length in 0...4096 {
            let input = data(length)
            let padded = try LengthPadding.pad(input)
            XCTAssertEqual(padded.count, LengthPadding.paddedSize(for: length), "length \(length)")
            XCTAssertTrue(LengthPadding.isBucketSize(padded.count), "length \(length)")
            XCTAssertGreaterThan(padded.count, length, "at least the marker byte is added")
            XCTAssertEqual(try LengthPadding.unpad(padded), input, "length \(length)")
        }
    }

    /// Large objects (an index root of a million entries is about 213 KB) are padded by walking
    /// only the last step of their bucket (`paddingSpan`): the bytes must still be exactly the
    /// data, the `0x80` marker and zeros up to the bucket, at every bucket edge up to 2 MiB.
    func testLargeLengthsAtEveryBucketEdgePadToTheMarkerThenZeros() throws {
        var lengths: Set<Int> = []
        for exponent in 9..<21 {
            let step = 1 << (exponent - 3)
            for k in 0...8 {
                let edge = (1 << exponent) + k * step
                lengths.formUnion([edge - 2, edge - 1, edge, edge + 1])
            }
        }
        // One filler and one run of zeros for every length, compared with memcmp: built and
        // compared byte by byte, 432 lengths of up to 2 MiB took most of a minute in a debug build.
        let filler = data(1 << 21 + 2)
        let zeros = [UInt8](repeating: 0, count: 1 << 21)
        for length in lengths.sorted() {
            let input = Array(filler[..<length])
            let padded = try LengthPadding.pad(input)
            let bucket = LengthPadding.paddedSize(for: length)
            let exact =
                padded.count == bucket
                && padded.withUnsafeBytes { bytes in
                    memcmp(bytes.baseAddress!, filler, length) == 0 && bytes[length] == 0x80
                        && memcmp(bytes.baseAddress! + length + 1, zeros, bucket - length - 1) == 0
                }
            if !exact { XCTFail("length \(length): not the data, 0x80 and zeros to \(bucket)"); return }
            let unpadded = try LengthPadding.unpad(padded)
            if unpadded.count != length || memcmp(unpadded, filler, length) != 0 {
                XCTFail("length \(length) does not round-trip"); return
            }
        }
    }

    func testSizesHaveTheMinimumFloorThenEightBucketsPerDoubling() {
        XCTAssertEqual(LengthPadding.paddedSize(for: 0), 512)
        XCTAssertEqual(LengthPadding.paddedSize(for: 511), 512)
        XCTAssertEqual(LengthPadding.paddedSize(for: 512), 576)
        for exponent in 9..<20 {
            let buckets = Set(((1 << exponent)..<(1 << (exponent + 1))).map { LengthPadding.paddedSize(for: $0) })
            XCTAssertEqual(buckets.count, 8, "lengths in [2^\(exponent), 2^\(exponent + 1))")
        }
    }

    func testPaddedSizeIsMonotone() {
        var previous = LengthPadding.paddedSize(for: 0)
        for length in 1...(1 << 20) {
            let size = LengthPadding.paddedSize(for: length)
            // One assertion per failure, not per length: a million XCTAsserts would dominate the run.
            if size < previous { XCTFail("paddedSize(\(length)) = \(size) < \(previous)"); return }
            previous = size
        }
    }

    func testOverheadAboveTheFloorIsBelowOneEighth() {
        // With the mandatory marker byte counted as content, the zero fill stays under 12.5%.
        // (Against the bare length it reaches exactly 12.5% when length is a power of two.)
        var lengths = Array(511...(1 << 18))
        lengths += [
            (1 << 24) - 1, 1 << 24, (1 << 24) + 1, LengthPadding.maximumLength - 1, LengthPadding.maximumLength,
        ]
        for length in lengths {
            let size = LengthPadding.paddedSize(for: length)
            if 8 * (size - (length + 1)) >= length + 1 || 8 * size > 9 * max(length, 512) {
                XCTFail("length \(length) pads to \(size)"); return
            }
        }
    }

    func testIsBucketSizeAgreesWithPaddedSize() {
        for size in 0...(1 << 16) {
            let expected = size >= 1 && LengthPadding.paddedSize(for: size - 1) == size
            if LengthPadding.isBucketSize(size) != expected { XCTFail("size \(size)"); return }
        }
    }

    func testHugeSizesAreNotBucketsAndDoNotTrap() {
        XCTAssertEqual(LengthPadding.largestBucket, LengthPadding.paddedSize(for: LengthPadding.maximumLength))
        XCTAssertTrue(LengthPadding.isBucketSize(LengthPadding.largestBucket))
        for size in [
            LengthPadding.largestBucket + 1, LengthPadding.largestBucket + (1 << 23), 1 << 40, Int.max, -1, Int.min,
        ] {
            XCTAssertFalse(LengthPadding.isBucketSize(size), "size \(size)")
        }
    }

    func testMaximumLengthRoundTripsThroughTheLargestBucket() throws {
        // Regression: unpad of the largest bucket used to trap in isBucketSize.
        var input = [UInt8](repeating: 0x41, count: LengthPadding.maximumLength)
        input[input.count - 1] = 0x80  // data ending in what looks like a marker stays data
        let padded = try LengthPadding.pad(input)
        XCTAssertEqual(padded.count, LengthPadding.largestBucket)
        XCTAssertEqual(try LengthPadding.unpad(padded), input)
        XCTAssertThrowsInvalidLength(try LengthPadding.pad(input + [0]), what: "padding input")
    }

    func testLargestBucketClaimingTooMuchDataIsRejectedWithoutTrapping() {
        // ISO-valid padding in the largest bucket, but the data would exceed maximumLength.
        var padded = [UInt8](repeating: 0x41, count: LengthPadding.largestBucket)
        padded[padded.count - 1] = 0x80
        XCTAssertThrowsCryptoError(try LengthPadding.unpad(padded), .invalidPadding)
    }

    func testWrongMarkerIsRejected() throws {
        for marker: UInt8 in [0x00, 0x01, 0x7F, 0x81, 0xFF] {
            var padded = try LengthPadding.pad(data(100))
            padded[100] = marker
            XCTAssertThrowsCryptoError(try LengthPadding.unpad(padded), .invalidPadding, "marker \(marker)")
        }
    }

    func testNonZeroByteAfterMarkerIsRejected() throws {
        let clean = try LengthPadding.pad(data(100))
        for position in [101, 300, clean.count - 1] {
            var padded = clean
            padded[position] = 0x01
            XCTAssertThrowsCryptoError(try LengthPadding.unpad(padded), .invalidPadding, "position \(position)")
        }
    }

    func testNonBucketSizesAreRejected() {
        for size in [0, 1, 16, 511, 513, 575, 577, 600, 1000] {
            var bytes = [UInt8](repeating: 0, count: size)
            if size > 0 { bytes[0] = 0x80 }  // valid ISO padding of empty data, at a wrong size
            XCTAssertThrowsCryptoError(try LengthPadding.unpad(bytes), .invalidPadding, "size \(size)")
        }
    }

    func testValidPaddingOneBucketTooBigIsRejectedAsNonCanonical() throws {
        for length in [0, 10, 511, 600, 4000] {
            let canonical = try LengthPadding.pad(data(length))
            let next = LengthPadding.paddedSize(for: canonical.count)  // the bucket after this one
            XCTAssertTrue(LengthPadding.isBucketSize(next))
            let oversized = canonical + [UInt8](repeating: 0, count: next - canonical.count)
            XCTAssertThrowsCryptoError(try LengthPadding.unpad(oversized), .invalidPadding, "length \(length)")
        }
    }

    func testMissingMarkerIsRejected() {
        XCTAssertThrowsCryptoError(try LengthPadding.unpad([UInt8](repeating: 0, count: 512)), .invalidPadding)
        XCTAssertThrowsCryptoError(try LengthPadding.unpad([UInt8](repeating: 0x41, count: 512)), .invalidPadding)
    }
}
