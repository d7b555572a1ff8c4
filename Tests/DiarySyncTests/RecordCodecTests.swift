import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

final class RecordCodecTests: XCTestCase {
    let vaultID = UUID()
    let machine = UUID()
    let signer = try! SigningKeyPair.generate()

    private func key(_ generation: UInt32 = 1) throws -> SyncKey {
        try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: generation, vaultID: vaultID)
    }

    private func sample(seq: UInt64 = 3) -> SyncRecord {
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        let entry = Entry(
            id: UUID(), text: "Heron\nat dawn", date: now, created: now, modified: now,
            starred: true, tags: ["walk"])
        let others = [UUID(), UUID()].sorted { $0.precedes($1) }
        return SyncRecord(
            machine: machine, seq: seq, previous: [UInt8](repeating: 7, count: 32), lamport: 42, machineName: "laptop",
            written: 1_700_000_123, epochSeq: 4, epochHash: [UInt8](repeating: 9, count: 32),
            vector: [
                LogMark(machine: others[0], seq: 5, hash: [UInt8](repeating: 1, count: 32)),
                LogMark(machine: others[1], seq: 1, hash: [UInt8](repeating: 2, count: 32)),
            ],
            revisions: [
                Revision(entry: entry.id, id: UUID(), parents: [UUID(), UUID()], content: entry),
                Revision(entry: UUID(), id: UUID(), parents: [UUID()], content: nil),
            ])
    }

    private func seal(_ record: SyncRecord, key k: SyncKey) throws -> [UInt8] {
        try RecordCodec.seal(record, vaultID: vaultID, key: k, signingKey: signer.secretKey)
    }

    private func open(_ file: [UInt8], seq: UInt64 = 3, key k: SyncKey) throws(RecordError) -> SyncRecord {
        try RecordCodec.open(file, vaultID: vaultID, machine: machine, seq: seq, keys: SyncKeyRing(current: k))
    }

    private func assertRefused(
        _ expression: @autoclosure () throws -> Any, _ expected: RecordError, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) { XCTAssertEqual($0 as? RecordError, expected, line: line) }
    }

    func testASealedRecordOpensToWhatWasSealed() throws {
        let k = try key()
        let record = sample()
        let opened = try open(try seal(record, key: k), key: k)
        XCTAssertEqual(opened.revisions, record.revisions)
        XCTAssertEqual(opened.lamport, 42)
        XCTAssertEqual(opened.previous, record.previous)
        XCTAssertEqual(opened.machineName, "laptop")
        XCTAssertEqual(opened.written, 1_700_000_123)
        XCTAssertEqual(opened.epochSeq, 4)
        XCTAssertEqual(opened.epochHash, record.epochHash)
        XCTAssertEqual(opened.vector, record.vector)
        XCTAssertNil(opened.join)
        XCTAssertEqual(opened.keyID, k.id)
    }

    func testTheLayoutIsTheDesignsByteForByte() throws {
        let k = try key()
        let file = try seal(sample(), key: k)
        XCTAssertEqual(Array(file[0..<8]), Array("DSYNCREC".utf8))
        XCTAssertEqual(file[8], 2)
        XCTAssertEqual(Array(file[9..<25]), vaultID.bytes)
        XCTAssertEqual(Array(file[25..<41]), machine.bytes)
        XCTAssertEqual(Array(file[41..<49]), [0, 0, 0, 0, 0, 0, 0, 3])
        XCTAssertEqual(Array(file[49..<81]), k.id)
        XCTAssertEqual(k.id.count, 32)
        let bucket = file.count - 105 - 16 - 64
        XCTAssertTrue(LengthPadding.isBucketSize(bucket))
        XCTAssertEqual(
            try XChaCha20Poly1305.open(
                Array(file[105..<(file.count - 64)]), key: k.recordKey, nonce: Array(file[81..<105]),
                associatedData: Array(file[0..<81])
            ).count, bucket)
        let signed = Array("diary.sync.record.v2\0".utf8) + file[0..<(file.count - 64)]
        XCTAssertTrue(Ed25519.verify(Array(file.suffix(64)), message: signed, publicKey: signer.publicKey))
        XCTAssertEqual(try RecordCodec.peek(Array(file[0..<81])).keyID, k.id, "the prefix alone is enough to peek")
    }

    func testTheSignatureVerifiesUnderTheWritersKeyOnly() throws {
        let file = try seal(sample(), key: try key())
        XCTAssertTrue(RecordCodec.signatureIsValid(file, publicKey: signer.publicKey))
        XCTAssertFalse(RecordCodec.signatureIsValid(file, publicKey: try SigningKeyPair.generate().publicKey))
        // A statement's signature over the same bytes is another message.
        XCTAssertFalse(StatementCodec.signatureIsValid(file, publicKey: signer.publicKey))
    }

    func testEveryFlippedByteBreaksTheSignatureAndAllButTheSignatureBreakTheOpening() throws {
        let k = try key()
        let file = try seal(sample(), key: k)
        for i in Array(stride(from: 0, to: file.count, by: max(1, file.count / 300))) + [file.count - 1] {
            var bad = file
            bad[i] ^= 0x20
            XCTAssertFalse(RecordCodec.signatureIsValid(bad, publicKey: signer.publicKey), "byte \(i)")
            if i < file.count - 64 {
                XCTAssertThrowsError(try open(bad, key: k), "byte \(i)")
            }
        }
    }

    func testARecordInAnotherPlaceOrVaultOrUnderAnUnknownKeyIsNamedSo() throws {
        let k = try key()
        let file = try seal(sample(), key: k)
        let ring = SyncKeyRing(current: k)
        assertRefused(try RecordCodec.open(file, vaultID: vaultID, machine: machine, seq: 4, keys: ring), .wrongPlace)
        assertRefused(try RecordCodec.open(file, vaultID: vaultID, machine: UUID(), seq: 3, keys: ring), .wrongPlace)
        assertRefused(
            try RecordCodec.open(file, vaultID: UUID(), machine: machine, seq: 3, keys: ring), .otherVault(vaultID))
        assertRefused(try open(file, key: try key()), .unknownKey)
    }

    func testBadMagicAFormatOneRecordAndBadLengthsAreRefused() throws {
        let k = try key()
        let file = try seal(sample(), key: k)
        var magic = file
        magic[0] = UInt8(ascii: "X")
        assertRefused(try open(magic, key: k), .notARecord)
        assertRefused(try RecordCodec.peek(Array(file[0..<80])), .notARecord)
        var formatOne = file
        formatOne[8] = 1
        assertRefused(try RecordCodec.peek(formatOne), .unsupportedVersion(1))
        assertRefused(try open(formatOne, key: k), .unsupportedVersion(1))
        assertRefused(try open(file + [0], key: k), .badLength)
        assertRefused(try open(Array(file.dropLast()), key: k), .badLength)
        assertRefused(try open(Array(file.dropLast(64)), key: k), .badLength)
        assertRefused(try open(Array(file[0..<(105 + 512 + 16 + 63)]), key: k), .badLength)
    }

    func testLamportOutsideOneToTwoToTheSixtySecondIsRefused() throws {
        let k = try key()
        for lamport: UInt64 in [0, (1 << 62) + 1, .max] {
            var record = sample()
            record.lamport = lamport
            assertRefused(try open(try seal(record, key: k), key: k), .lamportOutOfRange)
        }
        var record = sample()
        record.lamport = 1 << 62
        XCTAssertEqual(try open(try seal(record, key: k), key: k).lamport, 1 << 62)
        record.lamport = 1
        XCTAssertEqual(try open(try seal(record, key: k), key: k).lamport, 1)
    }

    func testAJoinIsTheOnlyOperationOfRecordOne() throws {
        let k = try key()
        let join = JoinRequest(
            publicKey: signer.publicKey, inviteID: [UInt8](repeating: 3, count: 8),
            proof: [UInt8](repeating: 4, count: 32))
        var record = sample(seq: 1)
        record.revisions = []
        record.vector = []
        record.join = join
        XCTAssertEqual(try open(try seal(record, key: k), seq: 1, key: k).join, join)
        var notFirst = record
        notFirst.seq = 2
        XCTAssertThrowsError(try open(try seal(notFirst, key: k), seq: 2, key: k))
        var notAlone = sample(seq: 1)
        notAlone.join = join
        XCTAssertThrowsError(try open(try seal(notAlone, key: k), seq: 1, key: k))
    }
}
