import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// What a statement body must be to be read at all: the codec's strictness, apart from the
/// chain's rules of succession.
final class StatementBodyTests: XCTestCase {
    let vaultID = UUID()
    let keyID = [UInt8](repeating: 0xAB, count: 32)

    private struct Body {
        var kind: UInt8 = 4
        var superseded: [[UInt8]] = []
        var members: [(UUID, [UInt8], String)] = [
            (UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, [UInt8](repeating: 1, count: 32), "a"),
            (UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, [UInt8](repeating: 2, count: 32), "b"),
        ]
        var stores: [String] = ["files", "sqlite"]
        var retired: [(UInt32, [UInt8], [UInt8])] = []
        var trailing: [UInt8] = []

        var bytes: [UInt8] {
            var w = ByteWriter()
            w.u8(1)
            w.append([UInt8](repeating: 9, count: 32))
            w.u8(kind)
            w.u32(3)
            w.u8(UInt8(superseded.count))
            for tip in superseded { w.append(tip) }
            w.u16(UInt16(members.count))
            for (machine, key, name) in members {
                w.uuid(machine)
                w.append(key)
                w.string16(name)
            }
            w.u8(UInt8(stores.count))
            for store in stores {
                w.string16(store)
                w.append([UInt8](repeating: 3, count: 32))
            }
            w.u16(0)
            w.u8(UInt8(retired.count))
            for (generation, id, key) in retired {
                w.u32(generation)
                w.append(id)
                w.append(key)
            }
            w.append(trailing)
            return w.bytes
        }
    }

    private func decode(_ body: Body, seq: UInt64 = 4) throws -> Statement {
        try StatementCodec.decode(body.bytes, seq: seq, author: UUID(), keyID: keyID, vaultID: vaultID)
    }

    func testAWellFormedBodyDecodes() throws {
        let statement = try decode(Body())
        XCTAssertEqual(statement.kind, .admit)
        XCTAssertEqual(statement.members.map(\.name), ["a", "b"])
        XCTAssertEqual(Set(statement.headerHashes.keys), [.files, .sqlite])
    }

    func testUnsortedOrDuplicateMembersAndNoMembersAreRefused() {
        var body = Body()
        body.members.reverse()
        XCTAssertThrowsError(try decode(body))
        body.members = [Body().members[0], Body().members[0]]
        XCTAssertThrowsError(try decode(body))
        body.members = []
        XCTAssertThrowsError(try decode(body))
    }

    func testUnknownKindsAndGenesisOutOfPlaceAreRefused() {
        for kind: UInt8 in [0, 7, 255] {
            var body = Body()
            body.kind = kind
            XCTAssertThrowsError(try decode(body), "kind \(kind)")
        }
        var genesis = Body()
        genesis.kind = 1
        XCTAssertNoThrow(try decode(genesis, seq: 0))
        XCTAssertThrowsError(try decode(genesis, seq: 1))
        XCTAssertThrowsError(try decode(Body(), seq: 0))
    }

    func testSupersededTipsBelongToASettleAlone() {
        var settle = Body()
        settle.kind = 6
        XCTAssertThrowsError(try decode(settle))
        settle.superseded = [[UInt8](repeating: 4, count: 32)]
        XCTAssertNoThrow(try decode(settle))
        var admit = Body()
        admit.superseded = settle.superseded
        XCTAssertThrowsError(try decode(admit))
    }

    func testStoreNamesAreKnownSortedAndUnique() {
        for stores in [["sqlite", "files"], ["files", "files"], ["sqlite", "sqlite"], ["tape"], ["Files"]] {
            var body = Body()
            body.stores = stores
            XCTAssertThrowsError(try decode(body), "\(stores)")
        }
        var one = Body()
        one.stores = ["sqlite"]
        XCTAssertNoThrow(try decode(one))
    }

    func testARetiredKeyMustHashToItsKeyID() throws {
        let retired = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 2, vaultID: vaultID)
        let raw = retired.recordKey.withUnsafeBytes { Array($0) }
        var body = Body()
        body.retired = [(2, retired.id, raw)]
        XCTAssertEqual(try decode(body).retired.first?.keyID, retired.id)
        body.retired = [(2, retired.id, raw), (2, retired.id, raw)]
        XCTAssertThrowsError(try decode(body), "listed twice")
        body.retired = [(2, [UInt8](repeating: 1, count: 32), raw)]
        XCTAssertThrowsError(try decode(body), "another key's id")
        let otherVault = try SyncKey(recordKey: retired.recordKey, generation: 2, vaultID: UUID())
        body.retired = [(2, otherVault.id, raw)]
        XCTAssertThrowsError(try decode(body), "another vault's id")
    }

    func testTrailingAndMissingBytesAreRefused() {
        var body = Body()
        body.trailing = [0]
        XCTAssertThrowsError(try decode(body))
        XCTAssertThrowsError(
            try StatementCodec.decode(
                Array(Body().bytes.dropLast()), seq: 4, author: UUID(), keyID: keyID, vaultID: vaultID))
        var version = Body().bytes
        version[0] = 2
        XCTAssertThrowsError(try StatementCodec.decode(version, seq: 4, author: UUID(), keyID: keyID, vaultID: vaultID))
    }

    func testChainNamesAreTwelveDigitsADashAndTheAuthorsLowercaseHex() throws {
        let author = try XCTUnwrap(UUID(uuidString: "0123ABCD-0000-4000-8000-00000000FFEE"))
        XCTAssertEqual(
            RemoteLayout.statementPath(seq: 0, author: author), "chain/000000000000-0123abcd00004000800000000000ffee")
        let read = try XCTUnwrap(RemoteLayout.statement(fromName: "000000000042-0123abcd00004000800000000000ffee"))
        XCTAssertEqual(read.seq, 42)
        XCTAssertEqual(read.author, author)
        for bad in [
            "00000000042-0123abcd00004000800000000000ffee", "0000000000042-0123abcd00004000800000000000ffee",
            "000000000042-0123ABCD00004000800000000000FFEE", "000000000042_0123abcd00004000800000000000ffee",
            "000000000042-0123abcd000040008000000000ffee", "000000000042-0123abcd000040008000000000ffee-x",
            "+00000000042-0123abcd000040008000000000ffee", "000000000042-0123abcd000040008000000000ffee.tmp",
        ] {
            XCTAssertNil(RemoteLayout.statement(fromName: bad), bad)
        }
    }
}
