import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// A backup is written beside its path and takes the name only when complete: an interrupted
/// one leaves nothing under it, and a file that took the name meanwhile is never replaced.
final class BackupWriterTests: VaultTestCase {
    private func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    func testTheFinalNameAppearsOnlyWhenTheBackupIsComplete() throws {
        let directory = path("out")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("b.diarybak")
        var tracked: [String?] = []
        var writer = try BackupFile.Writer(creating: file) { tracked.append($0) }
        try writer.record(type: BackupFile.headerType, payload: [UInt8](repeating: 7, count: 3 << 20))
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "cut short here: nothing under the name")
        XCTAssertEqual(try names(directory).count, 1)
        XCTAssertTrue(try names(directory)[0].hasPrefix(".diary-backup-\(getpid())-"))
        try writer.finish()
        XCTAssertEqual(try names(directory), ["b.diarybak"])
        XCTAssertEqual(tracked.map { $0 == nil }, [false, true], "the temporary file, then nothing to remove")
        let reader = try BackupReader(file)
        try reader.scan()
        XCTAssertEqual(reader.findings.count, 0, "framing, record count and checksum as written")
    }

    func testAFileThatTookTheNameMeanwhileIsKeptAndAFailedBackupLeavesNothing() throws {
        let directory = path("race")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("b.diarybak")
        var writer = try BackupFile.Writer(creating: file)
        try writer.record(type: BackupFile.headerType, payload: [1, 2, 3])
        try Data("someone else's".utf8).write(to: file)
        XCTAssertThrowsError(try writer.finish()) { XCTAssertEqual($0 as? VaultError, .backupExists(path: file.path)) }
        XCTAssertEqual(try Data(contentsOf: file), Data("someone else's".utf8))
        XCTAssertEqual(try names(directory), ["b.diarybak"])

        let vault = try makeVault(.files)
        XCTAssertThrowsError(try vault.backup(to: file))
        XCTAssertEqual(try Data(contentsOf: file), Data("someone else's".utf8), "an existing file is never touched")
        XCTAssertEqual(try names(directory), ["b.diarybak"])
    }
}
