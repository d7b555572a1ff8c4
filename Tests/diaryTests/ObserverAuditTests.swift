import XCTest

/// `diary audit`: what a copy reveals, measured on the real files, and warnings about weak
/// settings. The report (warnings included) is data on stdout; the status is 0 unless the
/// vault cannot be read.
final class ObserverAuditTests: XCTestCase {
    private func audit(_ box: DiarySandbox, env: [String: String] = [:]) throws -> [String: Any] {
        let result = try box.ok(["audit", "--json"], env: env)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    private func warnings(_ report: [String: Any]) -> [String] { report["warnings"] as? [String] ?? [] }

    func testADefaultVaultWithAVerifiedBackupHasNoWarningsAndAWeakenedOneHasEach() throws {
        // The default vault: real `moderate` KDF (the test switch unset), modes as created,
        // a backup verified.
        let good = try DiarySandbox(name: "audit-good")
        let noTestKDF = ["DIARY_INSECURE_TEST_KDF": ""]
        _ = try good.passphraseFile("correct horse", name: "pass")
        good.environment["DIARY_PASSPHRASE_FILE"] = good.root.appendingPathComponent("pass").path
        try good.ok(["init", "--new-passphrase-file", good.root.appendingPathComponent("pass").path], env: noTestKDF)
        let backup = good.root.appendingPathComponent("b.diarybak").path
        try good.ok(["backup", backup], env: noTestKDF)
        try good.ok(["verify", backup], env: noTestKDF)
        let clean = try audit(good)
        XCTAssertEqual(warnings(clean), [], "a default vault with a verified backup")
        XCTAssertEqual((clean["kdf"] as? [String: Any])?["belowDefault"] as? Bool, false)
        XCTAssertNotNil(clean["lastVerifiedBackup"] as? String)
        XCTAssertTrue(try good.ok(["audit"]).stdout.contains("no warnings"))

        // The weakened vault: test KDF, a 0755 directory, a 0644 file, a leftover editor
        // directory, no backup.
        let weak = try DiarySandbox(name: "audit-weak")
        try weak.initVault(store: "files")
        try weak.ok(["new", "A line."])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: weak.vault.path)
        let header = weak.vault.appendingPathComponent("vault.header").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: header)
        let leftover = weak.runtime.appendingPathComponent("diary-edit-Ab12Cd")
        try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: false)
        let result = try weak.run(["audit"])
        XCTAssertEqual(result.status, 0, "warnings do not fail the audit: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        XCTAssertEqual(lines.count, 5, result.stdout)
        XCTAssertTrue(lines.contains { $0.contains("key derivation argon2id(ops: 1, mem: 64 KiB) is below the default") })
        XCTAssertTrue(lines.contains { $0.contains("\(weak.vault.path) has mode 0755, wider than 0700") })
        XCTAssertTrue(lines.contains { $0.contains("\(header) has mode 0644, wider than 0600") })
        XCTAssertTrue(lines.contains { $0.contains("leftover editor directory \(leftover.path)") })
        XCTAssertTrue(lines.contains { $0.contains("no backup of this vault was verified") })
        XCTAssertEqual(warnings(try audit(weak)).count, 5, "--json carries the same warnings")
    }

    func testAuditCountsEntriesAndShowsTheirPaddedSizesAsAnObserverWould() throws {
        for store in ["sqlite", "files"] {
            let box = try DiarySandbox(name: "audit-\(store)")
            try box.initVault(store: store)
            try box.ok(["new", "Short."])
            try box.ok(["new", String(repeating: "Somewhat longer, still one bucket. ", count: 10)])
            try box.ok(["new", String(repeating: "Long enough for the next bucket. ", count: 40)])
            let report = try audit(box)
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
        let box = try DiarySandbox(name: "audit-touch")
        try box.initVault(store: "files")
        let id = try box.ok(["new", "Touched later."]).out.lowercased()
        XCTAssertFalse(warnings(try audit(box)).contains { $0.contains("real modification times") })
        try FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: box.vault.appendingPathComponent("entries/\(id)").path)
        let report = try audit(box)
        XCTAssertEqual(report["entryTimes"] as? String, "informative")
        XCTAssertTrue(warnings(report).contains { $0.contains("some entry files carry real modification times") })
    }

    func testAVerifiedBackupIsNotedOutsideTheVaultAndADamagedOneIsNot() throws {
        let box = try DiarySandbox(name: "audit-backup")
        try box.initVault()
        try box.ok(["new", "Back me up."])
        let id = try XCTUnwrap(try audit(box)["vaultID"] as? String)
        let note = box.root.appendingPathComponent("home/.local/state/diary/verified-backup-\(id)")
        let damaged = box.root.appendingPathComponent("damaged.diarybak")
        try box.ok(["backup", damaged.path])
        var bytes = try Data(contentsOf: damaged)
        bytes[bytes.count - 40] ^= 0x01
        try bytes.write(to: damaged)
        XCTAssertEqual(try box.run(["verify", damaged.path]).status, 65)
        XCTAssertFalse(FileManager.default.fileExists(atPath: note.path), "a damaged backup is not noted")

        let backup = box.root.appendingPathComponent("good.diarybak").path
        try box.ok(["backup", backup])
        try box.ok(["verify", backup])
        let text = try String(contentsOf: note, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("diary-verified-backup 1\n"), text)
        let mode = try FileManager.default.attributesOfItem(atPath: note.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let report = try audit(box)
        XCTAssertNotNil(report["lastVerifiedBackup"] as? String)
        XCTAssertFalse(warnings(report).contains { $0.contains("no backup") })
    }

    func testAuditOfAMissingVaultFailsWithNoVault() throws {
        let box = try DiarySandbox(name: "audit-none")
        let result = try box.run(["audit"])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}
