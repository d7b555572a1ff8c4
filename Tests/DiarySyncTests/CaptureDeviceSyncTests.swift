import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// Capture devices' records through a folder remote (docs/FORMAT.md §12.11): ordinary puts,
/// and a conflict between copies of one enrolment merged at once, the same way on every
/// machine.
final class CaptureDeviceSyncTests: VaultTestCase {
    private var machines: SyncTestMachines!
    private let enrolled = Date(millisecondsSince1970: 1_700_000_000_000)

    override func setUpWithError() throws {
        try super.setUpWithError()
        machines = SyncTestMachines(self)
        try machines.start("laptop")
        try machines.join("desktop", invitedBy: "laptop")
    }

    private func device(counters: CaptureCounterSet = CaptureCounterSet(), revoked: Date? = nil) throws
        -> CaptureDeviceRecord
    {
        var inbox = [UInt8](repeating: 7, count: 32)
        return CaptureDeviceRecord(
            id: UUID(uuidString: "d1d1d1d1-0000-4000-8000-000000000001")!, name: "phone", enrolled: enrolled,
            revoked: revoked, devicePublicKey: [UInt8](repeating: 3, count: 32),
            inboxSecretKey: try SecretBytes(consuming: &inbox), counters: counters)
    }

    /// Writes a device record into a machine's vault as taking in or revoking would.
    private func put(_ record: CaptureDeviceRecord, on machine: String) throws {
        _ = try machines[machine].applySynced(puts: [record.entry], deletes: [], expected: [:])
    }

    private func stored(on machine: String) throws -> CaptureDeviceRecord? {
        try machines[machine].storedEntry(try device().id)?.captureDevice
    }

    func testADeviceRecordTravelsAsAnOrdinaryPutAndIsNoEntry() throws {
        try put(try device(counters: CaptureCounterSet([1...2, 5...5])), on: "laptop")
        XCTAssertEqual(try machines.sync("laptop").sent, 1)
        let report = try machines.sync("desktop")
        XCTAssertEqual(report.added, 1)
        XCTAssertEqual(try stored(on: "desktop"), try device(counters: CaptureCounterSet([1...2, 5...5])))
        XCTAssertEqual(try machines["desktop"].list(), [], "a device record is listed as no entry")
    }

    func testCopiesChangedOnTwoMachinesMergeIntoTheUnionWithoutAConflict() throws {
        try put(try device(), on: "laptop")
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
        try put(try device(counters: CaptureCounterSet([1...1, 3...3])), on: "laptop")
        try put(
            try device(counters: CaptureCounterSet([2...2, 4...4]), revoked: enrolled + 60), on: "desktop")
        var reports: [SyncReport] = []
        for machine in ["laptop", "desktop", "laptop", "desktop", "laptop"] {
            reports.append(try machines.sync(machine))
        }
        let merged = try device(counters: CaptureCounterSet([1...4]), revoked: enrolled + 60)
        XCTAssertEqual(try stored(on: "laptop"), merged)
        XCTAssertEqual(try stored(on: "desktop"), merged)
        XCTAssertEqual(reports.flatMap(\.newConflicts), [], "the copies were merged, never shown as a conflict")
        XCTAssertEqual(reports.last?.conflicts, [])
        XCTAssertEqual(try machines.sync("desktop").conflicts, [])
    }

    func testCopiesOfDifferentEnrolmentsStayAConflict() throws {
        try put(try device(), on: "laptop")
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
        var other = [UInt8](repeating: 8, count: 32)
        let changed = CaptureDeviceRecord(
            id: try device().id, name: "phone", enrolled: enrolled, devicePublicKey: [UInt8](repeating: 4, count: 32),
            inboxSecretKey: try SecretBytes(consuming: &other))
        try put(changed, on: "laptop")
        try put(try device(counters: CaptureCounterSet([1...1])), on: "desktop")
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").newConflicts, [try device().id])
        let engine = try SyncEngine(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        for choice in [ResolveChoice.both, .text("no text to edit")] {
            XCTAssertThrowsError(try engine.resolve(try device().id, keeping: choice)) {
                XCTAssertEqual($0 as? SyncError, .cannotResolve(.captureDeviceRecord))
            }
        }
        try engine.resolve(try device().id, keeping: .theirs)
        XCTAssertEqual(try stored(on: "desktop")?.devicePublicKey, [UInt8](repeating: 4, count: 32))
    }

    /// Copies whose union needs more counter intervals than a record may store (FORMAT.md §7.7)
    /// are not merged, so no machine writes a record every reader refuses: a conflict for a
    /// person, settled by keeping one copy.
    func testCopiesWhoseUnionIsTooLargeStayAConflict() throws {
        try put(try device(), on: "laptop")
        _ = try machines.sync("laptop")
        _ = try machines.sync("desktop")
        let cap = UInt64(CaptureCounterSet.maximumIntervals)
        let mine = CaptureCounterSet((0..<cap).map { 4 * $0 + 3...4 * $0 + 3 })
        try put(try device(counters: CaptureCounterSet((0..<cap).map { 4 * $0 + 1...4 * $0 + 1 })), on: "laptop")
        try put(try device(counters: mine), on: "desktop")
        _ = try machines.sync("laptop")
        XCTAssertEqual(try machines.sync("desktop").newConflicts, [try device().id])
        let engine = try SyncEngine(vault: machines["desktop"], stateDirectory: machines.state("desktop"))
        try engine.resolve(try device().id, keeping: .mine)
        _ = try machines.sync("desktop")
        _ = try machines.sync("laptop")
        XCTAssertEqual(try stored(on: "laptop"), try device(counters: mine))
        XCTAssertEqual(try stored(on: "desktop"), try device(counters: mine))
    }
}
