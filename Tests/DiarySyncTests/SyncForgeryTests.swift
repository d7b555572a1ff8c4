import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// What someone who holds old keys, an old passphrase or the remote's files can do against the
/// chain and the logs (issue 21, items 1–3 and 6): forge nothing that a machine shows.
final class SyncForgeryTests: VaultTestCase {
    private var machines: SyncTestMachines!

    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
    }

    /// The attacker's record: sealed under `key`, signed with a key of the attacker's own.
    private func forgedRecord(
        machine: UUID, seq: UInt64, previous: [UInt8], key: SyncKey, epoch: AcceptedStatement, deleting entry: UUID,
        parent: UUID
    ) throws -> [UInt8] {
        let record = SyncRecord(
            machine: machine, seq: seq, previous: previous, lamport: 1 << 40, machineName: "laptop", written: 0,
            epochSeq: epoch.seq, epochHash: epoch.hash, vector: [],
            revisions: [Revision(entry: entry, id: UUID(), parents: [parent], content: nil)], join: nil)
        return try RecordCodec.seal(
            record, vaultID: machines["laptop"].id, key: key, signingKey: try SigningKeyPair.generate().secretKey)
    }

    private func assertRefused(_ machine: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try machines.sync(machine), file: file, line: line) { error in
            guard case SyncError.untrustedRemote = error else {
                return XCTFail("expected a refusal, got \(error)", file: file, line: line)
            }
        }
    }

    /// Item 1: after `passwd` then `rekey`, the old passphrase opens the old header (kept in
    /// git history), and so the retired key: a record under it, in a log of its own or appended
    /// to a real machine's log, is refused, and the entry it deletes stays everywhere.
    func testARetiredKeyWritesNothing() throws {
        let ids = try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let laptop = machines["laptop"]
        let retired = try SyncKey(vaultKey: laptop.vaultKey, generation: laptop.keyGeneration, vaultID: laptop.id)
        try machines.changePassphrase("laptop", to: "new horse battery")
        try machines.rekey("laptop")
        try machines.sync("laptop")
        try machines.sync("desktop", passphrase: "new horse battery")
        let main = try machines.main("laptop")
        let head = try XCTUnwrap(main.chain.head)
        let parent = try XCTUnwrap(
            try SyncEngine(vault: machines["laptop"], stateDirectory: machines.state("laptop")).store.entry(ids[0])?
                .shown)

        let stranger = UUID()
        let forged = try forgedRecord(
            machine: stranger, seq: 1, previous: [UInt8](repeating: 0, count: 32), key: retired, epoch: head,
            deleting: ids[0], parent: parent)
        try FileManager.default.createDirectory(
            at: machines.remoteRoot.appendingPathComponent("log/\(RemoteLayout.hex(stranger))"),
            withIntermediateDirectories: true)
        try Data(forged).write(
            to: machines.remoteRoot.appendingPathComponent(RemoteLayout.recordPath(machine: stranger, seq: 1)))
        assertRefused("desktop")
        XCTAssertEqual(try machines.texts("desktop"), ["kept"])
    }

    /// Item 1, the other way: appended to the laptop's own log, with the right previous hash,
    /// under the current key, signed by anyone but the laptop.
    func testARecordAppendedToAnotherMachinesLogIsRefused() throws {
        let ids = try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let laptop = machines["laptop"]
        let main = try machines.main("laptop")
        let log = try XCTUnwrap(main.logs[main.machine])
        let key = try SyncKey(vaultKey: laptop.vaultKey, generation: laptop.keyGeneration, vaultID: laptop.id)
        let parent = try XCTUnwrap(
            try SyncEngine(vault: laptop, stateDirectory: machines.state("laptop")).store.entry(ids[0])?.shown)
        let forged = try forgedRecord(
            machine: main.machine, seq: log.seen + 1, previous: log.records.last!.hash, key: key,
            epoch: try XCTUnwrap(main.chain.head), deleting: ids[0], parent: parent)
        try Data(forged).write(
            to: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.recordPath(machine: main.machine, seq: log.seen + 1)))
        assertRefused("desktop")
        XCTAssertEqual(try machines.texts("desktop"), ["kept"])
    }

    /// Item 2: a key change claiming a huge generation, sealed under a key of the attacker's and
    /// published with a header that the old passphrase opens, is refused before any key
    /// derivation; the real published headers stay.
    func testAForgedKeyChangeIsRefusedAndTheRealHeadersStay() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let main = try machines.main("laptop")
        let head = try XCTUnwrap(main.chain.head)
        let attackerVault = try makeVault(.sqlite, name: "attacker", passphrase: "correct horse")
        let key = try SyncKey(vaultKey: attackerVault.vaultKey, generation: 0xFFFF_FFFE, vaultID: machines["laptop"].id)
        let forged = Statement(
            seq: head.seq + 1, author: main.machine, keyID: key.id, previous: head.hash, kind: .rekey,
            generation: 0xFFFF_FFFE, members: head.members, headerHashes: head.headerHashes,
            retired: [RetiredKey(generation: 1, keyID: head.keyID, recordKey: key.recordKey)])
        let sealed = try StatementCodec.seal(
            forged, vaultID: machines["laptop"].id, key: key, signingKey: try SigningKeyPair.generate().secretKey)
        let headersBefore = try FileManager.default.contentsOfDirectory(
            atPath: machines.remoteRoot.appendingPathComponent("keys").path
        ).sorted()
        try Data(sealed).write(
            to: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.statementPath(seq: head.seq + 1, author: main.machine)))
        assertRefused("desktop")
        assertRefused("laptop")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: machines.remoteRoot.appendingPathComponent("keys").path)
                .sorted(), headersBefore)
        XCTAssertEqual(try machines.texts("desktop"), ["kept"])
    }

    /// Item 3: whoever holds the current key (and an old passphrase) but no member's signing key
    /// cannot state a passphrase change: the machines keep their passphrase.
    func testACurrentKeyHolderCannotReplaceThePassphrase() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let laptop = machines["laptop"]
        let main = try machines.main("laptop")
        let head = try XCTUnwrap(main.chain.head)
        let key = try SyncKey(vaultKey: laptop.vaultKey, generation: laptop.keyGeneration, vaultID: laptop.id)
        let forged = Statement(
            seq: head.seq + 1, author: main.machine, keyID: head.keyID, previous: head.hash, kind: .passphrase,
            generation: head.generation, members: head.members,
            headerHashes: [.sqlite: [UInt8](repeating: 1, count: 32), .files: [UInt8](repeating: 2, count: 32)])
        let sealed = try StatementCodec.seal(
            forged, vaultID: laptop.id, key: key, signingKey: try SigningKeyPair.generate().secretKey)
        try Data(sealed).write(
            to: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.statementPath(seq: head.seq + 1, author: main.machine)))
        let header = machines["desktop"].encodedHeader
        assertRefused("desktop")
        XCTAssertEqual(machines["desktop"].encodedHeader, header)
    }

    /// Item 6: a lamport past 2^62 is damage, even from a member's own key.
    func testAHugeLamportIsRefused() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let laptop = machines["laptop"]
        let main = try machines.main("laptop")
        let log = try XCTUnwrap(main.logs[main.machine])
        let head = try XCTUnwrap(main.chain.head)
        let record = SyncRecord(
            machine: main.machine, seq: log.seen + 1, previous: log.records.last!.hash, lamport: .max,
            machineName: "laptop", written: 0, epochSeq: head.seq, epochHash: head.hash, vector: [], revisions: [],
            join: nil)
        let key = try SyncKey(vaultKey: laptop.vaultKey, generation: laptop.keyGeneration, vaultID: laptop.id)
        let sealed = try RecordCodec.seal(record, vaultID: laptop.id, key: key, signingKey: main.signingKey)
        try Data(sealed).write(
            to: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.recordPath(machine: main.machine, seq: log.seen + 1)))
        assertRefused("desktop")
        try machines["desktop"].add(text: "still works")
        XCTAssertEqual(try machines.texts("desktop"), ["kept", "still works"])
    }

    /// A statement a machine accepted, removed or replaced in a synced folder (where no git
    /// history says so), is found at the next sync.
    func testAnAcceptedStatementRemovedFromAFolderIsFound() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let main = try machines.main("desktop")
        let admit = try XCTUnwrap(main.chain.head)
        try FileManager.default.removeItem(
            at: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.statementPath(seq: admit.seq, author: admit.author)))
        XCTAssertThrowsError(try machines.sync("desktop")) { error in
            XCTAssertEqual(
                error as? SyncError,
                .untrustedRemote([
                    .statementGone(path: RemoteLayout.statementPath(seq: admit.seq, author: admit.author))
                ]))
        }
    }

    /// A link planted in the remote is refused (and never followed): a log folder linked to
    /// another place, a record linked to a file elsewhere.
    func testALinkPlantedInTheRemoteIsRefused() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        let outside = path("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let planted = "log/" + RemoteLayout.hex(UUID())
        try FileManager.default.createSymbolicLink(
            at: machines.remoteRoot.appendingPathComponent(planted), withDestinationURL: outside)
        XCTAssertThrowsError(try machines.sync("desktop")) { error in
            XCTAssertEqual(error as? SyncError, .untrustedRemote([.notAPlainFile(path: planted, kind: .symbolicLink)]))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), [])
    }

    /// A record naming an older statement than the record before it in its log is refused,
    /// even signed by its machine: a machine never writes under a key once it saw a newer one.
    func testARecordWhoseEpochGoesBackIsRefused() throws {
        try machines.start("laptop", entries: ["kept"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines["laptop"].add(text: "under the admit")
        try machines.sync("laptop")
        try machines.sync("desktop")
        let laptop = machines["laptop"]
        let main = try machines.main("laptop")
        let log = try XCTUnwrap(main.logs[main.machine])
        let genesis = try XCTUnwrap(main.chain.statements.first)
        XCTAssertGreaterThan(log.epoch, genesis.seq)
        let record = SyncRecord(
            machine: main.machine, seq: log.seen + 1, previous: log.records.last!.hash, lamport: log.lamport + 1,
            machineName: "laptop", written: 0, epochSeq: genesis.seq, epochHash: genesis.hash, vector: [],
            revisions: [], join: nil)
        let key = try SyncKey(vaultKey: laptop.vaultKey, generation: laptop.keyGeneration, vaultID: laptop.id)
        let sealed = try RecordCodec.seal(record, vaultID: laptop.id, key: key, signingKey: main.signingKey)
        try Data(sealed).write(
            to: machines.remoteRoot.appendingPathComponent(
                RemoteLayout.recordPath(machine: main.machine, seq: log.seen + 1)))
        assertRefused("desktop")
    }
}
