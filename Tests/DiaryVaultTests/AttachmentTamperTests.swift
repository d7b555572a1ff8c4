import DiaryCrypto
import Foundation
import XCTest

@testable import DiaryVault

/// Every way a stored attachment object can differ from what its record describes is refused
/// by `AttachmentOpener`, with the reason (docs/FORMAT.md §7.6).
final class AttachmentTamperTests: XCTestCase {
    private let vaultID = UUID()
    private let objectID = UUID()
    private var key: SecretBytes!
    /// Three chunks of P: two full, one short.
    private let plaintext = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
    private var stored: [UInt8] = []
    private var hash: [UInt8] = []

    override func setUpWithError() throws {
        key = try SecretStream.keygen()
        var out: [UInt8] = []
        let sealer = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: nil)
        try sealer.push(plaintext) { out += $0 }
        hash = try sealer.finish { out += $0 }.storedHash
        stored = out
        XCTAssertEqual(try open(stored), plaintext, "the untouched object opens")
        XCTAssertEqual(AttachmentObject.chunkCount(for: UInt64(plaintext.count)), 3)
    }

    private func open(
        _ bytes: [UInt8], length: Int? = nil, hash: [UInt8]? = nil, objectID: UUID? = nil, vaultID: UUID? = nil,
        storedLength: UInt64? = nil
    ) throws -> [UInt8] {
        var out: [UInt8] = []
        let opener = try AttachmentOpener(
            vaultID: vaultID ?? self.vaultID, objectID: objectID ?? self.objectID, key: key,
            length: UInt64(length ?? plaintext.count), storedHash: hash ?? self.hash, storedLength: storedLength)
        try opener.feed(bytes) { out.append(contentsOf: $0) }
        try opener.finish()
        return out
    }

    private func assertRefused(
        _ reason: AttachmentDamage, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(
                error as? AttachmentError, .damaged(objectID: objectID, reason: reason), file: file, line: line)
        }
    }

    /// Where chunk `i` starts in the stored object.
    private func chunkStart(_ i: Int) -> Int { AttachmentObject.prefixLength + i * AttachmentObject.storedChunkLength }

    /// An object sealed by hand from the padded plaintext `padded`, with the given tags.
    private func craft(_ padded: [UInt8], tags: [SecretStream.Tag]) throws -> (bytes: [UInt8], hash: [UInt8]) {
        let pusher = try SecretStreamPusher(key: key)
        var out: [UInt8] = [1, 4] + pusher.header
        for (i, tag) in tags.enumerated() {
            let start = i * AttachmentObject.chunkLength
            let end = min(padded.count, start + AttachmentObject.chunkLength)
            let ad = AttachmentObject.associatedData(vaultID: vaultID, objectID: objectID, chunk: UInt64(i))
            out += pusher.push(Array(padded[start..<end]), associatedData: ad, tag: tag)
        }
        return (out, BLAKE2b.hash(out))
    }

    private var padded: [UInt8] {
        let total = Int(AttachmentObject.paddedLength(for: UInt64(plaintext.count))!)
        return plaintext + [0x80] + [UInt8](repeating: 0, count: total - plaintext.count - 1)
    }

    func testAFlippedBitAnywhereIsRefused() {
        for (offset, reason) in [
            (0, AttachmentDamage.wrongPrefix), (1, .wrongPrefix), (5, .chunkRefused(chunk: 0)),
            (chunkStart(0) + 3, .chunkRefused(chunk: 0)), (chunkStart(1) + 100, .chunkRefused(chunk: 1)),
            (stored.count - 1, .chunkRefused(chunk: 2)),
        ] {
            var bytes = stored
            bytes[offset] ^= 0x10
            assertRefused(reason) { _ = try open(bytes) }
        }
    }

    func testTruncatedIsRefusedUpFrontAndWhenRead() {
        let short = Array(stored.dropLast())
        let expected = UInt64(stored.count)
        assertRefused(.wrongLength(expected: expected, actual: expected - 1)) {
            _ = try open(short, storedLength: UInt64(short.count))
        }
        assertRefused(.wrongLength(expected: expected, actual: expected - 1)) { _ = try open(short) }
        let lastChunkGone = Array(stored[..<chunkStart(2)])
        assertRefused(.wrongLength(expected: expected, actual: UInt64(lastChunkGone.count))) {
            _ = try open(lastChunkGone)
        }
    }

    func testBytesAfterTheEndAreRefused() {
        assertRefused(.wrongLength(expected: UInt64(stored.count), actual: UInt64(stored.count + 1))) {
            _ = try open(stored + [0])
        }
    }

    func testReorderedChunksAreRefused() {
        var bytes = stored
        let first = Array(stored[chunkStart(0)..<chunkStart(1)])
        bytes.replaceSubrange(chunkStart(0)..<chunkStart(1), with: stored[chunkStart(1)..<chunkStart(2)])
        bytes.replaceSubrange(chunkStart(1)..<chunkStart(2), with: first)
        assertRefused(.chunkRefused(chunk: 0)) { _ = try open(bytes) }
    }

    func testAnotherObjectOrVaultIsRefused() {
        XCTAssertThrowsError(try open(stored, objectID: UUID()))
        assertRefused(.chunkRefused(chunk: 0)) { _ = try open(stored, vaultID: UUID()) }
    }

    func testAChunkFromAnotherObjectUnderTheSameKeyIsRefused() throws {
        let other = try craft(padded, tags: [.message, .message, .final]).bytes
        var bytes = stored
        bytes.replaceSubrange(chunkStart(1)..<chunkStart(2), with: other[chunkStart(1)..<chunkStart(2)])
        assertRefused(.chunkRefused(chunk: 1)) { _ = try open(bytes) }
    }

    func testMissingFinalAndEarlyFinalAreRefused() throws {
        let noFinal = try craft(padded, tags: [.message, .message, .message])
        assertRefused(.wrongTag(chunk: 2)) { _ = try open(noFinal.bytes, hash: noFinal.hash) }
        let early = try craft(padded, tags: [.message, .final, .message])
        assertRefused(.wrongTag(chunk: 1)) { _ = try open(early.bytes, hash: early.hash) }
        let hand = try craft(padded, tags: [.message, .message, .final])
        XCTAssertEqual(try open(hand.bytes, hash: hand.hash), plaintext, "the crafting itself is right")
    }

    func testNonCanonicalPaddingIsRefused() throws {
        var marker = padded
        marker[plaintext.count] = 0x81
        var trailing = padded
        trailing[trailing.count - 1] = 1
        for bad in [marker, trailing] {
            let object = try craft(bad, tags: [.message, .message, .final])
            assertRefused(.badPadding) { _ = try open(object.bytes, hash: object.hash) }
        }
    }

    /// A record claiming another length in the same bucket meets the padding check.
    func testAWrongLengthInTheSameBucketIsRefused() {
        XCTAssertEqual(
            AttachmentObject.storedLength(for: UInt64(plaintext.count - 1)), UInt64(stored.count))
        assertRefused(.badPadding) { _ = try open(stored, length: plaintext.count - 1) }
        assertRefused(.badPadding) { _ = try open(stored, length: plaintext.count + 1) }
    }

    func testWrongStoredHashIsRefused() {
        var other = hash
        other[0] ^= 1
        assertRefused(.hashMismatch) { _ = try open(stored, hash: other) }
    }

    func testAnImpossibleRecordIsRefused() {
        assertRefused(.invalidRecord) { _ = try open(stored, length: 0) }
        assertRefused(.invalidRecord) { _ = try open(stored, hash: [1, 2]) }
    }
}
