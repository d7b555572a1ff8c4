import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The sealer writes straight into a store and the opener reads straight out of it, in both
/// stores, a chunk at a time; the stores' read limit is the format's largest object.
final class AttachmentStoreTests: XCTestCase {
    func testTheStoresReadLimitIsTheLargestObject() {
        XCTAssertEqual(UInt64(ReadLimits.attachment), AttachmentObject.maximumStoredLength)
    }

    func testSealIntoEachStoreAndOpenOutOfIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("diary-attach-" + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: root) }
        let plaintext = (0..<(3 << 20) + 12345).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 11) }
        forEachStoreKind { kind in
            let store = try StoreLayout.create(
                kind, at: root.appendingPathComponent(kind.rawValue), initial: StoreChange(header: [1, 2, 3]))
            let (vaultID, objectID, key) = (UUID(), UUID(), try SecretStream.keygen())
            var sealed: AttachmentSealer.Sealed?
            try store.putAttachment(objectID) { chunk in
                let sealer = try AttachmentSealer(vaultID: vaultID, objectID: objectID, key: key, dedupKey: nil)
                for start in stride(from: 0, to: plaintext.count, by: 100_000) {
                    try sealer.push(Array(plaintext[start..<min(start + 100_000, plaintext.count)]), emit: chunk)
                }
                sealed = try sealer.finish(emit: chunk)
            }
            let record = try XCTUnwrap(sealed)
            let length = try XCTUnwrap(try store.attachmentLength(objectID))
            var out: [UInt8] = []
            let opener = try AttachmentOpener(
                vaultID: vaultID, objectID: objectID, key: key, length: record.length, storedHash: record.storedHash,
                storedLength: UInt64(length))
            XCTAssertTrue(try store.readAttachment(objectID) { try opener.feed($0) { out.append(contentsOf: $0) } })
            try opener.finish()
            XCTAssertEqual(out, plaintext, "\(kind)")
        }
    }
}
