import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Attachment objects through sync remotes (docs/FORMAT.md §12.1): uploaded as files of their
/// own before the record that references them, fetched into the other machine's store (of the
/// other kind) byte for byte, taken only when length and hash match the signed record, pending
/// until then, removed with their last reference, never read through a link.
final class SyncAttachmentTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private var laptop: Vault { machines["laptop"] }
    private var desktop: Vault { machines["desktop"] }

    private func input(_ bytes: [UInt8], name: String) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name)
    }

    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) ^ seed }
    }

    /// The plaintext of `record` as `vault` reads it (every check made).
    private func plaintext(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    /// The object as `vault`'s store holds it, or nil.
    private func stored(_ vault: Vault, _ object: UUID) throws -> [UInt8]? {
        var out: [UInt8] = []
        return try vault.readStoredAttachment(object) { out.append(contentsOf: $0) } ? out : nil
    }

    private func remotePath(of record: AttachmentRecord, by machine: String) throws -> URL {
        machines.remoteRoot.appendingPathComponent(
            RemoteLayout.attachmentPath(machine: try machines.main(machine).machine, object: record.objectID))
    }

    /// A laptop (sqlite) and a desktop (files) through `machines`: an attachment added before
    /// the join and one after arrive byte for byte, and one the desktop adds reaches the laptop.
    private func checkRoundTrip() throws {
        let photo = bytes(200_000, seed: 7)
        let note = bytes(1, seed: 3)
        try machines.start("laptop", store: .sqlite)
        let first = try laptop.add(text: "before the join", attachments: [input(photo, name: "photo.jpg")])
        XCTAssertEqual(try machines.sync("laptop").attachmentsUploaded, 1)
        try machines.join("desktop", invitedBy: "laptop", store: .files)
        let second = try laptop.add(
            text: "after", attachments: [input(note, name: "note.txt"), input(photo, name: "again.jpg")])
        let sent = try machines.sync("laptop")
        XCTAssertEqual(sent.attachmentsUploaded, 1, "the photo's object is on the remote already (dedup)")
        let received = try machines.sync("desktop")
        XCTAssertEqual(received.attachmentsFetched, 1)
        XCTAssertEqual(received.attachmentsPending, 0)
        for entry in [first, second] {
            for record in try desktop.entry(entry.id).attachments {
                XCTAssertEqual(try stored(desktop, record.objectID), try stored(laptop, record.objectID))
                XCTAssertEqual(try plaintext(desktop, record), try plaintext(laptop, record))
            }
        }
        XCTAssertEqual(try plaintext(desktop, second.attachments[0]), note)
        XCTAssertEqual(try plaintext(desktop, first.attachments[0]), photo)

        let scan = bytes(70_000, seed: 11)
        let third = try desktop.add(text: "from the desktop", attachments: [input(scan, name: "scan.pdf")])
        XCTAssertEqual(try machines.sync("desktop").attachmentsUploaded, 1)
        XCTAssertEqual(try machines.sync("laptop").attachmentsFetched, 1)
        XCTAssertEqual(try plaintext(laptop, try laptop.entry(third.id).attachments[0]), scan)
        XCTAssertEqual(try laptop.unreferencedAttachments(), [])
        XCTAssertEqual(try desktop.unreferencedAttachments(), [])
    }

    func testAttachmentsArriveByteForByteInTheOtherStoreThroughAFolder() throws {
        machines = SyncTestMachines(self)
        try checkRoundTrip()
        // Each object is a file of its own in its uploader's folder, exactly as stored.
        let summary = try XCTUnwrap(try laptop.list().first { $0.title.hasPrefix("before") })
        let record = try laptop.entry(summary.id).attachments[0]
        let file = try remotePath(of: record, by: "laptop")
        XCTAssertEqual(try [UInt8](Data(contentsOf: file)), try stored(laptop, record.objectID))
    }

    func testAttachmentsArriveByteForByteInTheOtherStoreThroughGit() throws {
        machines = try SyncTestMachines.throughGit(self)
        try checkRoundTrip()
    }

    /// A copy whose bytes were changed on the remote (same length) is refused by its hash; the
    /// entry is applied all the same, the attachment pending until a right copy is there.
    func testACopyChangedOnTheRemoteIsRefusedAndTheAttachmentStaysPending() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .sqlite)
        try machines.join("desktop", invitedBy: "laptop", store: .files)
        let entry = try laptop.add(text: "with a photo", attachments: [input(bytes(100_000, seed: 5), name: "p.jpg")])
        try machines.sync("laptop")
        let record = entry.attachments[0]
        let path = try remotePath(of: record, by: "laptop")
        let good = try Data(contentsOf: path)
        var bad = good
        bad[bad.count / 2] ^= 1
        try bad.write(to: path)

        let report = try machines.sync("desktop")
        XCTAssertEqual(try desktop.entry(entry.id).attachments, entry.attachments, "the entry is applied")
        XCTAssertEqual(report.added, 1)
        XCTAssertEqual(report.attachmentsFetched, 0)
        XCTAssertEqual(report.attachmentsPending, 1)
        XCTAssertEqual(
            report.attachmentsRefused,
            [
                RefusedAttachment(
                    object: record.objectID,
                    path: RemoteLayout.attachmentPath(
                        machine: try machines.main("laptop").machine, object: record.objectID),
                    reason: .hashMismatch)
            ])
        XCTAssertNil(try desktop.storedAttachmentLength(record.objectID), "nothing of the copy is kept")

        // A copy of the wrong length is refused before it is read; the right one is then taken.
        try Data(good.prefix(good.count - 1) + [0, 0]).write(to: path)
        XCTAssertEqual(
            try machines.sync("desktop").attachmentsRefused.map(\.reason),
            [
                .wrongLength(expected: UInt64(good.count), actual: UInt64(good.count + 1))
            ])
        try good.write(to: path)
        let fixed = try machines.sync("desktop")
        XCTAssertEqual(fixed.attachmentsFetched, 1)
        XCTAssertEqual(fixed.attachmentsPending, 0)
        XCTAssertEqual(try plaintext(desktop, record), bytes(100_000, seed: 5))
    }

    /// A record that arrives before its object (a synced folder delivering files in any order)
    /// is applied; the object is pending, and a copy still arriving (shorter) is not refused.
    func testAnEntryArrivingBeforeItsObjectIsAppliedAndTheObjectFetchedOnceItArrives() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        try machines.join("desktop", invitedBy: "laptop", store: .sqlite)
        let content = bytes(80_000, seed: 12)
        let entry = try laptop.add(text: "early", attachments: [input(content, name: "e.bin")])
        try machines.sync("laptop")
        let file = try remotePath(of: entry.attachments[0], by: "laptop")
        let whole = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)

        let early = try machines.sync("desktop")
        XCTAssertEqual(early.added, 1)
        XCTAssertEqual(early.attachmentsPending, 1)
        XCTAssertEqual(early.attachmentsRefused, [])
        try whole.prefix(whole.count / 2).write(to: file)
        let arriving = try machines.sync("desktop")
        XCTAssertEqual(arriving.attachmentsPending, 1)
        XCTAssertEqual(arriving.attachmentsRefused, [], "a shorter copy in a folder is still arriving")
        try whole.write(to: file)
        XCTAssertEqual(try machines.sync("desktop").attachmentsFetched, 1)
        XCTAssertEqual(try plaintext(desktop, entry.attachments[0]), content)
    }

    /// `--no-attachments` applies the entries and leaves their objects pending; a later sync,
    /// or `fetchAttachments` for an attachment about to be opened, fetches them.
    func testNoAttachmentsDefersTheObjectsUntilALaterSyncOrAFetchOnDemand() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        try machines.join("desktop", invitedBy: "laptop", store: .sqlite)
        let one = try laptop.add(text: "one", attachments: [input(bytes(3000, seed: 1), name: "a")])
        let two = try laptop.add(text: "two", attachments: [input(bytes(4000, seed: 2), name: "b")])
        try machines.sync("laptop")

        let deferred = try machines.sync("desktop", fetchingAttachments: false)
        XCTAssertEqual(deferred.added, 2)
        XCTAssertEqual(deferred.attachmentsFetched, 0)
        XCTAssertEqual(deferred.attachmentsPending, 2)
        let status = try SyncMembership.status(vault: desktop, stateDirectory: machines.state("desktop"))
        XCTAssertEqual(status.attachmentsPending, 2)
        XCTAssertThrowsError(try plaintext(desktop, one.attachments[0])) {
            XCTAssertEqual($0 as? VaultError, .attachmentMissing(one.attachments[0].objectID))
        }

        let engine = try SyncEngine(vault: desktop, stateDirectory: machines.state("desktop"))
        let onDemand = try engine.fetchAttachments([one.attachments[0].objectID])
        XCTAssertEqual(onDemand.fetched, [one.attachments[0].objectID])
        XCTAssertEqual(try plaintext(desktop, one.attachments[0]), bytes(3000, seed: 1))
        XCTAssertEqual(try engine.fetchAttachments([one.attachments[0].objectID]), AttachmentFetch(), "stored already")

        XCTAssertEqual(try machines.sync("desktop", fetchingAttachments: false).attachmentsPending, 1)
        let later = try machines.sync("desktop")
        XCTAssertEqual(later.attachmentsFetched, 1)
        XCTAssertEqual(later.attachmentsPending, 0)
        XCTAssertEqual(try plaintext(desktop, two.attachments[0]), bytes(4000, seed: 2))
    }

    /// A deletion or a detach from another machine removes the objects no entry here
    /// references any more, and keeps one another entry still references.
    func testObjectsLeftUnreferencedByAnAppliedChangeAreRemovedHere() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .sqlite)
        try machines.join("desktop", invitedBy: "laptop", store: .files)
        let photo = bytes(5000, seed: 9)
        let one = try laptop.add(text: "one", attachments: [input(photo, name: "p.jpg")])
        let two = try laptop.add(text: "two", attachments: [input(photo, name: "p.jpg")])
        let three = try laptop.add(text: "three", attachments: [input(bytes(6000, seed: 4), name: "q.jpg")])
        XCTAssertEqual(one.attachments[0].objectID, two.attachments[0].objectID, "stored once")
        try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").attachmentsFetched, 2)

        try SyncDeletions.deleting([one.id], vault: laptop, stateDirectory: machines.state("laptop")) {
            try laptop.delete(one.id)
        }
        try laptop.detach("q.jpg", from: three.id)
        try machines.sync("laptop")
        let report = try machines.sync("desktop")
        XCTAssertEqual(report.deleted, 1)
        XCTAssertNotNil(try desktop.storedAttachmentLength(two.attachments[0].objectID), "still referenced by two")
        XCTAssertNil(try desktop.storedAttachmentLength(three.attachments[0].objectID))

        try SyncDeletions.deleting([two.id], vault: laptop, stateDirectory: machines.state("laptop")) {
            try laptop.delete(two.id)
        }
        try machines.sync("laptop")
        try machines.sync("desktop")
        XCTAssertNil(try desktop.storedAttachmentLength(two.attachments[0].objectID))
        XCTAssertEqual(try desktop.unreferencedAttachments(), [])
    }

    /// An object damaged in the uploader's own store is not uploaded (nor its record held back):
    /// the sync says so, and the other machine keeps it pending rather than take bad bytes.
    func testAnObjectDamagedHereIsNotUploaded() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        try machines.join("desktop", invitedBy: "laptop", store: .sqlite)
        let entry = try laptop.add(text: "damaged", attachments: [input(bytes(9000, seed: 2), name: "d.bin")])
        let object = entry.attachments[0].objectID
        let local = laptop.directory.appendingPathComponent("attachments/\(object.uuidString.lowercased())")
        var stored = try Data(contentsOf: local)
        stored[100] ^= 1
        try stored.write(to: local)

        let report = try machines.sync("laptop")
        XCTAssertEqual(report.sent, 1)
        XCTAssertEqual(report.attachmentsUploaded, 0)
        XCTAssertEqual(report.attachmentsDamagedHere, [object])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: try remotePath(of: entry.attachments[0], by: "laptop").path))
        let remoteFolder = try remotePath(of: entry.attachments[0], by: "laptop").deletingLastPathComponent()
        XCTAssertEqual(
            (try? FileManager.default.contentsOfDirectory(atPath: remoteFolder.path))?.filter { $0.hasPrefix(".tmp-") }
                ?? [],
            [], "no temporary file left")
        XCTAssertEqual(try machines.sync("desktop").attachmentsPending, 1)
    }

    /// A link in place of an object's file (to a file holding the right bytes) is never
    /// followed: the sync refuses it, as any link in the remote, and nothing is stored.
    func testALinkInPlaceOfARemoteObjectIsRefusedAndNeverFollowed() throws {
        machines = SyncTestMachines(self)
        try machines.start("laptop", store: .sqlite)
        try machines.join("desktop", invitedBy: "laptop", store: .files)
        let entry = try laptop.add(text: "linked", attachments: [input(bytes(2000, seed: 8), name: "l")])
        try machines.sync("laptop")
        let record = entry.attachments[0]
        let file = try remotePath(of: record, by: "laptop")
        let outside = path("outside")
        try FileManager.default.moveItem(at: file, to: outside)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: outside)

        let shown = RemoteLayout.attachmentPath(machine: try machines.main("laptop").machine, object: record.objectID)
        XCTAssertThrowsError(try machines.sync("desktop")) {
            XCTAssertEqual(
                $0 as? SyncError, .untrustedRemote([.notAPlainFile(path: shown, kind: .symbolicLink)]))
        }
        XCTAssertNil(try desktop.storedAttachmentLength(record.objectID))
        let tree = RemoteTree(root: machines.remoteRoot)
        XCTAssertThrowsError(try tree.stream(shown, size: UInt64(2000), { _ in XCTFail("read through a link") }))
        XCTAssertEqual(RemoteAttachments(tree: tree, vault: desktop, me: UUID(), inFolder: true).copies().count, 0)
    }

    /// Objects stream: a remote file is read in pieces of at most 1 MiB, never whole, and one of
    /// another size than the record implies is not read at all.
    func testRemoteObjectsAreReadInPiecesAndNotAtAllWhenTheirSizeIsWrong() throws {
        try FileManager.default.createDirectory(at: path("tree"), withIntermediateDirectories: true)
        let tree = RemoteTree(root: path("tree"))
        try tree.makeFolder("attachments/x")
        let content = bytes(3 << 20 | 12345, seed: 6)
        try tree.write(to: "attachments/x/object") { put in
            for start in stride(from: 0, to: content.count, by: 100_000) {
                try content[start..<min(start + 100_000, content.count)].withUnsafeBytes { try put($0) }
            }
        }
        var pieces: [Int] = []
        var read: [UInt8] = []
        XCTAssertEqual(
            try tree.stream("attachments/x/object", size: UInt64(content.count)) {
                pieces.append($0.count)
                read.append(contentsOf: $0)
            }, .read)
        XCTAssertEqual(read, content)
        XCTAssertLessThanOrEqual(pieces.max()!, 1 << 20)
        XCTAssertGreaterThanOrEqual(pieces.count, 4)
        XCTAssertEqual(
            try tree.stream("attachments/x/object", size: 10) { _ in XCTFail("read although its size is wrong") },
            .otherSize(UInt64(content.count)))
        XCTAssertEqual(try tree.stream("attachments/x/none", size: 10) { _ in }, .missing)
        XCTAssertThrowsError(try tree.write(to: "attachments/x/object") { _ in }, "written once, never replaced")
    }
}
