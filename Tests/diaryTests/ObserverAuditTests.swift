import XCTest

/// `diary audit` through the binary: the report (warnings included) is data on stdout; the
/// status is 0 unless the vault cannot be read; a default vault (the real key derivation) with
/// a backup `verify` noted has no warnings. What the report says for a weakened vault, the
/// entry counts and sizes, and the entry times are `AuditReportTests`', in process.
final class ObserverAuditTests: XCTestCase {
    private func audit(_ box: DiarySandbox, env: [String: String] = [:]) throws -> [String: Any] {
        let result = try box.ok(["audit", "--json"], env: env)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    private func warnings(_ report: [String: Any]) -> [String] { report["warnings"] as? [String] ?? [] }

    /// The default vault: real `moderate` KDF (the test switch unset), modes as created. A
    /// damaged backup is not noted; a verified one is, outside the vault, and then the audit
    /// has no warnings.
    func testADefaultVaultWithAVerifiedBackupHasNoWarnings() throws {
        let good = try DiarySandbox(name: "audit-good")
        let noTestKDF = ["DIARY_INSECURE_TEST_KDF": ""]
        _ = try good.passphraseFile("correct horse", name: "pass")
        good.environment["DIARY_PASSPHRASE_FILE"] = good.root.appendingPathComponent("pass").path
        try good.ok(["init", "--new-passphrase-file", good.root.appendingPathComponent("pass").path], env: noTestKDF)
        try good.ok(["new", "Back me up."], env: noTestKDF)
        let id = try XCTUnwrap(try audit(good)["vaultID"] as? String)
        let note = good.root.appendingPathComponent("home/.local/state/diary/verified-backup-\(id)")
        let damaged = good.root.appendingPathComponent("damaged.diarybak")
        try good.ok(["backup", damaged.path], env: noTestKDF)
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 40] ^= 0x01
        try bytes.write(to: damaged)
        XCTAssertEqual(try good.run(["verify", damaged.path], env: noTestKDF).status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: note.path), "a damaged backup is not noted")

        let backup = good.root.appendingPathComponent("b.diarybak").path
        try good.ok(["backup", backup], env: noTestKDF)
        try good.ok(["verify", backup], env: noTestKDF)
        let text = try String(contentsOf: note, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("diary-verified-backup 1\n"), text)
        let mode = try FileManager.default.attributesOfItem(atPath: note.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let clean = try audit(good)
        XCTAssertEqual(warnings(clean), [], "a default vault with a verified backup")
        XCTAssertEqual((clean["kdf"] as? [String: Any])?["belowDefault"] as? Bool, false)
        XCTAssertNotNil(clean["lastVerifiedBackup"] as? String)
        XCTAssertTrue(try good.ok(["audit"]).stdout.contains("no warnings"))
    }

    /// Warnings (an editor directory left in the runtime directory among them) are lines on
    /// stdout and do not fail the audit; no vault at all is 66.
    func testWarningsGoToStdoutWithStatus0AndAMissingVaultIs66() throws {
        let box = try DiarySandbox(name: "audit-weak")
        let missing = try box.run(["audit"])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        XCTAssertEqual(missing.stdout, "")

        try box.initVault(store: "files")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: box.vault.path)
        // Found where `diary edit` makes them: the runtime directory.
        let leftover = box.runtime.appendingPathComponent("diary-edit-Ab12Cd")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        let result = try box.run(["audit"])
        XCTAssertEqual(result.status, 0, "warnings do not fail the audit: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        XCTAssertEqual(lines.count, 4, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("is below the default") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("\(box.vault.path) has mode 0755, wider than 0700") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("leftover editor directory \(leftover.path)") }, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("no backup of this vault was verified") }, result.stdout)
        XCTAssertEqual(warnings(try audit(box)).count, 4, "--json carries the same warnings")
    }
}
