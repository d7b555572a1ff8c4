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
        phone = try phone.advanced()
        let entry = CapturedEntry(
            text: text, date: date("2026-05-01T08:00:00Z"), captured: date("2026-05-01T08:00:05Z"), starred: true,
            tags: ["inbox"])
        let item = try CaptureItem.seal(entry, credential: phone)
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let file = inbox.appendingPathComponent(CaptureItem.fileName(deviceID: phone.deviceID, counter: phone.counter))
        try Data(item).write(to: file)
        return file
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
        // The desktop takes in the second before it reads the laptop's record.
        try capture("second, taken in on the desktop")
        let desktop = try machines.sync("desktop")
        XCTAssertEqual(desktop.inbox.takenIn, ["phone": 1])
        var reports = [desktop]
        for machine in ["laptop", "desktop", "laptop"] { reports.append(try machines.sync(machine)) }
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
        XCTAssertEqual(try machines.sync("laptop").inbox.takenIn, ["phone": 1])
        // A file-sync tool shows the desktop the item before the laptop's removal (and record).
        try copy.write(to: file)
        XCTAssertEqual(try machines.sync("desktop").inbox.takenIn, ["phone": 1])
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
        XCTAssertEqual(laptop.inbox.movedAside.map(\.path), ["inbox/rejected/\(file.lastPathComponent).2"])
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

    func testAnItemTakenInByASyncThatStoppedLeavesOnlyOnceItsEntryIsPublished() throws {
        try machines.rekey("laptop")
        _ = try machines.sync("laptop")
        let file = try capture("taken in by a sync that stopped")
        XCTAssertThrowsError(try machines.sync("desktop"), "the rotation needs the passphrase")
        XCTAssertEqual(try machines.texts("desktop"), ["taken in by a sync that stopped"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "nothing was published: the item stays")
        let report = try machines.sync("desktop", passphrase: "correct horse")
        XCTAssertEqual(report.inbox, InboxIntake(), "taken in already: removed without a word")
        XCTAssertEqual(report.sent, 2, "the entry and the device record")
        XCTAssertEqual(items(), [])
        XCTAssertEqual(rejected(), [])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.texts("laptop"), ["taken in by a sync that stopped"])
    }

    func testAnItemTakenInAgainAfterItsEntryWasEditedElsewhereMakesNoConflict() throws {
        let file = try capture("first words")
        let copy = try Data(contentsOf: file)
        _ = try machines.sync("laptop")
        let id = try XCTUnwrap(try machines["laptop"].list().first?.id)
        try machines["laptop"].update(id, text: "first words, and more")
        _ = try machines.sync("laptop")
        // The desktop sees the item before the laptop's removal reaches it, and takes it in.
        try copy.write(to: file)
        let desktop = try machines.sync("desktop")
        XCTAssertEqual(desktop.inbox.takenIn, ["phone": 1])
        XCTAssertEqual(desktop.newConflicts, [])
        XCTAssertEqual(try machines.texts("desktop"), ["first words, and more"])
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").conflicts, [])
        XCTAssertEqual(try machines.texts("laptop"), ["first words, and more"])
        XCTAssertEqual(items(), [])
    }
}
