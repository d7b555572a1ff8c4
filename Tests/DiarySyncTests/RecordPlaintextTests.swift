import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// The strictness of a record's plaintext: the one encoding `encode` writes and no other.
final class RecordPlaintextTests: XCTestCase {
    let machine = UUID()

    private func record(vector: [LogMark] = []) -> SyncRecord {
        SyncRecord(
            machine: machine, seq: 2, previous: [UInt8](repeating: 7, count: 32), lamport: 5, machineName: "desk",
            written: 9, epochSeq: 1, epochHash: [UInt8](repeating: 8, count: 32), vector: vector,
            revisions: [Revision(entry: UUID(), id: UUID(), parents: [], content: nil)])
    }

    private func marks(_ count: Int) -> [LogMark] {
        (0..<count).map {
            LogMark(machine: UUID(), seq: UInt64($0 + 1), hash: [UInt8](repeating: UInt8($0), count: 32))
        }
        .sorted { $0.machine.precedes($1.machine) }
    }

    /// Where the vector's first mark starts: version, previous, lamport, written, name, epoch.
    private let vectorStart = 1 + 32 + 8 + 8 + 2 + 4 + 8 + 32 + 2

    func testTheEncodingRoundTripsAndSortsTheVector() throws {
        let sorted = marks(3)
        let decoded = try RecordCodec.decode(
            RecordCodec.encode(record(vector: sorted.reversed())), machine: machine, seq: 2)
        XCTAssertEqual(decoded.vector, sorted)
        XCTAssertEqual(decoded.machineName, "desk")
        XCTAssertEqual(decoded.written, 9)
    }

    func testAnUnsortedADuplicatedOrAnOwnMarkIsRefused() throws {
        let two = marks(2)
        var swapped = RecordCodec.encode(record(vector: two))
        let first = Array(swapped[vectorStart..<vectorStart + 56])
        swapped.replaceSubrange(vectorStart..<vectorStart + 56, with: swapped[vectorStart + 56..<vectorStart + 112])
        swapped.replaceSubrange(vectorStart + 56..<vectorStart + 112, with: first)
        XCTAssertThrowsError(try RecordCodec.decode(swapped, machine: machine, seq: 2))
        let duplicate = RecordCodec.encode(record(vector: [two[0], two[0]]))
        XCTAssertThrowsError(try RecordCodec.decode(duplicate, machine: machine, seq: 2))
        let own = RecordCodec.encode(record(vector: [LogMark(machine: machine, seq: 1, hash: two[0].hash)]))
        XCTAssertThrowsError(try RecordCodec.decode(own, machine: machine, seq: 2))
    }

    func testTrailingBytesAFormatOneKeyOperationAndAnUnknownVersionAreRefused() throws {
        let bytes = RecordCodec.encode(record())
        XCTAssertNoThrow(try RecordCodec.decode(bytes, machine: machine, seq: 2))
        XCTAssertThrowsError(try RecordCodec.decode(bytes + [0], machine: machine, seq: 2))
        XCTAssertThrowsError(try RecordCodec.decode(Array(bytes.dropLast()), machine: machine, seq: 2))
        var version = bytes
        version[0] = 1
        XCTAssertThrowsError(try RecordCodec.decode(version, machine: machine, seq: 2))
        // The op count (one delete) becomes two, the second op 3 with an empty body.
        var keys = bytes
        let countAt = vectorStart
        keys[countAt + 3] = 2
        keys += [3, 0, 0]
        XCTAssertThrowsError(try RecordCodec.decode(keys, machine: machine, seq: 2))
    }

    func testAFileWithTrailingBytesInsideItsSealIsRefusedOnOpening() throws {
        let vaultID = UUID()
        let key = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 1, vaultID: vaultID)
        let signer = try SigningKeyPair.generate()
        let file = try SignedSealedFile.seal(
            prefix: RecordCodec.prefix(vaultID: vaultID, machine: machine, seq: 2, keyID: key.id),
            plaintext: RecordCodec.encode(record()) + [0], key: key, signingKey: signer.secretKey,
            domain: RecordCodec.signatureDomain)
        XCTAssertTrue(RecordCodec.signatureIsValid(file, publicKey: signer.publicKey))
        XCTAssertThrowsError(
            try RecordCodec.open(file, vaultID: vaultID, machine: machine, seq: 2, keys: SyncKeyRing(current: key))
        ) { XCTAssertEqual($0 as? RecordError, .undecodable("unexpected trailing bytes")) }
    }

    func testAnIncompleteCopyIsToldFromAWholeRecord() throws {
        let vaultID = UUID()
        let key = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 1, vaultID: vaultID)
        let file = try RecordCodec.seal(
            record(), vaultID: vaultID, key: key, signingKey: try SigningKeyPair.generate().secretKey)
        XCTAssertFalse(RecordCodec.looksIncomplete(file))
        XCTAssertTrue(RecordCodec.looksIncomplete(Array(file.dropLast(64))))
        XCTAssertTrue(RecordCodec.looksIncomplete(Array(file.prefix(100))))
        XCTAssertTrue(RecordCodec.looksIncomplete([]))
        XCTAssertTrue(RecordCodec.looksIncomplete(Array("DSY".utf8)))
        XCTAssertFalse(RecordCodec.looksIncomplete(Array("hello".utf8)))
    }

    /// A put carries an entry with attachments as its version-3 plaintext (FORMAT.md §7.6,
    /// §12.2), up to the largest: the longest text with 255 records of the longest name and
    /// media type, which the limit before attachments (8 MiB + 70 000) refused.
    func testAPutOfTheLargestEntryWithAttachmentsDecodes() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let records = try (0..<255).map { n in
            AttachmentRecord(
                objectID: UUID(), streamKey: try SecretBytes(randomCount: 32), length: 4 << 30,
                storedHash: [UInt8](repeating: 1, count: 32), generation: 1,
                dedupHash: [UInt8](repeating: 2, count: 32), added: time,
                name: String(format: "%03d", n) + String(repeating: "é", count: 126),
                mediaType: "a/" + String(repeating: "b", count: 125))
        }
        let entry = Entry(
            id: UUID(), text: String(repeating: "x", count: Vault.maximumTextBytes), date: time, created: time,
            modified: time, starred: false, tags: [], attachments: records)
        var put = record()
        put.revisions = [Revision(entry: entry.id, id: UUID(), parents: [], content: entry)]
        let bytes = RecordCodec.encode(put)
        XCTAssertGreaterThan(SyncedEntryCodec.encode(entry).count, Vault.maximumTextBytes + 70_000)
        let decoded = try RecordCodec.decode(bytes, machine: machine, seq: 2)
        XCTAssertEqual(decoded.revisions.first?.content, entry)
        // One byte more than the limit is refused before it is read.
        let lengthAt = bytes.count - SyncedEntryCodec.encode(entry).count - 4
        var over = bytes
        over.replaceSubrange(
            lengthAt..<lengthAt + 4,
            with: withUnsafeBytes(of: UInt32(SyncedEntryCodec.maximumLength + 1).bigEndian, Array.init))
        XCTAssertThrowsError(try RecordCodec.decode(over, machine: machine, seq: 2)) {
            XCTAssertEqual($0 as? RecordError, .undecodable("field too large"))
        }
    }
}

/// Key ids of format 2: keyed by the record key, bound to the vault.
final class SyncKeyTests: XCTestCase {
    func testTheKeyIDIsTheKeyedHashOfTheVaultIDAndBindsKeyAndVault() throws {
        let vaultKey = try SecretBytes(randomCount: 32)
        let vaultID = UUID()
        let key = try SyncKey(vaultKey: vaultKey, generation: 1, vaultID: vaultID)
        XCTAssertEqual(key.id.count, 32)
        XCTAssertEqual(
            key.id,
            try BLAKE2b.keyedHash(Array("diary.sync.key-id.v2".utf8) + vaultID.bytes, key: key.recordKey))
        XCTAssertEqual(try SyncKey(vaultKey: vaultKey, generation: 1, vaultID: vaultID).id, key.id)
        XCTAssertNotEqual(try SyncKey(vaultKey: vaultKey, generation: 1, vaultID: UUID()).id, key.id)
        XCTAssertNotEqual(
            try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 1, vaultID: vaultID).id, key.id)
    }

    func testARetiredKeyHasTheSameIDAndNoVaultOrStateKey() throws {
        let vaultID = UUID()
        let current = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 3, vaultID: vaultID)
        let retired = try SyncKey(recordKey: current.recordKey, generation: 3, vaultID: vaultID)
        XCTAssertEqual(retired.id, current.id)
        XCTAssertNil(retired.vaultKey)
        XCTAssertNil(retired.stateKey)
        XCTAssertNotNil(current.stateKey)
        XCTAssertThrowsError(try SyncKey(recordKey: SecretBytes(randomCount: 16), generation: 3, vaultID: vaultID))
    }

    func testTheRingKeepsTheKeyThatOpensTheMostUnderOneID() throws {
        let vaultID = UUID()
        let current = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 2, vaultID: vaultID)
        let old = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 1, vaultID: vaultID)
        var ring = SyncKeyRing(current: current)
        try ring.add(SyncKey(recordKey: current.recordKey, generation: 2, vaultID: vaultID))
        XCTAssertNotNil(ring[current.id]?.vaultKey, "a retired copy does not hide the vault key")
        try ring.add(SyncKey(recordKey: old.recordKey, generation: 1, vaultID: vaultID))
        try ring.add(old)
        XCTAssertNotNil(ring[old.id]?.vaultKey, "the vault key replaces a retired copy")
        XCTAssertEqual(ring.all.map(\.generation), [1, 2])
    }
}
