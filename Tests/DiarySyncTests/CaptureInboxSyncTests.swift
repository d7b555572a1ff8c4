import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// A folder remote's capture inbox (docs/FORMAT.md §12.11): items taken in by whichever member
/// syncs first, published in that sync and then removed; every machine shows each capture once.
final class CaptureInboxSyncTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private var phone: CaptureCredential!
    private var inbox: URL { machines.remoteRoot.appendingPathComponent("inbox") }

    /// The laptop and the desktop sync one folder; a phone is enrolled on the laptop and both
    /// machines know it.
    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
        try machines.start("laptop")
        try machines.join("desktop", invitedBy: "laptop")
        phone = try machines["laptop"].enrolCaptureDevice(name: "phone")
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
    }

    /// Seals `text` as the phone's next item and drops it into the remote's inbox, as
    /// `diary capture --to REMOTE` does. Returns the item's file.
    @discardableResult
    private func capture(_ text: String) throws -> URL {
        let item = try seal(text)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let file = inbox.appendingPathComponent(CaptureItem.fileName(deviceID: phone.deviceID, counter: phone.counter))
        try Data(item).write(to: file)
        return file
    }

    /// `text` sealed as the phone's next item.
    private func seal(_ text: String) throws -> [UInt8] {
        phone = try phone.advanced()
        let entry = CapturedEntry(
            text: text, date: date("2026-05-01T08:00:00Z"), captured: date("2026-05-01T08:00:05Z"), starred: true,
            tags: ["inbox"])
        return try CaptureItem.seal(entry, credential: phone)
    }

    /// The files under the remote's `log/`, by path.
    private func logFiles() -> Set<String> {
        let log = machines.remoteRoot.appendingPathComponent("log").path
        return Set(FileManager.default.enumerator(atPath: log)?.allObjects.compactMap { $0 as? String } ?? [])
    }

    /// Runs `body` with the files of `log/` written since `before` kept away, as a file-sync
    /// tool that delivered an inbox item and not yet the record of the machine that took it in.
    private func withholding<T>(logFilesNewSince before: Set<String>, _ body: () throws -> T) throws -> T {
        let log = machines.remoteRoot.appendingPathComponent("log")
        let aside = FileManager.default.temporaryDirectory.appendingPathComponent("withheld-\(UUID().uuidString)")
        var moved: [String] = []
        for path in logFiles().subtracting(before) where !isDirectory(log.appendingPathComponent(path)) {
            let target = aside.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: log.appendingPathComponent(path), to: target)
            moved.append(path)
        }
        XCTAssertFalse(moved.isEmpty)
        let result = Result { try body() }
        for path in moved {
            try FileManager.default.moveItem(
                at: aside.appendingPathComponent(path), to: log.appendingPathComponent(path))
        }
        try? FileManager.default.removeItem(at: aside)
        return try result.get()
    }

    private func isDirectory(_ url: URL) -> Bool {
        (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true
    }

    private func items() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []).filter { $0.hasSuffix(".dcap") }
    }

    private func rejected() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: inbox.appendingPathComponent("rejected").path)) ?? []
    }

    private func device(on machine: String) throws -> CaptureDeviceRecord? {
        try machines[machine].storedEntry(phone.deviceID)?.captureDevice
    }

    func testACaptureArrivesOnEveryMachineOnceAndLeavesTheInbox() throws {
        try capture("Train tickets bought")
        try capture("Call the plumber")
        let report = try machines.sync("desktop")
        XCTAssertEqual(report.inbox.takenIn, ["phone": 2])
        XCTAssertEqual(report.sent, 3, "both entries and the device record, in the same sync")
        XCTAssertEqual(items(), [], "removed once published")
        XCTAssertEqual(try machines.texts("desktop"), ["Call the plumber", "Train tickets bought"])
        let laptop = try machines.sync("laptop")
        XCTAssertEqual(laptop.inbox, InboxIntake())
        XCTAssertEqual(laptop.added, 2)
        XCTAssertEqual(try machines.texts("laptop"), ["Call the plumber", "Train tickets bought"])
        let entry = try XCTUnwrap(try machines["laptop"].list().first)
        XCTAssertEqual(entry.source, "capture:phone")
        XCTAssertEqual(entry.tags, ["inbox"])
        XCTAssertTrue(entry.starred)
        XCTAssertEqual(try device(on: "laptop")?.counters, CaptureCounterSet([1...2]))
        for machine in ["desktop", "laptop"] {
            let again = try machines.sync(machine)
            XCTAssertEqual([again.sent, again.added, again.conflicts.count], [0, 0, 0], machine)
        }
    }

    func testNoCapturedTextIsLeftOnTheRemote() throws {
        try capture("Secret plans for the surprise party")
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
        XCTAssertEqual(try machines.texts("desktop"), ["Secret plans for the surprise party"])
        let needle = Data("surprise party".utf8)
        let files = FileManager.default.enumerator(at: machines.remoteRoot, includingPropertiesForKeys: nil)!
        var scanned = 0
        for case let file as URL in files
        where (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            XCTAssertNil(try Data(contentsOf: file).range(of: needle), file.path)
            scanned += 1
        }
        XCTAssertGreaterThan(scanned, 4)
    }

    func testItemsOfOneDeviceTakenInOnTwoMachinesMergeTheirCounters() throws {
        try capture("first, taken in on the laptop")
        _ = try machines.sync("laptop")
        // The desktop takes in the second (from its own directory, at any command) before it
        // reads the laptop's record.
        let second = try machines["desktop"].takeIn(items: [try seal("second, taken in on the desktop")])
        XCTAssertEqual(second.map(\.isTakenIn), [true])
        var reports: [SyncReport] = []
        for machine in ["desktop", "laptop", "desktop", "laptop"] { reports.append(try machines.sync(machine)) }
        let both = CaptureCounterSet([1...2])
        XCTAssertEqual(try device(on: "laptop")?.counters, both)
        XCTAssertEqual(try device(on: "desktop")?.counters, both)
        XCTAssertEqual(reports.flatMap(\.newConflicts), [])
        XCTAssertEqual(try machines.sync("desktop").conflicts, [])
        for machine in ["laptop", "desktop"] {
            XCTAssertEqual(
                try machines.texts(machine), ["first, taken in on the laptop", "second, taken in on the desktop"])
        }
    }

    func testTheSameItemTakenInOnBothMachinesIsOneEntry() throws {
        let file = try capture("taken in twice")
        let copy = try Data(contentsOf: file)
        let before = logFiles()
        XCTAssertEqual(try machines.sync("laptop").inbox.takenIn, ["phone": 1])
        // A file-sync tool shows the desktop the item before the laptop's removal and record.
        try copy.write(to: file)
        let desktop = try withholding(logFilesNewSince: before) { try machines.sync("desktop") }
        XCTAssertEqual(desktop.inbox.takenIn, ["phone": 1])
        var reports: [SyncReport] = []
        for machine in ["laptop", "desktop", "laptop"] { reports.append(try machines.sync(machine)) }
        XCTAssertEqual(reports.flatMap(\.newConflicts), [])
        XCTAssertEqual(try machines.texts("laptop"), ["taken in twice"])
        XCTAssertEqual(try machines.texts("desktop"), ["taken in twice"])
        // A copy that turns up again once both know it was taken in is removed, not reported.
        try copy.write(to: file)
        let late = try machines.sync("laptop")
        XCTAssertEqual(late.inbox, InboxIntake())
        XCTAssertEqual(items(), [])
        XCTAssertEqual(rejected(), [])
    }

    func testARevokedDevicesCapturesAreRefusedOnEveryMachine() throws {
        XCTAssertTrue(try machines["laptop"].revokeCaptureDevice(named: "phone"))
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
        let file = try capture("written after the phone was lost")
        let copy = try Data(contentsOf: file)
        let desktop = try machines.sync("desktop")
        XCTAssertEqual(desktop.inbox.takenIn, [:])
        XCTAssertEqual(desktop.inbox.movedAside.map(\.outcome), [.revoked(device: "phone", counter: 1)])
        XCTAssertEqual(desktop.inbox.movedAside.map(\.path), ["inbox/rejected/\(file.lastPathComponent)"])
        try copy.write(to: file)
        let laptop = try machines.sync("laptop")
        XCTAssertEqual(laptop.inbox.movedAside.map(\.outcome), [.revoked(device: "phone", counter: 1)])
        XCTAssertEqual(
            laptop.inbox.movedAside.map(\.path), ["inbox/rejected/\(file.lastPathComponent)"],
            "the same bytes are there already: the copy is removed")
        XCTAssertEqual(rejected(), [file.lastPathComponent])
        XCTAssertEqual(try machines.texts("laptop"), [])
        XCTAssertEqual(try machines.texts("desktop"), [])
        XCTAssertEqual(items(), [])
        XCTAssertEqual(try machines.sync("desktop").inbox, InboxIntake(), "reported once, at the move")
    }

    func testAReplayOfADeletedCaptureIsMovedAside() throws {
        let file = try capture("deleted later")
        let copy = try Data(contentsOf: file)
        _ = try machines.sync("laptop")
        let id = try XCTUnwrap(try machines["laptop"].list().first?.id)
        try SyncDeletions.deleting([id], vault: machines["laptop"], stateDirectory: machines.state("laptop")) {
            try machines["laptop"].delete(id)
        }
        try copy.write(to: file)
        let report = try machines.sync("laptop")
        XCTAssertEqual(report.inbox.movedAside.map(\.outcome), [.replay(device: "phone", counter: 1)])
        XCTAssertEqual(try machines.texts("laptop"), [])
    }

    func testAnItemOfADeviceNotKnownHereYetWaits() throws {
        var tablet = try machines["laptop"].enrolCaptureDevice(name: "tablet")
        tablet = try tablet.advanced()
        let item = try CaptureItem.seal(
            CapturedEntry(text: "from the tablet", date: Date(), captured: Date(), starred: false, tags: []),
            credential: tablet)
        let name = CaptureItem.fileName(deviceID: tablet.deviceID, counter: 1)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try Data(item).write(to: inbox.appendingPathComponent(name))
        let desktop = try machines.sync("desktop")
        XCTAssertEqual(desktop.inbox.waiting, ["inbox/\(name)"])
        XCTAssertEqual(items(), [name])
        XCTAssertEqual(try machines.sync("laptop").inbox.takenIn, ["tablet": 1], "the machine that enrolled it")
        XCTAssertEqual(items(), [])
        XCTAssertEqual(try machines.sync("desktop").added, 2, "the tablet's record and its entry")
        XCTAssertEqual(try machines.texts("desktop"), ["from the tablet"])
    }

    func testDamagedItemsAreMovedAsideAndOtherNamesLeftAlone() throws {
        let file = try capture("will be damaged")
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 20] ^= 1
        try bytes.write(to: file)
        try Data("x".utf8).write(to: inbox.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: inbox.appendingPathComponent(".tmp-arriving.dcap"))
        let report = try machines.sync("desktop")
        XCTAssertEqual(report.inbox.movedAside.count, 1)
        guard case .damaged(let device, _)? = report.inbox.movedAside.first?.outcome else {
            return XCTFail("\(report.inbox)")
        }
        XCTAssertEqual(device, "phone")
        XCTAssertEqual(report.notes, [.unexpectedFile(path: "inbox/notes.txt")], "the inbox itself is expected")
        XCTAssertEqual(try machines.texts("desktop"), [])
    }

    /// An item renamed as another is refused as a vault directory refuses it, for the same
    /// reason (`CaptureItem.misnamed`), and the item whose name it took is taken in when it comes.
    func testAnItemNamedAsAnotherIsMovedAsideAndTheOtherStillArrives() throws {
        let first = try capture("item 1, renamed as item 2")
        let name = CaptureItem.fileName(deviceID: phone.deviceID, counter: 2)
        try FileManager.default.moveItem(at: first, to: inbox.appendingPathComponent(name))
        let report = try machines.sync("desktop")
        XCTAssertEqual(
            report.inbox.movedAside,
            [
                MovedAsideItem(
                    outcome: .damaged(device: nil, reason: CaptureItem.misnamedReason), path: "inbox/rejected/\(name)")
            ])
        XCTAssertEqual(report.inbox.takenIn, [:])
        try capture("item 2")
        XCTAssertEqual(try machines.sync("desktop").inbox.takenIn, ["phone": 1])
        XCTAssertEqual(try machines.texts("desktop"), ["item 2"])
    }

    func testThePythonReaderOpensTheInboxWithTheSyncedDeviceRecords() throws {
        try PythonReader.requireSecretstream()
        let first = try capture("taken in, then copied back")
        let copy = try Data(contentsOf: first)
        _ = try machines.sync("desktop")
        try copy.write(to: first)
        let waiting = try capture("still waiting in the inbox")
        let damaged = try capture("damaged on the way")
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 5] ^= 1
        try bytes.write(to: damaged)
        let result = try PythonReader.run([PythonReader.script.path, machines.remoteRoot.path, "correct horse"])
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("capture device 'phone'"), result.output)
        for (file, state) in [
            (first, "item 1 of 'phone', taken in already: the next sync removes it"),
            (waiting, "item 2 of 'phone', waits to be taken in"),
        ] {
            XCTAssertTrue(result.output.contains("`inbox/\(file.lastPathComponent)`: \(state)"), result.output)
        }
        XCTAssertTrue(result.output.contains("still waiting in the inbox"), result.output)
        XCTAssertTrue(result.output.contains("`inbox/\(damaged.lastPathComponent)`: refused:"), result.output)
    }

    func testASyncThatStopsBeforeTheRemoteIsReadTakesNothingIn() throws {
        try machines.rekey("laptop")
        _ = try machines.sync("laptop")
        let file = try capture("waits for a sync that reads the remote")
        XCTAssertThrowsError(try machines.sync("desktop"), "the rotation needs the passphrase")
        XCTAssertEqual(try machines.texts("desktop"), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertEqual(report.inbox.takenIn, ["phone": 1])
        XCTAssertEqual(items(), [])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.texts("laptop"), ["waits for a sync that reads the remote"])
    }

    func testAnItemTakenInByASyncThatStoppedLeavesOnlyOnceItsEntryIsPublished() throws {
        let file = try capture("taken in by a sync that stopped")
        let engine = try SyncEngine(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        // Stopped as a crash would, after the remote's inbox was taken in and before publishing.
        engine.takeInVaultInbox = { throw SyncFaults.Crash.crashed }
        XCTAssertThrowsError(try engine.sync())
        XCTAssertEqual(try machines.texts("desktop"), ["taken in by a sync that stopped"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "nothing was published: the item stays")
        let report = try machines.sync("desktop")
        XCTAssertEqual(report.inbox, InboxIntake(), "taken in already: removed without a word")
        XCTAssertEqual(report.sent, 2, "the entry and the device record")
        XCTAssertEqual(items(), [])
        XCTAssertEqual(rejected(), [])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.texts("laptop"), ["taken in by a sync that stopped"])
    }

    /// A revocation published by another machine is read, and in force here, before any inbox
    /// is looked at: the remote's, and the vault directory's (`takeInVaultInbox`).
    func testARevocationOnTheRemoteIsInForceBeforeAnyInboxIsTakenIn() throws {
        XCTAssertTrue(try machines["laptop"].revokeCaptureDevice(named: "phone"))
        _ = try machines.sync("laptop")
        let file = try capture("written by whoever found the phone")
        let engine = try SyncEngine(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        var revokedWhenTheDirectoryIsTakenIn: Bool?
        engine.takeInVaultInbox = { revokedWhenTheDirectoryIsTakenIn = try self.device(on: "desktop")?.revoked != nil }
        let desktop = try engine.sync()
        XCTAssertEqual(revokedWhenTheDirectoryIsTakenIn, true)
        XCTAssertEqual(desktop.inbox.takenIn, [:])
        XCTAssertEqual(desktop.inbox.movedAside.map(\.outcome), [.revoked(device: "phone", counter: 1)])
        XCTAssertEqual(desktop.inbox.movedAside.map(\.path), ["inbox/rejected/\(file.lastPathComponent)"])
        XCTAssertEqual(desktop.sent, 0, "nothing of the device's to publish")
        XCTAssertEqual(try machines.texts("desktop"), [])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.texts("laptop"), [])
        XCTAssertEqual(try device(on: "laptop")?.counters, CaptureCounterSet())
    }

    func testAnItemTakenInAgainAfterItsEntryWasEditedElsewhereMakesNoConflict() throws {
        let file = try capture("first words")
        // The desktop takes the item in at a sync that stops before publishing: the item stays.
        let engine = try SyncEngine(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        engine.takeInVaultInbox = { throw SyncFaults.Crash.crashed }
        XCTAssertThrowsError(try engine.sync())
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        XCTAssertEqual(try machines.sync("laptop").inbox.takenIn, ["phone": 1])
        let id = try XCTUnwrap(try machines["laptop"].list().first?.id)
        try machines["laptop"].update(id, text: "first words, and more")
        _ = try machines.sync("laptop")
        // The desktop reads the laptop's records before it publishes its copy, as taken in.
        let desktop = try machines.sync("desktop")
        XCTAssertEqual(desktop.inbox, InboxIntake())
        XCTAssertEqual(desktop.newConflicts, [])
        XCTAssertEqual(try machines.texts("desktop"), ["first words, and more"])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").conflicts, [])
        XCTAssertEqual(try machines.texts("laptop"), ["first words, and more"])
        XCTAssertEqual(items(), [])
    }
}
