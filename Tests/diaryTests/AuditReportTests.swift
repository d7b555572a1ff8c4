import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import diary

/// `diary audit`'s report in process: the facts measured on the real files
/// (`VaultExposure`), the warnings as `audit` words them (`AuditFindings.lines`) and the
/// `--json` object (`AuditFindings.report`). What reaches stdout, the status, the real default
/// key derivation and the verified-backup note are `ObserverAuditTests`', through the binary.
final class AuditReportTests: VaultTestCase {
    private func findings(_ vault: Vault, leftovers: [String] = []) throws -> AuditFindings {
        AuditFindings(
            exposure: try VaultExposure.measure(at: vault.directory), lastVerifiedBackup: nil,
            editorLeftovers: leftovers, now: Date())
    }

    /// The report as `audit --json` prints it.
    private func json(_ findings: AuditFindings) throws -> [String: Any] {
        let data = try JSONEncoder().encode(findings.report)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The test key derivation, a 0755 directory, a 0644 file, a leftover editor directory and
    /// no backup: five warnings, worded, the same in the lines and in JSON.
    func testAWeakenedVaultHasEachWarning() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "A line.")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: vault.directory.path)
        let header = vault.directory.appendingPathComponent("vault.header").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: header)
        let leftover = path("diary-edit-Ab12Cd").path
        let report = try findings(vault, leftovers: [leftover])
        let lines = report.lines.filter { $0.hasPrefix("warning: ") }
        XCTAssertEqual(lines.count, 5, "\(report.lines)")
        XCTAssertTrue(
            lines.contains { $0.contains("key derivation argon2id(ops: 1, mem: 64 KiB) is below the default") })
        XCTAssertTrue(lines.contains { $0.contains("\(vault.directory.path) has mode 0755, wider than 0700") })
        XCTAssertTrue(lines.contains { $0.contains("\(header) has mode 0644, wider than 0600") })
        XCTAssertTrue(lines.contains { $0.contains("leftover editor directory \(leftover)") })
        XCTAssertTrue(lines.contains { $0.contains("no backup of this vault was verified") })
        XCTAssertFalse(report.lines.contains("no warnings"))
        XCTAssertEqual((try json(report)["warnings"] as? [String])?.count, 5, "--json carries the same warnings")
    }

    func testAuditCountsEntriesAndShowsTheirPaddedSizesAsAnObserverWould() throws {
        for kind in StoreKind.allCases {
            let store = kind.rawValue
            let vault = try makeVault(kind)
            _ = try vault.add(text: "Short.")
            _ = try vault.add(text: String(repeating: "Somewhat longer, still one bucket. ", count: 10))
            _ = try vault.add(text: String(repeating: "Long enough for the next bucket. ", count: 40))
            let report = try json(try findings(vault))
            XCTAssertEqual(report["entryCount"] as? Int, 3, store)
            let sizes = (report["entrySizes"] as? [[String: Int]] ?? []).map { [$0["size"]!, $0["count"]!] }
            XCTAssertEqual(sizes.count, 2, "two texts share the first bucket (\(store)): \(sizes)")
            XCTAssertEqual(sizes.first, [558, 2], "512-byte bucket + 46 bytes of envelope and tag (\(store))")
            XCTAssertEqual(report["entryTimes"] as? String, store == "files" ? "hidden" : "one-file")
            XCTAssertEqual(report["store"] as? String, store)
            let files = (report["files"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
            XCTAssertTrue(files.contains(store == "files" ? "vault.header" : "vault.sqlite"), "\(files)")
        }
    }

    func testAnEntryFileWithARealModificationTimeIsReported() throws {
        let vault = try makeVault(.files)
        let id = try vault.add(text: "Touched later.").id.uuidString.lowercased()
        XCTAssertFalse(try findings(vault).warnings.contains { $0.contains("real modification times") })
        try FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: vault.directory.appendingPathComponent("entries/\(id)").path)
        let report = try findings(vault)
        XCTAssertEqual(try json(report)["entryTimes"] as? String, "informative")
        XCTAssertTrue(report.warnings.contains { $0.contains("some entry files carry real modification times") })
    }
}
