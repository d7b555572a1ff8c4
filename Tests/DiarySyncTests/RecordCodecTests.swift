import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

final class RecordCodecTests: XCTestCase {
    let vaultID = UUID()
    let machine = UUID()

    private func key(_ generation: UInt32 = 1) throws -> SyncKey {
        try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: generation)
    }

    private func sample() -> SyncRecord {
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        let entry = Entry(
            id: UUID(), text: "Heron\nat dawn", date: now, created: now, modified: now,
            starred: true, tags: ["walk"])
        return SyncRecord(
            machine: machine, seq: 3, previous: [UInt8](repeating: 7, count: 32), lamport: 42, machineName: "laptop",
            revisions: [
                Revision(entry: entry.id, id: UUID(), parents: [UUID(), UUID()], content: entry),
                Revision(entry: UUID(), id: UUID(), parents: [UUID()], content: nil),
            ])
    }

    func testASealedRecordOpensToWhatWasSealed() throws {
        let k = try key()
        let record = sample()
        let file = try RecordCodec.seal(record, vaultID: vaultID, key: k)
        let opened = try RecordCodec.open(
            file, vaultID: vaultID, machine: machine, seq: 3, keys: SyncKeyRing(current: k))
        XCTAssertEqual(opened.revisions, record.revisions)
        XCTAssertEqual(opened.lamport, 42)
        XCTAssertEqual(opened.previous, record.previous)
        XCTAssertEqual(opened.machineName, "laptop")
        XCTAssertTrue(LengthPadding.isBucketSize(file.count - RecordCodec.prefixLength - 24 - 16))
    }

    func testEveryFlippedByteIsRefused() throws {
        let k = try key()
        let file = try RecordCodec.seal(sample(), vaultID: vaultID, key: k)
        let ring = SyncKeyRing(current: k)
        for i in stride(from: 0, to: file.count, by: max(1, file.count / 300)) {
            var bad = file
            bad[i] ^= 0x20
            XCTAssertThrowsError(
                try RecordCodec.open(bad, vaultID: vaultID, machine: machine, seq: 3, keys: ring), "byte \(i)")
        }
    }

    func testARecordInAnotherPlaceOrVaultOrUnderAnUnknownKeyIsNamedSo() throws {
        let k = try key()
        let file = try RecordCodec.seal(sample(), vaultID: vaultID, key: k)
        let ring = SyncKeyRing(current: k)
        XCTAssertThrowsError(try RecordCodec.open(file, vaultID: vaultID, machine: machine, seq: 4, keys: ring)) {
            XCTAssertEqual($0 as? RecordError, .wrongPlace)
        }
        XCTAssertThrowsError(try RecordCodec.open(file, vaultID: vaultID, machine: UUID(), seq: 3, keys: ring)) {
            XCTAssertEqual($0 as? RecordError, .wrongPlace)
        }
        XCTAssertThrowsError(try RecordCodec.open(file, vaultID: UUID(), machine: machine, seq: 3, keys: ring)) {
            XCTAssertEqual($0 as? RecordError, .otherVault(vaultID))
        }
        XCTAssertThrowsError(
            try RecordCodec.open(
                file, vaultID: vaultID, machine: machine, seq: 3, keys: SyncKeyRing(current: try key()))
        ) {
            XCTAssertEqual($0 as? RecordError, .unknownKey)
        }
        var newer = file
        newer[8] = 2
        XCTAssertThrowsError(try RecordCodec.open(newer, vaultID: vaultID, machine: machine, seq: 3, keys: ring)) {
            XCTAssertEqual($0 as? RecordError, .unsupportedVersion(2))
        }
    }

    func testAKeyChangeCarriesHeadersAndRetiredKeysOnlyInsideTheCiphertext() throws {
        let old = try key(1)
        let new = try key(2)
        var record = sample()
        record.keyChange = KeyChange(headers: [.sqlite: [1, 2, 3], .files: [4, 5]], retired: [(1, old.vaultKey)])
        let file = try RecordCodec.seal(record, vaultID: vaultID, key: new)
        XCTAssertNil(Data(file).range(of: Data(old.vaultKey.withUnsafeBytes { Array($0) })))
        let opened = try RecordCodec.open(
            file, vaultID: vaultID, machine: machine, seq: 3, keys: SyncKeyRing(current: new))
        XCTAssertEqual(opened.keyChange?.headers[.sqlite], [1, 2, 3])
        XCTAssertEqual(opened.keyChange?.retired.first?.generation, 1)
        XCTAssertEqual(try SyncKey(vaultKey: opened.keyChange!.retired[0].key, generation: 1).id, old.id)
    }

    func testTheKeyIDDependsOnTheKeyAlone() throws {
        let secret = try SecretBytes(randomCount: 32)
        XCTAssertEqual(try SyncKey(vaultKey: secret, generation: 1).id, try SyncKey(vaultKey: secret, generation: 1).id)
        XCTAssertNotEqual(try SyncKey(vaultKey: secret, generation: 1).id, try key().id)
        XCTAssertEqual(try key().id.count, 16)
    }
}
