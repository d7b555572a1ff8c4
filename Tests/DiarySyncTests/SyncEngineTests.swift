import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Two machines through a folder remote, in process: the steps of a sync (the local diff, the
/// remote tree, applying to the vault) as the report counts them, and conflicts.
final class SyncEngineTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private var laptop: Vault { machines["laptop"] }
    private var desktop: Vault { machines["desktop"] }

    /// The laptop starts syncing with `entries`; the desktop joins with its invite and is
    /// admitted.
    private func twoMachines(entries: [String]) throws -> [UUID] {
        machines = SyncTestMachines(self)
        let ids = try machines.start("laptop", entries: entries)
        XCTAssertEqual(try machines.join("desktop", invitedBy: "laptop").added, entries.count)
        return ids
    }

    private func sync(_ vault: Vault, as machine: String) throws -> SyncReport { try machines.sync(machine) }

    private func state(_ machine: String) -> URL { machines.state(machine) }

    func testChangesOnOneMachineReachTheOther() throws {
        let ids = try twoMachines(entries: ["one", "two"])
        let added = try laptop.add(text: "three")
        try laptop.update(ids[0], text: "one, edited")
        // A deletion reaches the remote only when sync was told it was made on purpose.
        try SyncDeletions.deleting([ids[1]], vault: laptop, stateDirectory: state("laptop")) {
            try laptop.delete(ids[1])
        }
        XCTAssertEqual(try sync(laptop, as: "laptop").sent, 3)
        let report = try sync(desktop, as: "desktop")
        XCTAssertEqual([report.added, report.changed, report.deleted], [1, 1, 1])
        XCTAssertEqual(try desktop.entry(ids[0]).text, "one, edited")
        XCTAssertEqual(try desktop.entry(added.id).text, "three")
        XCTAssertEqual(try desktop.list().count, 2)
    }

    func testASyncWithNothingNewChangesNothing() throws {
        _ = try twoMachines(entries: ["one"])
        var quiet = SyncReport()
        // Both have written: the laptop its entry, the desktop the record that asked to join.
        quiet.machines = 2
        _ = try sync(laptop, as: "laptop")
        XCTAssertEqual(try sync(desktop, as: "desktop"), quiet)
        XCTAssertEqual(try sync(desktop, as: "desktop"), quiet)
    }

    func testAnEntryChangedOnBothMachinesIsAConflictUntilResolved() throws {
        let ids = try twoMachines(entries: ["shared", "calm"])
        try laptop.update(ids[0], text: "shared, from the laptop")
        try desktop.update(ids[0], text: "shared, from the desktop")
        _ = try sync(laptop, as: "laptop")
        let report = try sync(desktop, as: "desktop")
        XCTAssertEqual(report.newConflicts, [ids[0]])
        XCTAssertEqual(report.conflicts, [ids[0]])

        let engine = try SyncEngine(vault: desktop, stateDirectory: state("desktop"))
        let conflict = try XCTUnwrap(try engine.conflicts().first)
        XCTAssertEqual(conflict.versions.map(\.machineName).sorted(), ["desktop", "laptop"])
        XCTAssertThrowsError(try engine.resolve(ids[1], keeping: .mine)) {
            XCTAssertEqual($0 as? SyncError, .noConflict(ids[1]))
        }
        try engine.resolve(ids[0], keeping: .theirs)
        XCTAssertEqual(try desktop.entry(ids[0]).text, "shared, from the laptop")
        XCTAssertEqual(try sync(desktop, as: "desktop").sent, 1)
        XCTAssertEqual(try sync(laptop, as: "laptop").conflicts, [])
        XCTAssertEqual(try laptop.entry(ids[0]).text, "shared, from the laptop")
    }

    func testLargeChangesAreCutIntoSeveralRecords() {
        let text = String(repeating: "x", count: RecordCodec.batchBytes / 2)
        let revisions = (0..<5).map { _ in
            Revision(
                entry: UUID(), id: UUID(), parents: [],
                content: Entry(
                    id: UUID(), text: text, date: Date(), created: Date(), modified: Date(), starred: false, tags: []))
        }
        XCTAssertEqual(SyncEngine.batches(of: revisions).map(\.count), [1, 1, 1, 1, 1])
        XCTAssertEqual(SyncEngine.batches(of: Array(revisions.prefix(1))).map(\.count), [1])
        XCTAssertEqual(SyncEngine.batches(of: []).map(\.count), [0], "a key change alone is one record")
    }
}
