import XCTest

@testable import DiaryCrypto

/// `SecretStream` round-trips, and every change to a stream (a bit, a chunk's place, its
/// associated data, its end) is refused by the reader.
///
/// libsodium publishes no known-answer vectors for secretstream (its own test uses random
/// keys), so these tests check the behaviour the attachment format relies on; the Python
/// reader (Scripts/decrypt-vault.py) opens streams this code writes, a second check.
final class SecretStreamTests: XCTestCase {
    private var key: SecretBytes!
    private let messages: [[UInt8]] = [Array("first chunk".utf8), [], Array(repeating: 7, count: 1000), [42]]

    override func setUpWithError() throws {
        key = try SecretStream.keygen()
    }

    private func ad(_ i: Int) -> [UInt8] { Array("diary.test".utf8) + [UInt8(i)] }

    /// The header and one sealed chunk per message, the last tagged final.
    private func sealed() throws -> (header: [UInt8], chunks: [[UInt8]]) {
        let pusher = try SecretStreamPusher(key: key)
        let chunks = messages.enumerated().map { i, m in
            pusher.push(m, associatedData: ad(i), tag: i == messages.count - 1 ? .final : .message)
        }
        return (pusher.header, chunks)
    }

    /// Pulls `chunks` in order and returns the tags, throwing at the first refusal.
    private func pullAll(_ header: [UInt8], _ chunks: [[UInt8]], ads: [[UInt8]]? = nil) throws -> [SecretStream
        .Tag]
    {
        let puller = try SecretStreamPuller(key: key, header: header)
        return try chunks.enumerated().map { i, c in
            try puller.pull(c, associatedData: (ads ?? [])[safe: i] ?? ad(i)).tag
        }
    }

    func testRoundTripGivesMessagesAndTags() throws {
        let (header, chunks) = try sealed()
        XCTAssertEqual(header.count, SecretStream.headerByteCount)
        XCTAssertEqual(chunks.map(\.count), messages.map { $0.count + SecretStream.chunkOverhead })
        let puller = try SecretStreamPuller(key: key, header: header)
        for (i, chunk) in chunks.enumerated() {
            let (message, tag) = try puller.pull(chunk, associatedData: ad(i))
            XCTAssertEqual(message, messages[i])
            XCTAssertEqual(tag, i == chunks.count - 1 ? .final : .message)
        }
    }

    func testTwoStreamsUnderOneKeyDiffer() throws {
        let a = try sealed()
        let b = try sealed()
        XCTAssertNotEqual(a.header, b.header)
        XCTAssertNotEqual(a.chunks[0], b.chunks[0])
    }

    func testEveryFlippedBitOfAChunkIsRefused() throws {
        let (header, chunks) = try sealed()
        for bit in 0..<(chunks[0].count * 8) {
            var changed = chunks
            changed[0][bit / 8] ^= 1 << (bit % 8)
            XCTAssertThrowsCryptoError(try pullAll(header, changed), .authenticationFailed, "bit \(bit)")
        }
    }

    func testAFlippedHeaderBitIsRefused() throws {
        let (header, chunks) = try sealed()
        for bit in stride(from: 0, to: header.count * 8, by: 7) {
            var changed = header
            changed[bit / 8] ^= 1 << (bit % 8)
            XCTAssertThrowsError(try pullAll(changed, chunks), "header bit \(bit)")
        }
    }

    func testTruncatedChunkIsRefused() throws {
        let (header, chunks) = try sealed()
        for cut in [1, SecretStream.chunkOverhead, chunks[2].count - 1] {
            var changed = chunks
            changed[2] = Array(changed[2].dropLast(cut))
            XCTAssertThrowsError(try pullAll(header, changed), "cut \(cut)")
        }
    }

    func testReorderedOrDroppedChunksAreRefused() throws {
        let (header, chunks) = try sealed()
        XCTAssertThrowsCryptoError(
            try pullAll(header, [chunks[1], chunks[0], chunks[2], chunks[3]], ads: [ad(0), ad(1), ad(2), ad(3)]),
            .authenticationFailed)
        XCTAssertThrowsCryptoError(
            try pullAll(header, [chunks[0], chunks[2]], ads: [ad(0), ad(2)]), .authenticationFailed)
    }

    func testWrongAssociatedDataIsRefused() throws {
        let (header, chunks) = try sealed()
        var ads = (0..<4).map(ad)
        ads[3] = ad(9)
        XCTAssertThrowsCryptoError(try pullAll(header, chunks, ads: ads), .authenticationFailed)
    }

    func testAChunkFromAnotherStreamIsRefused() throws {
        let a = try sealed()
        let b = try sealed()
        XCTAssertThrowsCryptoError(
            try pullAll(a.header, [a.chunks[0], b.chunks[1]]), .authenticationFailed)
    }

    func testWrongKeyIsRefused() throws {
        let (header, chunks) = try sealed()
        key = try SecretStream.keygen()
        XCTAssertThrowsCryptoError(try pullAll(header, chunks), .authenticationFailed)
    }

    /// libsodium itself pulls a chunk after FINAL without complaint: the reader must check
    /// the tags (the attachment opener does). What the stream guarantees is that such a chunk
    /// cannot be a forged continuation: only a holder of the key could have pushed it.
    func testMissingFinalIsVisibleInTheTagsAndBytesAfterFinalAreNotAuthentic() throws {
        let (header, chunks) = try sealed()
        let tags = try pullAll(header, Array(chunks.dropLast()))
        XCTAssertFalse(tags.contains(.final), "a stream cut before its last chunk has no final tag")
        let extra = chunks + [Array(repeating: 0, count: 40)]
        XCTAssertThrowsCryptoError(try pullAll(header, extra), .authenticationFailed)
    }

    func testShortChunkAndBadLengthsAreRefused() throws {
        let (header, _) = try sealed()
        let puller = try SecretStreamPuller(key: key, header: header)
        XCTAssertThrowsInvalidLength(
            try puller.pull(Array(repeating: 0, count: 16), associatedData: []), what: "stream chunk")
        XCTAssertThrowsInvalidLength(
            try SecretStreamPuller(key: key, header: Array(header.dropLast())), what: "stream header")
        XCTAssertThrowsInvalidLength(
            try SecretStreamPusher(key: try SecretBytes(randomCount: 16)), what: "stream key")
    }
}

extension Array {
    fileprivate subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
