import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiaryApp

/// The vault directory's inbox taken in at scale and with hostile names: memory by the item,
/// bounded batches, items of devices not known yet left waiting, names checked against headers.
final class CaptureIntakeTests: SessionTestCase {
    private func enrolled(_ vault: Vault, _ name: String = "phone") throws -> String {
        let key = path("\(name).key").path
        _ = try CaptureKeys.create(name, in: vault, output: key)
        return key
    }

    private func send(_ text: String, key: String, to directory: URL) throws -> CaptureReceipt {
        let entry = try CapturedEntry.new(text: text, date: nil, dateIsDay: false, starred: false, tags: [])
        return try CaptureSender.capture(entry, keyFile: key, to: directory.path)
    }

    private func inbox(_ directory: URL, _ sub: String = "") throws -> [String] {
        let url = directory.appendingPathComponent("inbox/" + sub)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".dcap") }.sorted()
    }

    func testAnItemIsReadIntoABufferOfItsOwnSize() throws {
        let file = path("small")
        try Data(repeating: 7, count: 600).write(to: file)
        guard case .bytes(let bytes) = try CaptureFiles.read(file.path, limit: CaptureItem.maximumBytes) else {
            return XCTFail("a small regular file is read")
        }
        XCTAssertEqual(bytes.count, 600)
        XCTAssertLessThan(bytes.capacity, 4096, "the buffer is the file's size, not the cap's")
    }

    func testAFullInboxIsTakenInInBoundedBatches() throws {
        let vault = try makeVault(.files)
        let key = try enrolled(vault)
        let total = CaptureInbox.batchItems * 2 + 3
        for i in 1...total { _ = try send("item \(i)", key: key, to: vault.directory) }
        var batches: [Int] = []
        CaptureInbox.takeIn(
            vault.directory, into: vault, syncs: false, events: { self.events.append($0) },
            onBatch: { batches.append($0) })
        XCTAssertEqual(batches, [CaptureInbox.batchItems, CaptureInbox.batchItems, 3])
        XCTAssertEqual(events, [.capturesTakenIn(device: "phone", count: total)], "said once")
        XCTAssertEqual(try vault.list().count, total)
        XCTAssertEqual(try inbox(vault.directory), [])
    }

    func testAnItemOfADeviceNotKnownYetWaitsAndIsTakenInOnceKnown() throws {
        let vault = try makeVault(.files)
        let copy = path("copy")
        try FileManager.default.copyItem(at: vault.directory, to: copy)  // the same vault, before the enrolment
        let key = try enrolled(vault)
        let receipt = try send("from elsewhere", key: key, to: copy)
        let other = try SealedVault(at: copy).open(passphrase: secretBytes("correct horse"))
        for _ in 0..<2 {
            events = []
            CaptureInbox.takeIn(copy, into: other, syncs: true, events: { self.events.append($0) })
            XCTAssertEqual(events, [.capturesWaiting(count: 1)])
            XCTAssertEqual(
                try inbox(copy), [URL(fileURLWithPath: receipt.path).lastPathComponent], "left, not moved aside")
        }
        // The enrolment arrives (here: the item reaches the vault that holds it): taken in.
        let name = URL(fileURLWithPath: receipt.path).lastPathComponent
        let target = vault.directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: receipt.path, toPath: target.path + "/" + name)
        events = []
        CaptureInbox.takeIn(vault.directory, into: vault, syncs: false, events: { self.events.append($0) })
        XCTAssertEqual(events, [.capturesTakenIn(device: "phone", count: 1)])
    }

    func testAnUnknownDevicesItemIsJudgedByItsHeaderAndMovedAsideWhereNoSyncCanEnrolIt() throws {
        let vault = try makeVault(.files)
        let copy = path("copy")
        try FileManager.default.copyItem(at: vault.directory, to: copy)
        let key = try enrolled(vault)
        let receipt = try send("from a device the copy never knew", key: key, to: copy)
        let name = URL(fileURLWithPath: receipt.path).lastPathComponent
        // Its body made larger than any item: only a reading of the header leaves it waiting.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: receipt.path))
        try handle.truncate(atOffset: UInt64(CaptureItem.maximumBytes + 1))
        try handle.close()
        let other = try SealedVault(at: copy).open(passphrase: secretBytes("correct horse"))
        CaptureInbox.takeIn(copy, into: other, syncs: true, events: { self.events.append($0) })
        XCTAssertEqual(events, [.capturesWaiting(count: 1)], "judged by its header, its body unread")
        XCTAssertEqual(try inbox(copy), [name])
        events = []
        CaptureInbox.takeIn(copy, into: other, syncs: false, events: { self.events.append($0) })
        let device = try CaptureKeyFile.read(key).deviceID
        XCTAssertEqual(
            events,
            [
                .captureMovedAside(
                    CaptureRejection(outcome: .unknownDevice(device), path: "inbox/rejected/" + name))
            ])
        XCTAssertEqual(try inbox(copy), [])
    }

    func testAnItemWhoseNameIsAnotherItemsIsMovedAside() throws {
        let vault = try makeVault(.files)
        let key = try enrolled(vault)
        let receipt = try send("renamed", key: key, to: vault.directory)
        let renamed = receipt.path.replacingOccurrences(
            of: "00000000000000000001.dcap", with: "00000000000000000099.dcap")
        XCTAssertNotEqual(renamed, receipt.path)
        try FileManager.default.moveItem(atPath: receipt.path, toPath: renamed)
        CaptureInbox.takeIn(vault.directory, into: vault, syncs: false, events: { self.events.append($0) })
        let name = URL(fileURLWithPath: renamed).lastPathComponent
        XCTAssertEqual(
            events,
            [
                .captureMovedAside(
                    CaptureRejection(
                        outcome: .damaged(device: nil, reason: "its name is another item's"),
                        path: "inbox/rejected/" + name))
            ])
        XCTAssertEqual(try vault.list().count, 0)
    }

    func testARevocationBeforeTheIntakeRefusesTheWaitingItems() throws {
        let vault = try makeVault(.files)
        let key = try enrolled(vault, "thief")
        _ = try send("waiting", key: key, to: vault.directory)
        let session = try session(vault.directory, passphraseFile: passphraseFile("correct horse"))
        session.takesCaptureInboxInAtOpen = false
        let opened = try session.open()
        XCTAssertEqual(events, [], "nothing taken in at open")
        try opened.revokeCaptureDevice(named: "thief")
        session.takeInCaptureInbox()
        XCTAssertEqual(try opened.list().count, 0)
        XCTAssertEqual(try inbox(vault.directory, "rejected").count, 1)
        guard case .captureMovedAside(let rejection) = events.first, case .revoked = rejection.outcome else {
            return XCTFail("moved aside as revoked: \(events)")
        }
    }

    func testOnlyTheTopOfAGitCloneOfARemoteIsRefusedAsATarget() throws {
        let vault = try makeVault(.files)
        let key = try enrolled(vault)
        let marker = Data("diary-sync 2\n\(vault.id.uuidString.lowercased())\n".utf8)
        let clone = path("clone")
        let nested = clone.appendingPathComponent("deeper/remote")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: clone.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try marker.write(to: clone.appendingPathComponent("diary-sync"))
        XCTAssertThrowsError(try send("lost", key: key, to: clone)) {
            XCTAssertEqual($0 as? CaptureAppError, .gitWorkingTree(path: clone.path))
        }
        XCTAssertEqual(try CaptureKeyFile.read(key).counter, 0, "no number spent")
        // A folder remote below a repository (a home kept in git) is read by sync: accepted.
        try marker.write(to: nested.appendingPathComponent("diary-sync"))
        XCTAssertEqual(try send("kept", key: key, to: nested).target, .folderRemote)
        // A vault directory the user versions with git is a vault all the same.
        try FileManager.default.createDirectory(
            at: vault.directory.appendingPathComponent(".git"), withIntermediateDirectories: true)
        XCTAssertEqual(try send("in the vault", key: key, to: vault.directory).target, .vault)
    }

    func testASymlinkedKeyFileIsNamedAsSuch() throws {
        let vault = try makeVault(.files)
        let key = try enrolled(vault)
        let link = path("link.key").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: key)
        XCTAssertThrowsError(try CaptureKeyFile.read(link)) {
            XCTAssertEqual($0 as? CaptureAppError, .credentialIsLink(path: link))
        }
        XCTAssertThrowsError(try send("x", key: link, to: vault.directory)) {
            XCTAssertEqual($0 as? CaptureAppError, .credentialIsLink(path: link))
        }
    }

    func testAKeyThatCannotBeHandedOverLeavesNoDeviceNorFile() throws {
        let vault = try makeVault(.files)
        let missing = path("nowhere/k").path
        XCTAssertThrowsError(try CaptureKeys.create("o7", in: vault, output: missing))
        struct Closed: Error {}
        XCTAssertThrowsError(try CaptureKeys.create("o8", in: vault, deliver: { _ in throw Closed() }))
        XCTAssertEqual(try vault.captureDevices().map(\.name), [], "nothing enrolled, nothing revoked")
        let output = path("o7.key").path
        let taken = try vault.enrolCaptureDevice(name: "taken")
        XCTAssertThrowsError(try CaptureKeys.create("taken", in: vault, output: output))
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a refused enrolment leaves no file")
        _ = try CaptureKeys.create("o7", in: vault, output: output)
        _ = try CaptureKeys.create("o8", in: vault, deliver: { _ in })
        XCTAssertEqual(try vault.captureDevices().map(\.name), ["o7", "o8", "taken"])
        XCTAssertEqual(try CaptureKeyFile.read(output).name, "o7")
        XCTAssertNotEqual(try CaptureKeyFile.read(output).deviceID, taken.deviceID)
    }
}
