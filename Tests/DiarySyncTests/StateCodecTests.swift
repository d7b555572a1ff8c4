import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// The sealed sync state reads back as written, whatever it holds.
final class StateCodecTests: XCTestCase {
    func testStateWithEveryFieldReadsBackAsWritten() throws {
        var main = SyncMain(machine: UUID(), machineName: "laptop")
        main.lamport = 17
        main.remoteCommit = String(repeating: "ab", count: 20)
        main.adoptedKeyChange = KeyChangeID(generation: 2, lamport: 9, machine: UUID(), seq: 4)
        main.keys = [(1, try SecretBytes(randomCount: 32)), (2, try SecretBytes(randomCount: 32))]
        // A page sync wrote but must look at again is recorded as `unknownTag` (an empty tag
        // here once shifted every later field and made the state unreadable).
        main.indexTags = [[UInt8](repeating: 0, count: 16), StateCodec.unknownTag, [UInt8](repeating: 3, count: 16)]
        let other = UUID()
        main.logs[other] = LogState(
            name: "desktop", seen: 2,
            records: [
                RecordSeen(
                    hash: [UInt8](repeating: 5, count: RecordCodec.hashLength),
                    stat: FileStamp(size: 900, inode: 12, modified: -3, changed: 7))
            ])
        main.conflicts = [UUID()]
        main.pendingKeyChange = KeyChange(
            headers: [.files: [1, 2, 3]], retired: [(1, try SecretBytes(randomCount: 32))])

        let read = try StateCodec.decode(StateCodec.encode(main))
        XCTAssertEqual(read.machine, main.machine)
        XCTAssertEqual(read.lamport, 17)
        XCTAssertEqual(read.remoteCommit, main.remoteCommit)
        XCTAssertEqual(read.adoptedKeyChange, main.adoptedKeyChange)
        XCTAssertEqual(read.keys.map(\.generation), [1, 2])
        XCTAssertEqual(read.indexTags, main.indexTags)
        XCTAssertEqual(read.logs, main.logs)
        XCTAssertEqual(read.conflicts, main.conflicts)
        XCTAssertEqual(read.pendingKeyChange?.headers, main.pendingKeyChange?.headers)
        XCTAssertEqual(read.pendingKeyChange?.retired.map(\.generation), [1])
    }

    func testAStateWrittenBeforeTheHeaderDigestExistedStillReads() throws {
        var main = SyncMain(machine: UUID(), machineName: "laptop")
        main.headerDigest = []
        let current = StateCodec.encode(main)
        // The field is the last byte (length 0): without it, the state of the version before.
        let read = try StateCodec.decode(Array(current.dropLast()))
        XCTAssertEqual(read.machine, main.machine)
        XCTAssertEqual(read.headerDigest, [])
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
        var main = SyncMain(machine: UUID(), machineName: "laptop")
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
