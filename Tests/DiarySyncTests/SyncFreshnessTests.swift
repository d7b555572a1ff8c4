import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Every record names what its writer had read of the other logs (a version vector): a host
/// that keeps a record from one machine is seen as soon as a record that depends on it crosses
/// (issue 21, "Freshness and forks").
final class SyncFreshnessTests: VaultTestCase {
    private var machines: SyncTestMachines!

    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
        try machines.start("laptop", entries: ["one"])
        try machines.join("desktop", invitedBy: "laptop")
        try machines.join("phone", invitedBy: "laptop", store: .sqlite)
        try machines.sync("desktop")  // knows the phone is a member
    }

    /// The laptop's newest record hidden from the desktop, while the phone read it and wrote.
    private func withholdTheLaptopsNewestRecordFromTheDesktop() throws -> (URL, URL) {
        try machines["laptop"].add(text: "from the laptop")
        try machines.sync("laptop")
        try machines.sync("phone")
        try machines["phone"].add(text: "from the phone")
        try machines.sync("phone")
        let main = try machines.main("laptop")
        let newest = machines.remoteRoot.appendingPathComponent(
            RemoteLayout.recordPath(machine: main.machine, seq: try XCTUnwrap(main.logs[main.machine]).seen))
        let aside = path("aside")
        try FileManager.default.moveItem(at: newest, to: aside)
        return (newest, aside)
    }

    func testAFolderSaysARecordAnotherMachineReadHasNotArrived() throws {
        let (newest, aside) = try withholdTheLaptopsNewestRecordFromTheDesktop()
        let report = try machines.sync("desktop")
        XCTAssertTrue(
            report.notes.contains { if case .readElsewhereNotHere(_, _, by: "phone") = $0 { true } else { false } },
            "\(report.notes)")
        XCTAssertEqual(try machines.texts("desktop"), ["from the phone", "one"])
        try FileManager.default.moveItem(at: aside, to: newest)
        let later = try machines.sync("desktop")
        XCTAssertFalse(later.notes.contains { if case .readElsewhereNotHere = $0 { true } else { false } })
        XCTAssertEqual(try machines.texts("desktop"), ["from the laptop", "from the phone", "one"])
    }

    /// In a git remote a tree holds whatever its writer read: a record naming one the tree
    /// lacks is refused. (Checked on the reader's logic: the same scan, told it reads git.)
    func testAGitTreeMissingARecordAnotherMachineReadIsRefused() throws {
        _ = try withholdTheLaptopsNewestRecordFromTheDesktop()
        let desktop = machines["desktop"]
        let engine = try SyncEngine(vault: desktop, stateDirectory: machines.state("desktop"))
        var main = engine.main
        let scanner = LogScanner(
            tree: RemoteTree(root: machines.remoteRoot), vaultID: desktop.id, me: main.machine, tidiesCopies: false)
        let outcome = try scanner.scan(main: &main, ring: engine.ring)
        XCTAssertTrue(
            outcome.findings.contains { if case .recordWithheld = $0 { true } else { false } },
            "\(outcome.findings) \(outcome.records.map { ($0.record.machineName, $0.record.seq, $0.record.vector.map(\.seq)) }) \(outcome.pending)"
        )
    }
}
