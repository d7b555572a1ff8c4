import Foundation
import XCTest

/// Capture into a folder remote through the binary (docs/FORMAT.md §12.11): a machine holding
/// only its capture key drops an item into the synced folder; every machine shows it exactly
/// once, even when two take it in, no text is left anywhere, and a revocation made on one
/// machine makes every machine refuse the device's items.
final class SyncCaptureCLITests: XCTestCase {
    private var net: SyncMachines!
    /// The capture machine: a directory that holds the key and nothing else.
    private var machine: CaptureMachine!
    private var device: URL { machine.directory }
    private var key: String { machine.key }

    override func setUpWithError() throws {
        net = try SyncMachines(.folder, name: "sync-capture")
        try net.first(store: "sqlite")
        try net.join(store: "files")
        machine = try CaptureMachine(at: net.scratch.appendingPathComponent("device"), enrolledBy: net[0])
        try net.sync(0)
        try net.sync(1)
    }

    override func tearDown() { net = nil }

    /// `diary capture` into machine `n`'s copy of the folder, with no vault, passphrase or agent.
    private func capture(_ text: String, into n: Int) throws {
        try capture(text, to: net.folder(n))
    }

    /// `diary capture` into `directory` (a copy of the folder, or a vault directory).
    private func capture(_ text: String, to directory: URL, key: String? = nil) throws {
        let result = try net[0].run(
            ["capture", "--key", key ?? self.key, "--to", directory.path, text],
            env: machine.environment)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    private func items(_ n: Int) -> [String] {
        let inbox = net.folder(n).appendingPathComponent("inbox")
        return ((try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []).filter {
            $0.hasSuffix(".dcap")
        }
    }

    private func titles(_ n: Int) throws -> [String] {
        try net[n].listJSON().compactMap { $0["title"] as? String }.sorted()
    }

    func testACaptureArrivesOnEveryMachineOnceAndLeavesNoText() throws {
        try capture("Bought the train tickets #travel", into: 0)
        // The file-sync tool delivers the item to the desktop before either machine syncs.
        try net.replicate(from: 0, to: 1)
        XCTAssertEqual(items(1).count, 1)
        let laptop = try net.sync(0)
        XCTAssertTrue(laptop.stderr.contains("took in 1 captured entry from phone"), laptop.stderr)
        XCTAssertEqual(items(0), [])
        // The desktop takes the same item in before it reads the laptop's record: the same entry.
        try net.sync(1)
        XCTAssertEqual(items(1), [])
        for n in [0, 1, 0, 1] { try net.sync(n) }
        for n in [0, 1] {
            XCTAssertEqual(try titles(n), ["Bought the train tickets #travel"], "machine \(n)")
            XCTAssertEqual(try net.conflicts(n).count, 0, "machine \(n)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: device.path), ["phone.key"])
        XCTAssertFalse(try String(contentsOfFile: key, encoding: .utf8).contains("train"))
        let remote = try net.remoteBytes()
        for word in ["train tickets", "travel"] {
            XCTAssertNil(remote.range(of: Data(word.utf8)), "the remote holds no '\(word)'")
        }
    }

    func testARevokedDevicesCapturesAreRefusedOnEveryMachine() throws {
        try capture("Before the phone was lost", into: 1)
        try net.sync(1)
        try net.sync(0)
        try net[0].ok(["capture-key", "revoke", "phone", "--yes"])
        try net.sync(0)
        try net.sync(1)
        try capture("Written by whoever found the phone", into: 1)
        let desktop = try net.sync(1)
        XCTAssertTrue(
            desktop.stderr.contains(
                "moved aside a capture from phone, a revoked device (number 2) on the remote: "
                    + "inbox/rejected/"), desktop.stderr)
        try capture("Again, on the laptop's copy", into: 0)
        let laptop = try net.sync(0)
        XCTAssertTrue(laptop.stderr.contains("a revoked device (number 3) on the remote"), laptop.stderr)
        for n in [0, 1] {
            try net.sync(n)
            XCTAssertEqual(try titles(n), ["Before the phone was lost"], "machine \(n)")
            XCTAssertEqual(items(n), [])
        }
    }

    /// The desktop has not synced since the laptop revoked the phone, and the phone's items wait
    /// both in the desktop's copy of the folder and in its vault directory: its sync reads the
    /// revocation before it takes any inbox in, so nothing of the phone's reaches either vault.
    func testARevocationWinsOverItemsWaitingOnAMachineThatHasNotSyncedSince() throws {
        try net[0].ok(["capture-key", "revoke", "phone", "--yes"])
        try net.sync(0)
        try capture("Found phone, into the folder", into: 1)
        try capture("Found phone, into the vault directory", to: net[1].vault)
        let desktop = try net.sync(1)
        XCTAssertFalse(desktop.stderr.contains("took in"), desktop.stderr)
        XCTAssertTrue(
            desktop.stderr.contains("moved aside a capture from phone, a revoked device (number 1) on the remote"),
            desktop.stderr)
        XCTAssertTrue(
            desktop.stderr.contains("moved aside a capture from phone, a revoked device (number 2): inbox/rejected/"),
            desktop.stderr)
        try net.sync(0)
        for n in [0, 1] {
            XCTAssertEqual(try titles(n), [], "machine \(n)")
            XCTAssertEqual(items(n), [], "machine \(n)")
        }
    }

    /// An item of a device enrolled on a machine that has not synced since waits in the folder:
    /// each sync of the other machine says how many wait, once, until the enrolment arrives.
    func testAnItemOfADeviceNotKnownYetWaitsAndEachSyncSaysHowManyOnce() throws {
        let tablet = device.appendingPathComponent("tablet.key").path
        try net[0].ok(["capture-key", "create", "tablet", "--output", tablet])
        try capture("From the tablet", to: net.folder(1), key: tablet)
        try capture("Again from the tablet", to: net.folder(1), key: tablet)
        let waiting = "2 captured item(s) in the remote's inbox are from a device this vault does not know yet"
        for _ in 0..<2 {
            let desktop = try net.sync(1)
            XCTAssertEqual(desktop.stderr.components(separatedBy: waiting).count - 1, 1, desktop.stderr)
            XCTAssertEqual(items(1).count, 2)
        }
        let laptop = try net.sync(0)
        XCTAssertTrue(laptop.stderr.contains("took in 2 captured entries from tablet"), laptop.stderr)
        let desktop = try net.sync(1)
        XCTAssertFalse(desktop.stderr.contains("do not know"), desktop.stderr)
        XCTAssertEqual(try titles(1), ["Again from the tablet", "From the tablet"])
        XCTAssertEqual(items(1), [])
    }
}
