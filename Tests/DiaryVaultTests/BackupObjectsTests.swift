import Foundation
import XCTest

@testable import DiaryVault

/// The rules a backup reader applies to records of type 6 (docs/FORMAT.md §10), one by one:
/// each broken rule damages that object only, the others read on.
final class BackupObjectsTests: XCTestCase {
    private let prefix: [UInt8] = [1, 4]
    private let full = AttachmentObject.storedChunkLength
    /// The pieces of the object of a 1-byte file: the prefix and one chunk of 512 + 17 bytes.
    private let small = [AttachmentObject.prefixLength, 512 + 17]

    private func read(_ pieces: [(UUID, UInt32, Int, [UInt8])]) -> BackupObjects {
        var objects = BackupObjects()
        for (offset, (id, number, length, head)) in pieces.enumerated() {
            objects.take(id: id, number: number, offset: offset * 100, length: length, prefix: head)
        }
        objects.close()
        return objects
    }

    func testAWholeObjectIsKeptWithItsPieces() {
        let id = UUID()
        let objects = read([(id, 0, small[0], prefix), (id, 1, small[1], [])])
        XCTAssertEqual(objects.objects[id]?.map(\.length), small)
        XCTAssertEqual(objects.length(of: id), UInt64(small.reduce(0, +)))
        XCTAssertTrue(objects.damaged.isEmpty)
    }

    func testEachBrokenRuleDamagesThatObjectOnly() {
        let (a, b) = (UUID(), UUID())
        let cases: [(String, [(UUID, UInt32, Int, [UInt8])])] = [
            ("out of order", [(a, 0, 26, prefix), (a, 2, 529, []), (b, 0, 26, prefix), (b, 1, 529, [])]),
            ("interleaved", [(a, 0, 26, prefix), (b, 0, 26, prefix), (a, 1, 529, []), (b, 1, 529, [])]),
            ("no piece 0", [(a, 1, 529, []), (b, 0, 26, prefix), (b, 1, 529, [])]),
            ("wrong prefix", [(a, 0, 26, [1, 3]), (a, 1, 529, []), (b, 0, 26, prefix), (b, 1, 529, [])]),
            ("prefix length", [(a, 0, 27, prefix), (a, 1, 529, []), (b, 0, 26, prefix), (b, 1, 529, [])]),
            (
                "short piece before the last",
                [(a, 0, 26, prefix), (a, 1, 529, []), (a, 2, full, []), (b, 0, 26, prefix), (b, 1, 529, [])]
            ),
            ("no valid length", [(a, 0, 26, prefix), (a, 1, 530, []), (b, 0, 26, prefix), (b, 1, 529, [])]),
            ("prefix only", [(a, 0, 26, prefix), (b, 0, 26, prefix), (b, 1, 529, [])]),
            (
                "twice",
                [
                    (a, 0, 26, prefix), (a, 1, 529, []), (b, 0, 26, prefix), (b, 1, 529, []), (a, 0, 26, prefix),
                    (a, 1, 529, []),
                ]
            ),
        ]
        for (rule, pieces) in cases {
            let objects = read(pieces)
            XCTAssertNil(objects.objects[a], rule)
            XCTAssertNotNil(objects.damaged[a], rule)
            XCTAssertEqual(objects.objects[b]?.count, 2, "\(rule): the other object reads on")
        }
    }

    func testTheValidStoredLengthsAreExactlyTheObjectsOfSomeFile() {
        var valid = Set<UInt64>()
        for length in UInt64(1)...300_000 { valid.insert(AttachmentObject.storedLength(for: length)!) }
        for stored in UInt64(0)...(AttachmentObject.storedLength(for: 300_000)!) {
            XCTAssertEqual(AttachmentObject.isValidStoredLength(stored), valid.contains(stored), "\(stored)")
        }
        XCTAssertTrue(AttachmentObject.isValidStoredLength(AttachmentObject.maximumStoredLength))
        XCTAssertFalse(AttachmentObject.isValidStoredLength(AttachmentObject.maximumStoredLength + 1))
    }
}
