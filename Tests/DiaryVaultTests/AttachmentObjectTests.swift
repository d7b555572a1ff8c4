import DiaryCrypto
import Foundation
import XCTest

@testable import DiaryVault

#if canImport(Glibc)
import Glibc
#endif

/// The attachment object (docs/FORMAT.md §7.6): round trips at the chunk boundaries, the exact
/// stored length, and every way a stored object can be wrong is refused.
final class AttachmentObjectTests: XCTestCase {
    private let vaultID = UUID()
    private let objectID = UUID()
    private var key: SecretBytes!

    override func setUpWithError() throws {
        key = try SecretStream.keygen()
    }

    /// A file whose bytes depend on their position, so a moved chunk changes the content.
    private func file(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) } }

    /// Seals `plaintext`, pushed in pieces of `piece` bytes; returns the stored pieces.
    private func seal(
        _ plaintext: [UInt8], piece: Int = 10_000, dedupKey: SecretBytes? = nil
    ) throws -> (pieces: [[UInt8]], sealed: AttachmentSealer.Sealed) {
        var pieces: [[UInt8]] = []
        let sealer = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: dedupKey)
        var at = 0
        while at < plaintext.count {
            let n = min(piece, plaintext.count - at)
            try sealer.push(Array(plaintext[at..<(at + n)])) { pieces.append($0) }
            at += n
        }
        let sealed = try sealer.finish { pieces.append($0) }
        return (pieces, sealed)
    }

    /// Opens `stored` fed in pieces of `piece` bytes.
    private func open(
        _ stored: [UInt8], length: UInt64, hash: [UInt8], piece: Int = 7777, objectID: UUID? = nil,
        vaultID: UUID? = nil, storedLength: UInt64? = nil
    ) throws -> [UInt8] {
        var out: [UInt8] = []
        let opener = try AttachmentOpener(
            vaultID: vaultID ?? self.vaultID, objectID: objectID ?? self.objectID, key: key, length: length,
            storedHash: hash, storedLength: storedLength)
        var at = 0
        while at < stored.count {
            let n = min(piece, stored.count - at)
            try opener.feed(Array(stored[at..<(at + n)])) { out.append(contentsOf: $0) }
            at += n
        }
        try opener.finish()
        return out
    }

    private func assertDamage(
        _ reason: AttachmentDamage?, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard case .damaged(_, let found)? = error as? AttachmentError else {
                return XCTFail("not a damage error: \(error)", file: file, line: line)
            }
            if let reason { XCTAssertEqual(found, reason, file: file, line: line) }
        }
    }

    func testRoundTripAtChunkBoundariesAndBeyond() throws {
        for size in [1, 511, 512, 65535, 65536, 65537, 3 * 65536, 3 << 20] {
            let plaintext = file(size)
            let (pieces, sealed) = try seal(plaintext, piece: size % 3 == 0 ? 65536 : 10_000)
            let stored = Array(pieces.joined())
            XCTAssertEqual(sealed.length, UInt64(size))
            XCTAssertEqual(UInt64(stored.count), AttachmentObject.storedLength(for: UInt64(size)), "\(size)")
            XCTAssertEqual(sealed.storedHash, BLAKE2b.hash(stored))
            XCTAssertEqual(sealed.dedupHash, [UInt8](repeating: 0, count: 32))
            XCTAssertEqual(pieces[0].count, AttachmentObject.prefixLength)
            XCTAssertEqual(Array(pieces[0][0..<2]), [1, 4])
            XCTAssertTrue(pieces.dropFirst().allSatisfy { $0.count <= AttachmentObject.storedChunkLength })
            XCTAssertEqual(
                try open(stored, length: UInt64(size), hash: sealed.storedHash, storedLength: UInt64(stored.count)),
                plaintext, "\(size)")
        }
    }

    func testDedupHashIsTheKeyedHashOfThePlaintext() throws {
        let dedupKey = try SecretBytes(randomCount: 32)
        let plaintext = file(100_000)
        let a = try seal(plaintext, dedupKey: dedupKey).sealed
        let b = try seal(plaintext, piece: 999, dedupKey: dedupKey).sealed
        XCTAssertEqual(a.dedupHash, try BLAKE2b.keyedHash(plaintext, key: dedupKey))
        XCTAssertEqual(a.dedupHash, b.dedupHash)
        XCTAssertNotEqual(a.storedHash, b.storedHash, "fresh stream headers")
    }

    func testPaddingMatchesSection6BelowItsLimitAndKeepsItsRuleAbove() {
        for length in [0, 1, 511, 512, 1000, 65535, 1 << 20, 5_000_000, 64 << 20] {
            XCTAssertEqual(
                AttachmentObject.paddedLength(for: UInt64(length)), UInt64(LengthPadding.paddedSize(for: length)))
        }
        XCTAssertEqual(AttachmentObject.paddedLength(for: 64 << 20), 72 << 20)
        XCTAssertEqual(AttachmentObject.paddedLength(for: 1 << 30), (1 << 30) + (1 << 27))
        XCTAssertEqual(AttachmentObject.paddedLength(for: (1 << 30) + 1), (1 << 30) + (1 << 27))
        XCTAssertEqual(AttachmentObject.paddedLength(for: 4 << 30), (4 << 30) + (1 << 29))
        XCTAssertNil(AttachmentObject.paddedLength(for: (4 << 30) + 1))
    }

    func testStoredLengthArithmeticUpToTheLimit() {
        XCTAssertNil(AttachmentObject.storedLength(for: 0))
        XCTAssertEqual(AttachmentObject.storedLength(for: 1), 26 + 512 + 17)
        XCTAssertEqual(AttachmentObject.storedLength(for: 65535), 26 + 65536 + 17)
        XCTAssertEqual(AttachmentObject.storedLength(for: 65536), 26 + 73728 + 2 * 17)
        let maxPadded: UInt64 = (4 << 30) + (1 << 29)
        XCTAssertEqual(AttachmentObject.chunkCount(for: 4 << 30), maxPadded / 65536)
        XCTAssertEqual(AttachmentObject.storedLength(for: 4 << 30), 26 + maxPadded + 17 * (maxPadded / 65536))
        XCTAssertEqual(AttachmentObject.maximumStoredLength, AttachmentObject.storedLength(for: 4 << 30))
        XCTAssertNil(AttachmentObject.storedLength(for: (4 << 30) + 1))
        XCTAssertNil(AttachmentObject.storedLength(for: .max))
    }

    /// The sealer counts before it reads: input past 4 GiB is refused before a byte of it is
    /// touched. The input is a reserved, never-touched 4 GiB + 1 mapping, so no memory is
    /// used and nothing of that size is written or sealed.
    func testSealerRefusesInputPastFourGiBBeforeReadingIt() throws {
        let size = Int(AttachmentLimits.maximumLength) + 1
        let region = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let region, region != MAP_FAILED else { throw XCTSkip("cannot reserve 4 GiB of address space") }
        defer { munmap(region, size) }
        var stored: [[UInt8]] = []
        let whole = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: nil)
        XCTAssertThrowsError(try whole.push(UnsafeRawBufferPointer(start: region, count: size)) { stored.append($0) }) {
            XCTAssertEqual($0 as? AttachmentError, .tooLarge(limit: 4 << 30))
        }
        XCTAssertEqual(stored, [], "nothing sealed, not even the prefix")
        let split = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: nil)
        try split.push([1]) { _ in }
        XCTAssertThrowsError(try split.push(UnsafeRawBufferPointer(start: region, count: size - 1)) { _ in }) {
            XCTAssertEqual($0 as? AttachmentError, .tooLarge(limit: 4 << 30))
        }
        XCTAssertEqual(try split.finish { _ in }.length, 1, "the refused push added nothing")
    }

    func testEmptyFileIsRefused() throws {
        XCTAssertThrowsError(try seal([])) { XCTAssertEqual($0 as? AttachmentError, .empty) }
    }
}
