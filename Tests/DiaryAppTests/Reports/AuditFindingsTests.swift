import DiaryApp
import DiaryCrypto
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `audit`'s warnings as values: a weak key derivation, files open to others, editor leftovers,
/// and no recently verified backup; in the order the report lists them.
final class AuditFindingsTests: VaultTestCase {
    private func findings(_ directory: URL, backup: Date? = nil, leftovers: [String] = []) throws -> [AuditFinding] {
        let exposure = try VaultExposure.measure(at: directory)
        return AuditFindings(exposure: exposure, lastVerifiedBackup: backup, editorLeftovers: leftovers, now: Fixed.now)
            .findings
    }

    func testAWeakVaultWithoutABackupHasBothFindings() throws {
        let vault = try makeVault(.sqlite)
        XCTAssertEqual(
            try findings(vault.directory),
            [
                .weakKeyDerivation(.insecureForTesting), .noRecentBackup(maxAgeDays: AuditFindings.backupMaxAgeDays),
            ])
    }

    func testABackupVerifiedWithinThirtyDaysIsRecent() throws {
        let vault = try makeVault(.files)
        let day: TimeInterval = 86_400
        XCTAssertFalse(
            try findings(vault.directory, backup: Fixed.now.addingTimeInterval(-30 * day))
                .contains(.noRecentBackup(maxAgeDays: 30)))
        XCTAssertTrue(
            try findings(vault.directory, backup: Fixed.now.addingTimeInterval(-30 * day - 1))
                .contains(.noRecentBackup(maxAgeDays: 30)))
    }

    func testFilesOpenToOthersAndEditorLeftoversAreNamedWithTheirPaths() throws {
        let vault = try makeVault(.files)
        let directory = vault.directory
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let leftover = "/dev/shm/diary-edit-1234"
        let found = try findings(directory, backup: Fixed.now, leftovers: [leftover])
        XCTAssertEqual(
            found,
            [
                .weakKeyDerivation(.insecureForTesting),
                .tooOpen(path: directory.path, mode: 0o755, isDirectory: true),
                .editorLeftover(path: leftover),
            ])
    }

    func testAFileOpenToOthersIsNamedInsideTheVault() {
        let directory = URL(fileURLWithPath: "/tmp/vault")
        let header = VaultExposure.FileFacts(
            path: "vault.header", isDirectory: false, mode: 0o644, size: 1, modified: Fixed.now)
        XCTAssertEqual(
            AuditFinding.tooOpen(header, in: directory),
            .tooOpen(path: "/tmp/vault/vault.header", mode: 0o644, isDirectory: false))
        let itself = VaultExposure.FileFacts(path: ".", isDirectory: true, mode: 0o750, size: 0, modified: Fixed.now)
        XCTAssertEqual(
            AuditFinding.tooOpen(itself, in: directory), .tooOpen(path: "/tmp/vault", mode: 0o750, isDirectory: true))
    }
}
