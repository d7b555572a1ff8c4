import XCTest

@testable import DiaryCrypto

/// libsodium's `sodium_pad` vectors applied to `LengthPadding`.
///
/// The vectors use small libsodium block sizes (1, 4, 16, 256); `LengthPadding` pads to its own
/// buckets with the whole bucket as one ISO/IEC 7816-4 block. So the vectors pin the *shape*:
/// our output for a vector's input must be the vector's padded bytes (data, `0x80`, zeros)
/// continued with zeros up to our bucket. The invalid vectors are replayed as given (refused:
/// none is a bucket size) and embedded at the end of a 512-byte bucket, where the outcome must
/// match an independent ISO 7816-4 reference model plus our canonical-size rule. "Marker
/// outside the last block" has no counterpart here, because our block is the whole bucket.
final class PaddingVectorTests: XCTestCase {
    private struct File: Decodable {
        struct Valid: Decodable { let unpaddedHex: String; let blocksize: Int; let paddedHex: String }
        struct Invalid: Decodable { let paddedHex: String; let blocksize: Int; let why: String; let expected: String }
        let valid: [Valid]
        let invalidUnpad: [Invalid]
    }

    private func load() throws -> File { try Vectors.load(File.self, from: "sodium_pad_vectors.json") }

    /// ISO/IEC 7816-4 unpadding written from the definition, independent of libsodium: the
    /// last non-zero byte must be `0x80`; the data is everything before it.
    private func referenceUnpad(_ bytes: [UInt8]) -> [UInt8]? {
        guard let marker = bytes.lastIndex(where: { $0 != 0 }), bytes[marker] == 0x80 else { return nil }
        return Array(bytes[..<marker])
    }

    func testValidVectorsHaveTheShapeOfOurPadding() throws {
        let vectors = try load().valid
        XCTAssertEqual(vectors.count, 12)
        for v in vectors {
            let input = [UInt8](hex: v.unpaddedHex), theirs = [UInt8](hex: v.paddedHex)
            // The vector itself follows the rule we rely on.
            XCTAssertEqual(theirs.count % v.blocksize, 0)
            XCTAssertEqual(referenceUnpad(theirs), input, v.paddedHex)
            let ours = try LengthPadding.pad(input)
            XCTAssertLessThanOrEqual(theirs.count, ours.count)
            XCTAssertEqual(ours, theirs + [UInt8](repeating: 0, count: ours.count - theirs.count), v.unpaddedHex)
            XCTAssertEqual(try LengthPadding.unpad(ours), input)
        }
    }

    func testInvalidVectorsAreRefusedAsGiven() throws {
        let vectors = try load().invalidUnpad
        XCTAssertEqual(vectors.count, 4)
        for v in vectors {
            XCTAssertEqual(v.expected, "error")
            XCTAssertThrowsCryptoError(try LengthPadding.unpad([UInt8](hex: v.paddedHex)), .invalidPadding, v.why)
        }
    }

    func testInvalidVectorsEmbeddedInABucketFollowTheReferenceModel() throws {
        var refused = 0
        for v in try load().invalidUnpad {
            let tail = [UInt8](hex: v.paddedHex)
            let bucket = [UInt8](repeating: 0x41, count: 512 - tail.count) + tail
            if let data = referenceUnpad(bucket), LengthPadding.paddedSize(for: data.count) == bucket.count {
                XCTAssertEqual(try LengthPadding.unpad(bucket), data, v.why)
            } else {
                XCTAssertThrowsCryptoError(try LengthPadding.unpad(bucket), .invalidPadding, v.why)
                refused += 1
            }
        }
        // "non-zero after marker" and "no marker" are refused; "empty" embeds to 512 bytes of
        // data without a marker, refused too; "marker outside the block" is valid for us.
        XCTAssertEqual(refused, 3)
    }

    func testOurPaddingMatchesTheReferenceModelForManyLengths() throws {
        for length in stride(from: 0, through: 20_000, by: 61) {
            let input = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let ours = try LengthPadding.pad(input)
            XCTAssertEqual(referenceUnpad(ours), input, "length \(length)")
        }
    }
}
