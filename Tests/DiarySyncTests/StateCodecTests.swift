import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// The sealed sync state reads back as written, whatever it holds.
final class StateCodecTests: XCTestCase {
    private func newMain() throws -> SyncMain {
        SyncMain(machine: UUID(), machineName: "laptop", signingKey: try SigningKeyPair.generate().secretKey)
    }

    func testStateWithEveryFieldReadsBackAsWritten() throws {
        var main = try newMain()
        main.lamport = 17
        main.remoteCommit = String(repeating: "ab", count: 20)
        let member = Member(machine: main.machine, publicKey: [UInt8](repeating: 7, count: 32), name: "laptop")
        var statement = AcceptedStatement(
            Statement(
                seq: 3, author: main.machine, keyID: [UInt8](repeating: 1, count: 32),
                previous: [UInt8](repeating: 2, count: 32), kind: .remove, generation: 4, members: [member],
                headerHashes: [.files: [UInt8](repeating: 3, count: 32), .sqlite: [UInt8](repeating: 4, count: 32)],
                cuts: [LogMark(machine: UUID(), seq: 9, hash: [UInt8](repeating: 5, count: 32))]),
            hash: [UInt8](repeating: 6, count: 32))
        statement.superseded = true
        main.chain.statements = [statement]
        main.recordKeys = [
            RetiredKey(
                generation: 1, keyID: [UInt8](repeating: 8, count: 32), recordKey: try SecretBytes(randomCount: 32))
        ]
        // A page sync wrote but must look at again is recorded as `unknownTag` (an empty tag
        // here once shifted every later field and made the state unreadable).
        main.indexTags = [[UInt8](repeating: 0, count: 16), StateCodec.unknownTag, [UInt8](repeating: 3, count: 16)]
        let other = UUID()
        var log = LogState(
            name: "desktop", seen: 1,
            records: [
                RecordSeen(
                    hash: [UInt8](repeating: 5, count: RecordCodec.hashLength),
                    stat: FileStamp(size: 900, inode: 12, modified: -3, changed: 7))
            ])
        log.lamport = 12
        log.written = 1_700_000_000
        log.heard = 1_700_000_100
        main.logs[other] = log
        main.conflicts = [UUID()]
        main.pendingChange = PendingChange(
            kind: .remove, headers: [.files: [1, 2, 3]], retired: main.recordKeys, removing: other)
        main.pendingRevisions = [Revision(entry: UUID(), id: UUID(), parents: [UUID()], content: nil)]
        main.invites = [
            Invite(
                id: [UInt8](repeating: 9, count: 8), secret: try SecretBytes(randomCount: 16),
                head: [UInt8](repeating: 6, count: 32), name: "phone", created: 1_700_000_000)
        ]
        main.headerDigest = [UInt8](repeating: 4, count: 16)

        let read = try StateCodec.decode(StateCodec.encode(main))
        XCTAssertEqual(read.machine, main.machine)
        XCTAssertEqual(read.signingKey, main.signingKey)
        XCTAssertEqual(read.lamport, 17)
        XCTAssertEqual(read.remoteCommit, main.remoteCommit)
        XCTAssertEqual(read.chain, main.chain)
        XCTAssertEqual(read.recordKeys.map(\.keyID), main.recordKeys.map(\.keyID))
        XCTAssertEqual(read.indexTags, main.indexTags)
        XCTAssertEqual(read.logs, main.logs)
        XCTAssertEqual(read.conflicts, main.conflicts)
        XCTAssertEqual(read.pendingChange?.headers, main.pendingChange?.headers)
        XCTAssertEqual(read.pendingChange?.removing, other)
        XCTAssertEqual(read.pendingChange?.retired.map(\.generation), [1])
        XCTAssertEqual(read.pendingRevisions, main.pendingRevisions)
        XCTAssertEqual(read.invites.map(\.name), ["phone"])
        XCTAssertEqual(read.invites.first?.secret, main.invites.first?.secret)
        XCTAssertEqual(read.headerDigest, main.headerDigest)
    }

    /// A state of sync format 1 is recognised as such (a remote to upgrade, or to join again),
    /// never misread.
    func testAStateOfFormatOneIsRecognised() throws {
        var bytes = StateCodec.encode(try newMain())
        bytes[0] = 1
        XCTAssertThrowsError(try StateCodec.decode(bytes)) { XCTAssertEqual($0 as? SyncError, .stateOfFormat1) }
    }

    /// Following another machine's rotation re-seals the state mid-sync: what the sync has
    /// read but not yet shown in the vault must not be saved then, or a sync cut short would
    /// count those records as taken in (they were lost for good).
    func testResealingOnDiskKeepsTheStateAsItWasBeforeTheSync() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let vaultID = UUID()
        let old = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 1, vaultID: vaultID)
        let new = try SyncKey(vaultKey: SecretBytes(randomCount: 32), generation: 2, vaultID: vaultID)
        let entry = UUID()
        let store = StateStore(directory: directory, vaultID: vaultID, key: old)
        var main = try newMain()
        main.lamport = 5
        try store.writeMain(main)
        try store.setEntry(entry, EntryHeads())
        try store.flushPages()

        // Mid-sync: more read in memory, then the rotation's reseal.
        main.lamport = 9
        var heads = EntryHeads()
        heads.awaited = [UUID()]
        try store.setEntry(entry, heads)
        try store.resealOnDisk(under: new)

        let reopened = StateStore(directory: directory, vaultID: vaultID, key: new)
        XCTAssertEqual(try reopened.readMain().lamport, 5)
        XCTAssertEqual(try reopened.entry(entry)?.awaited, [])
        XCTAssertThrowsError(try StateStore(directory: directory, vaultID: vaultID, key: old).readMain())
        // The sync goes on under the new key and saves what it did.
        try store.setEntry(entry, heads)
        try store.flushPages()
        try store.writeMain(main)
        let saved = StateStore(directory: directory, vaultID: vaultID, key: new)
        XCTAssertEqual(try saved.readMain().lamport, 9)
        XCTAssertEqual(try saved.entry(entry)?.awaited, heads.awaited)
    }
}
