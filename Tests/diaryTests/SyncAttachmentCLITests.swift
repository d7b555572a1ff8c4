import Foundation
import XCTest

/// `diary sync` moves attachments and says so: uploaded by the machine that added them,
/// left pending by `--no-attachments`, fetched by `extract` when it needs one, and by the
/// next plain sync.
final class SyncAttachmentCLITests: XCTestCase {
    func testSyncSaysWhatAttachmentsMovedAndExtractFetchesADeferredOne() throws {
        let net = try SyncMachines(.git, name: "sync-attach")
        let laptop = try net.first(store: "sqlite")
        let desktop = try net.join(store: "files")
        let content = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 10) })
        let file = net.scratch.appendingPathComponent("scan.bin")
        try content.write(to: file)
        let id = try laptop.ok(["new", "A scanned letter", "--attach", file.path]).out

        let sent = try net.sync(0)
        XCTAssertTrue(sent.stderr.contains("uploaded 1 attachment(s)"), sent.stderr)

        let deferred = try desktop.ok(["sync", "--no-attachments"])
        XCTAssertTrue(deferred.stderr.contains("added 1"), deferred.stderr)
        XCTAssertTrue(deferred.stderr.contains("1 attachment(s) pending"), deferred.stderr)
        let status = try desktop.ok(["sync", "status"])
        XCTAssertTrue(status.stdout.contains("attachments pending: 1"), status.stdout)

        let out = net.scratch.appendingPathComponent("extracted.bin")
        try desktop.ok(["extract", String(id.prefix(8)), "scan.bin", "-o", out.path, "--yes"])
        XCTAssertEqual(try Data(contentsOf: out), content)

        let later = try desktop.ok(["sync"])
        XCTAssertFalse(later.stderr.contains("pending"), later.stderr)
        XCTAssertFalse(later.stderr.contains("fetched"), "extract fetched it already: \(later.stderr)")
    }

    /// When the only copy on the remote is refused, `extract` names that copy and why, rather
    /// than send the user to a sync that cannot help.
    func testExtractNamesTheRefusedCopyWhenTheOnlyOneIsDamaged() throws {
        let net = try SyncMachines(.folder, name: "sync-refused")
        let laptop = try net.first(store: "files")
        let desktop = try net.join(store: "sqlite")
        let file = net.scratch.appendingPathComponent("note.bin")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 13) }).write(to: file)
        let id = try laptop.ok(["new", "A note", "--attach", file.path]).out
        try net.sync(0)
        try desktop.ok(["sync", "--no-attachments"])
        let folder = net.folder(1).appendingPathComponent("attachments")
        let machine = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        let object = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(machine).path).first)
        let copy = folder.appendingPathComponent(machine).appendingPathComponent(object)
        var bytes = try Data(contentsOf: copy)
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: copy)

        let out = net.scratch.appendingPathComponent("out.bin")
        let failed = try desktop.run(["extract", String(id.prefix(8)), "note.bin", "-o", out.path, "--yes"])
        XCTAssertEqual(failed.status, 65, failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains(
                "is not in the vault: the copy on the remote (attachments/\(machine)/\(object)) is damaged: "
                    + "its bytes are not the ones its entry names; it was not used"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("`diary sync` fetches it"), failed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
    }
}
