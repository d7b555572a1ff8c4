import DiaryCrypto
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// `backup` without a key, `verify BACKUP` naming damaged entries, `restore --salvage`, and
/// `verify` finding what a store holds besides diary's own objects — through the binary.
final class BackupSalvageCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "salvage") }
    override func tearDown() { box = nil }

    /// `new` entries, in order of creation.
    private func entries(_ texts: [String]) throws -> [String] {
        try texts.map { try box.ok(["new", $0]).out }
    }

    func testBackupOfALockedVaultNeedsNoAgentPassphraseOrTerminal() throws {
        _ = try box.initVault(store: "sqlite")
        _ = try entries(["one", "two"])
        try box.ok(["lock"])
        let file = box.root.appendingPathComponent("locked.diarybak")
        // No agent, no passphrase file (in the environment or as an option), stdin not a terminal.
        let result = try box.run(["backup", file.path], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.out, file.path)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path))
        try box.ok(["verify", file.path])
    }

    private func flip(_ file: URL, inRecordOf id: String) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        let idBytes = withUnsafeBytes(of: UUID(uuidString: id)!.uuid) { Array($0) }
        let at = try XCTUnwrap((0..<(bytes.count - 16)).first { Array(bytes[$0..<($0 + 16)]) == idBytes })
        bytes[at + 16 + 100] ^= 0x04
        try Data(bytes).write(to: file)
    }

    func testVerifyAndSalvageOfADamagedBackupNameTheDamagedEntry() throws {
        _ = try box.initVault(store: "files")
        let ids = try entries(["alpha", "beta", "gamma", "delta"])
        let file = box.root.appendingPathComponent("b.diarybak")
        try box.ok(["backup", file.path])
        try flip(file, inRecordOf: ids[2])

        let verify = try box.run(["verify", file.path])
        XCTAssertEqual(verify.status, 65, verify.stderr)
        XCTAssertTrue(verify.stdout.contains("entry \(ids[2])"), verify.stdout)
        XCTAssertFalse([ids[0], ids[1], ids[3]].contains { verify.stdout.contains($0) }, verify.stdout)
        XCTAssertTrue(verify.stderr.contains("--salvage"), verify.stderr)

        let refused = try box.run(["restore", file.path, "--to", box.root.appendingPathComponent("plain").path])
        XCTAssertEqual(refused.status, 65, refused.stderr)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: box.root.appendingPathComponent("plain/vault.header").path))

        let target = box.root.appendingPathComponent("salvaged")
        let salvage = try box.run(["restore", file.path, "--to", target.path, "--salvage"])
        XCTAssertEqual(salvage.status, 65, salvage.stderr)
        XCTAssertEqual(salvage.stdout, "", "stdout carries data only")
        XCTAssertTrue(salvage.stderr.contains("lost: entry \(ids[2])"), salvage.stderr)
        XCTAssertTrue(salvage.stderr.contains("restored 3 entries"), salvage.stderr)
        let restored = ["--vault", target.path]
        try box.ok(["verify"] + restored)
        for (n, text) in ["alpha", "beta", "delta"].enumerated() {
            let id = [ids[0], ids[1], ids[3]][n]
            XCTAssertTrue(try box.ok(["show", id] + restored).stdout.contains(text))
        }
        XCTAssertNotEqual(try box.run(["show", ids[2]] + restored).status, 0)
    }

    /// Seeded random flips inside entry records, through the binary: a few, or 32 in a full
    /// sweep (`Scripts/soak`); the vault-level test runs two hundred anywhere in the file.
    func testSalvageThroughTheBinaryAfterRandomFlipsInEntryRecords() throws {
        _ = try box.initVault(store: "sqlite")
        let texts = (0..<8).map { "entry number \($0)" }
        let ids = try entries(texts)
        let file = box.root.appendingPathComponent("r.diarybak")
        try box.ok(["backup", file.path])
        let original = [UInt8](try Data(contentsOf: file))
        var rng = Sweep("BackupSalvageCLITests random flips")
        for round in 0..<rng.count(full: 32, sample: 4) {
            let victim = Int.random(in: 0..<ids.count, using: &rng)
            let idBytes = withUnsafeBytes(of: UUID(uuidString: ids[victim])!.uuid) { Array($0) }
            let idAt = try XCTUnwrap((0..<(original.count - 16)).first { Array(original[$0..<($0 + 16)]) == idBytes })
            let recordStart = idAt - 5
            let length = original[(recordStart + 1)...(recordStart + 4)].reduce(0) { $0 << 8 | Int($1) }
            let bit = Int.random(in: 0..<((5 + length) * 8), using: &rng)
            var bytes = original
            bytes[recordStart + bit / 8] ^= UInt8(1 << (bit % 8))
            let damaged = box.root.appendingPathComponent("r\(round).diarybak")
            try Data(bytes).write(to: damaged)
            let target = box.root.appendingPathComponent("s\(round)")
            let result = try box.run(["restore", damaged.path, "--to", target.path, "--salvage"])
            let context = "round \(round): entry \(victim), bit \(bit) (\(rng.replay))"
            XCTAssertEqual(result.status, 65, "\(context): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("lost: entry \(ids[victim])"), "\(context): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("restored \(ids.count - 1) entries"), "\(context): \(result.stderr)")
            for (n, id) in ids.enumerated() where n != victim {
                XCTAssertTrue(try box.ok(["show", id, "--vault", target.path]).stdout.contains(texts[n]), context)
            }
        }
    }

    func testSalvageOfABackupWithADamagedHeaderSaysNothingCanBeSalvaged() throws {
        _ = try box.initVault(store: "files")
        _ = try entries(["alpha"])
        let file = box.root.appendingPathComponent("h.diarybak")
        try box.ok(["backup", file.path])
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[40] ^= 0x01  // inside the header record
        try Data(bytes).write(to: file)
        let result = try box.run(["restore", file.path, "--to", box.root.appendingPathComponent("s").path, "--salvage"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing can be salvaged"), result.stderr)
    }

    private func sqlite(_ sql: String, on database: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
            database.path, sql,
        ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }

    func testVerifyReportsATriggerThatKeepsDeletedEntries() throws {
        _ = try box.initVault(store: "sqlite")
        _ = try entries(["one"])
        try box.ok(["verify"])
        try sqlite(
            """
            CREATE TABLE shadow (id BLOB, sealed BLOB);
            CREATE TRIGGER keep BEFORE DELETE ON entry BEGIN INSERT INTO shadow VALUES (old.id, old.sealed); END;
            CREATE VIEW v AS SELECT * FROM entry;
            CREATE INDEX extra ON entry (sealed);
            """, on: box.vault.appendingPathComponent("vault.sqlite"))
        let result = try box.run(["verify"])
        XCTAssertEqual(result.status, 65, result.stderr)
        for name in ["trigger 'keep'", "table 'shadow'", "view 'v'", "index 'extra'"] {
            XCTAssertTrue(result.stdout.contains("store: unexpected \(name)"), "\(name): \(result.stdout)")
        }
    }

    func testVerifyReportsAnUnknownFileInAFilesVault() throws {
        _ = try box.initVault(store: "files")
        _ = try entries(["one"])
        for place in ["stray", "entries/stray", "index/stray"] {
            let url = box.vault.appendingPathComponent(place)
            try Data([0]).write(to: url)
            let result = try box.run(["verify"])
            XCTAssertEqual(result.status, 65, "\(place): \(result.stderr)")
            XCTAssertTrue(result.stdout.contains("'stray'"), "\(place): \(result.stdout)")
            try FileManager.default.removeItem(at: url)
        }
        try box.ok(["verify"])
    }

    /// The largest resident size of any waited-for child so far, in bytes.
    private func childPeak() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return usage.ru_maxrss * 1024
    }

    func testVerifyingALargeBackupDoesNotHoldTheFile() throws {
        _ = try box.initVault(store: "files")
        let ids = try entries(["one", "two"])
        let file = box.root.appendingPathComponent("big.diarybak")
        try box.ok(["backup", file.path])
        // 128 MiB of zeros (a hole: cheap to make and to read) before the end record.
        let bytes = [UInt8](try Data(contentsOf: file))
        let handle = try FileHandle(forWritingTo: file)
        let junk = 128 << 20
        try handle.truncate(atOffset: UInt64(bytes.count - 45))
        try handle.seek(toOffset: UInt64(bytes.count - 45 + junk))
        try handle.write(contentsOf: Data(bytes.suffix(45)))
        try handle.close()
        let before = childPeak()
        let result = try box.run(["verify", file.path])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stdout.contains("\(junk) bytes cannot be read as records"), result.stdout)
        XCTAssertFalse(ids.contains { result.stdout.contains($0) }, "no entry is damaged: \(result.stdout)")
        // Holding the file would take 128 MiB at least; streaming takes a few MiB above the
        // process's own size. (Only meaningful when no earlier child of this runner was larger.)
        if before < 64 << 20 {
            XCTAssertLessThan(childPeak(), 96 << 20, "verify held the backup in memory")
        }
    }

    func testRestoringALargeBackupDoesNotHoldIt() throws {
        // 20 entries of 6 MiB: a 120 MiB backup, made in-process (cheap KDF) and restored by the binary.
        let passphrase = try box.passphraseFile("correct horse")
        var bytes = Array("correct horse".utf8)
        let vault = try Vault.create(
            at: box.vault, store: .files, passphrase: try SecretBytes(consuming: &bytes), kdf: .insecureForTesting)
        let line = String(repeating: "a diary line of moderate length\n", count: 6 << 15)
        for n in 0..<20 { _ = try vault.add(text: "big \(n)\n" + line) }
        let file = box.root.appendingPathComponent("large.diarybak")
        try vault.backup(to: file)
        let before = childPeak()
        let target = box.root.appendingPathComponent("restored")
        let result = try box.run(["restore", file.path, "--to", target.path, "--passphrase-file", passphrase])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("restored 20 entries"), result.stderr)
        if before < 64 << 20 {
            XCTAssertLessThan(childPeak(), 160 << 20, "restore held the backup in memory")
        }
    }
}
