import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// `Scripts/decrypt-vault.py REMOTE`, written from docs/FORMAT.md §12 with PyNaCl alone, finds
/// an entry's attachment object in `attachments/<machine>/` of a remote this code wrote, checks
/// it as §7.6 says, refuses a changed copy, and calls a missing one pending.
final class SyncAttachmentReaderTests: VaultTestCase {

    private func run(_ remote: URL) throws -> (status: Int32, output: String) {
        try PythonReader.run([PythonReader.script.path, remote.path, "correct horse"])
    }

    private func requirePython() throws { try PythonReader.requireSecretstream() }

    func testThePythonReaderChecksARemotesObjectsAndRefusesAChangedOne() throws {
        try requirePython()
        let machines = SyncTestMachines(self)
        try machines.start("laptop", store: .files)
        let content = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 9) }
        var offset = 0
        let entry = try machines["laptop"].add(
            text: "with a scan",
            attachments: [
                AttachmentInput(name: "scan.pdf", mediaType: "application/pdf") { buffer in
                    let count = min(buffer.count, content.count - offset)
                    buffer.replaceSubrange(0..<count, with: content[offset..<offset + count])
                    offset += count
                    return count
                }
            ])
        try machines.sync("laptop")
        let object = entry.attachments[0].objectID.uuidString.lowercased()
        let path = RemoteLayout.attachmentPath(
            machine: try machines.main("laptop").machine, object: entry.attachments[0].objectID)

        let good = try run(machines.remoteRoot)
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.output.contains("its object: `\(path)`: checked (§7.6), 150000 bytes"), good.output)

        let file = machines.remoteRoot.appendingPathComponent(path)
        var bytes = try Data(contentsOf: file)
        bytes[bytes.count - 20] ^= 0x40
        try bytes.write(to: file)
        let changed = try run(machines.remoteRoot)
        XCTAssertEqual(changed.status, 0, changed.output)
        XCTAssertTrue(changed.output.contains("`\(path)` refused:"), changed.output)
        XCTAssertFalse(changed.output.contains("checked (§7.6)"), changed.output)

        try FileManager.default.removeItem(at: file)
        let gone = try run(machines.remoteRoot)
        XCTAssertTrue(gone.output.contains("its object: pending: not on the remote"), gone.output)
        XCTAssertFalse(gone.output.contains(object + "`:"), gone.output)
    }
}
