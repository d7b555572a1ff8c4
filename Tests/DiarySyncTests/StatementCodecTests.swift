import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

final class StatementCodecTests: XCTestCase {
    let vaultID = UUID()
    let author = try! SigningKeyPair.generate()
    let authorID = UUID()

    private func key(_ generation: UInt32 = 2) throws -> SyncKey {
        try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: generation, vaultID: vaultID)
    }

    private func members(_ extra: Int = 1) throws -> [Member] {
        var list = [Member(machine: authorID, publicKey: author.publicKey, name: "laptop")]
        for n in 0..<extra {
            list.append(Member(machine: UUID(), publicKey: try SigningKeyPair.generate().publicKey, name: "desk \(n)"))
        }
        return list.sorted { $0.machine.precedes($1.machine) }
    }

    private func rekey(under k: SyncKey, retiring old: SyncKey) throws -> Statement {
        Statement(
            seq: 7, author: authorID, keyID: k.id, previous: [UInt8](repeating: 5, count: 32), kind: .rekey,
            generation: k.generation, members: try members(2),
            headerHashes: [.sqlite: [UInt8](repeating: 1, count: 32), .files: [UInt8](repeating: 2, count: 32)],
            cuts: [LogMark(machine: authorID, seq: 3, hash: [UInt8](repeating: 6, count: 32))],
            retired: [RetiredKey(generation: old.generation, keyID: old.id, recordKey: old.recordKey)])
    }

    private func seal(_ statement: Statement, key k: SyncKey) throws -> [UInt8] {
        try StatementCodec.seal(statement, vaultID: vaultID, key: k, signingKey: author.secretKey)
    }

    private func assertRefused(
        _ expression: @autoclosure () throws -> Any, _ expected: RecordError, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), line: line) { XCTAssertEqual($0 as? RecordError, expected, line: line) }
    }

    func testASealedStatementOpensToWhatWasSealedAndItsRetiredKeyOpensOldFiles() throws {
        let old = try key(1)
        let k = try key(2)
        let statement = try rekey(under: k, retiring: old)
        let file = try seal(statement, key: k)
        let opened = try StatementCodec.open(file, vaultID: vaultID, key: k)
        XCTAssertEqual(opened.seq, 7)
        XCTAssertEqual(opened.author, authorID)
        XCTAssertEqual(opened.keyID, k.id)
        XCTAssertEqual(opened.previous, statement.previous)
        XCTAssertEqual(opened.kind, .rekey)
        XCTAssertEqual(opened.generation, 2)
        XCTAssertEqual(opened.members, statement.members)
        XCTAssertEqual(opened.headerHashes, statement.headerHashes)
        XCTAssertEqual(opened.cuts, statement.cuts)
        XCTAssertEqual(opened.retired.map(\.keyID), [old.id])
        XCTAssertEqual(opened.retired.first?.recordKey, old.recordKey)
        XCTAssertNil(
            Data(file).range(of: Data(old.recordKey.withUnsafeBytes { Array($0) })), "retired keys only sealed")
        XCTAssertEqual(StatementCodec.hash(file), BLAKE2b.hash(file))
    }

    func testTheLayoutIsTheDesignsByteForByte() throws {
        let k = try key()
        let file = try seal(try rekey(under: k, retiring: try key(1)), key: k)
        XCTAssertEqual(Array(file[0..<8]), Array("DSYNCSTM".utf8))
        XCTAssertEqual(file[8], 2)
        XCTAssertEqual(Array(file[9..<25]), vaultID.bytes)
        XCTAssertEqual(Array(file[25..<33]), [0, 0, 0, 0, 0, 0, 0, 7])
        XCTAssertEqual(Array(file[33..<49]), authorID.bytes)
        XCTAssertEqual(Array(file[49..<81]), k.id)
        XCTAssertTrue(LengthPadding.isBucketSize(file.count - 105 - 16 - 64))
        let signed = Array("diary.sync.statement.v2\0".utf8) + file[0..<(file.count - 64)]
        XCTAssertTrue(Ed25519.verify(Array(file.suffix(64)), message: signed, publicKey: author.publicKey))
        let clear = try StatementCodec.peek(Array(file[0..<81]))
        XCTAssertEqual(clear.vaultID, vaultID)
        XCTAssertEqual(clear.seq, 7)
        XCTAssertEqual(clear.author, authorID)
        XCTAssertEqual(clear.keyID, k.id)
    }

    func testTheBodyIsTheDesignsByteForByte() throws {
        let k = try key()
        let old = try key(1)
        let statement = try rekey(under: k, retiring: old)
        var w = ByteWriter()
        w.u8(1)
        w.append(statement.previous)
        w.u8(2)
        w.u32(2)
        w.u8(0)
        w.u16(3)
        for m in statement.members {
            w.uuid(m.machine)
            w.append(m.publicKey)
            w.string16(m.name)
        }
        w.u8(2)
        w.string16("files")
        w.append([UInt8](repeating: 2, count: 32))
        w.string16("sqlite")
        w.append([UInt8](repeating: 1, count: 32))
        w.u16(1)
        w.uuid(authorID)
        w.u64(3)
        w.append([UInt8](repeating: 6, count: 32))
        w.u8(1)
        w.u32(1)
        w.append(old.id)
        old.recordKey.withUnsafeBytes { w.append(Array($0)) }
        XCTAssertEqual(StatementCodec.encode(statement), w.bytes)
    }

    func testTheSignatureVerifiesUnderTheAuthorsKeyOnlyAndAnyFlippedByteBreaksIt() throws {
        let k = try key()
        let file = try seal(try rekey(under: k, retiring: try key(1)), key: k)
        XCTAssertTrue(StatementCodec.signatureIsValid(file, publicKey: author.publicKey))
        XCTAssertFalse(StatementCodec.signatureIsValid(file, publicKey: try SigningKeyPair.generate().publicKey))
        XCTAssertFalse(RecordCodec.signatureIsValid(file, publicKey: author.publicKey), "a record's label differs")
        for i in Array(stride(from: 0, to: file.count, by: max(1, file.count / 200))) + [file.count - 1] {
            var bad = file
            bad[i] ^= 0x04
            XCTAssertFalse(StatementCodec.signatureIsValid(bad, publicKey: author.publicKey), "byte \(i)")
            if i < file.count - 64 {
                XCTAssertThrowsError(try StatementCodec.open(bad, vaultID: vaultID, key: k), "byte \(i)")
            }
        }
    }

    func testBadMagicVersionVaultKeyAndLengthAreNamed() throws {
        let k = try key()
        let file = try seal(try rekey(under: k, retiring: try key(1)), key: k)
        var magic = file
        magic[7] = UInt8(ascii: "C")
        assertRefused(try StatementCodec.peek(magic), .notARecord)
        var version = file
        version[8] = 1
        assertRefused(try StatementCodec.open(version, vaultID: vaultID, key: k), .unsupportedVersion(1))
        assertRefused(try StatementCodec.open(file, vaultID: UUID(), key: k), .otherVault(vaultID))
        assertRefused(try StatementCodec.open(file, vaultID: vaultID, key: try key()), .unknownKey)
        assertRefused(try StatementCodec.open(file + [0], vaultID: vaultID, key: k), .badLength)
        assertRefused(try StatementCodec.open(Array(file.dropLast(64)), vaultID: vaultID, key: k), .badLength)
        let record = try RecordCodec.seal(
            SyncRecord(
                machine: authorID, seq: 7, previous: [UInt8](repeating: 0, count: 32), lamport: 1, machineName: ""),
            vaultID: vaultID, key: k, signingKey: author.secretKey)
        assertRefused(try StatementCodec.open(record, vaultID: vaultID, key: k), .notARecord)
    }
}
