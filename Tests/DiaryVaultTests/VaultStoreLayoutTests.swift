import DiaryStore
import DiaryTestSupport
import Foundation
import GRDB
import XCTest

@testable import DiaryVault

/// `verify` reports whatever a store holds besides what diary writes: in a SQLite vault any
/// schema object not created by `SQLiteSchema.createSQL`, in a files vault any name the store
/// does not write. Every sealed object still authenticates in these cases.
final class VaultStoreLayoutTests: VaultTestCase {
    private func sqliteVault() throws -> (Vault, URL) {
        let vault = try makeVault(.sqlite)
        _ = try vault.add(text: "one")
        _ = try vault.add(text: "two")
        return (vault, vault.directory.appendingPathComponent("vault.sqlite"))
    }

    private func storeFindings(_ vault: Vault) throws -> [String] {
        try vault.verify().damaged.filter { $0.object == .store }.map(\.reason)
    }

    func testACleanVaultHasNoStoreFindings() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "one")
            XCTAssertTrue(try vault.verify().isClean)
        }
    }

    func testEveryAddedSchemaObjectIsReported() throws {
        let additions: [(String, String)] = [
            (
                "trigger",
                """
                CREATE TABLE shadow (id BLOB, sealed BLOB);
                CREATE TRIGGER keep BEFORE DELETE ON entry BEGIN
                  INSERT INTO shadow VALUES (old.id, old.sealed); END;
                """
            ),
            ("view", "CREATE VIEW everything AS SELECT * FROM entry"),
            ("extra table", "CREATE TABLE notes (x)"),
            ("extra index", "CREATE INDEX by_sealed ON entry (sealed)"),
        ]
        for (name, sql) in additions {
            let (vault, database) = try sqliteVault()
            XCTAssertTrue(try vault.verify().isClean, name)
            try DatabaseQueue(path: database.path).write { try $0.execute(sql: sql) }
            let findings = try storeFindings(Vault.open(at: vault.directory, passphrase: secret("correct horse")))
            XCTAssertFalse(findings.isEmpty, "\(name) went unreported")
            XCTAssertTrue(findings.allSatisfy { $0.contains("unexpected") }, "\(name): \(findings)")
            try FileManager.default.removeItem(at: vault.directory)
        }
    }

    func testATriggerCopyingDeletedRowsIsNamed() throws {
        let (vault, database) = try sqliteVault()
        try DatabaseQueue(path: database.path).write {
            try $0.execute(
                sql: """
                    CREATE TABLE shadow (id BLOB, sealed BLOB);
                    CREATE TRIGGER keep BEFORE DELETE ON entry BEGIN INSERT INTO shadow VALUES (old.id, old.sealed); END;
                    """)
        }
        let findings = try storeFindings(vault)
        XCTAssertTrue(findings.contains("unexpected trigger 'keep' on 'entry' in the database"), "\(findings)")
        XCTAssertTrue(findings.contains("unexpected table 'shadow' in the database"), "\(findings)")
    }

    func testAChangedTableDefinitionIsReported() throws {
        let (vault, database) = try sqliteVault()
        // Swap `header` for a table of the same name without its CHECKs.
        try DatabaseQueue(path: database.path).write {
            try $0.execute(
                sql: """
                    CREATE TABLE h2 (id INTEGER PRIMARY KEY, sealed BLOB NOT NULL);
                    INSERT INTO h2 SELECT * FROM header; DROP TABLE header; ALTER TABLE h2 RENAME TO header;
                    """)
        }
        XCTAssertTrue(try storeFindings(vault).contains { $0.contains("'header'") && $0.contains("differs") })
    }

    func testEveryUnknownNameInAFilesVaultIsReported() throws {
        let vault = try makeVault(.files)
        let e = try vault.add(text: "one")
        let dir = vault.directory
        let fm = FileManager.default
        // Tolerated: a killed writer's temporary files.
        try Data([1]).write(to: dir.appendingPathComponent(".tmp-leftover"))
        let tolerated = try vault.verify()
        XCTAssertTrue(tolerated.isClean, "\(tolerated.damaged)")
        try Data([1]).write(to: dir.appendingPathComponent("notes.txt"))
        try Data([1]).write(to: dir.appendingPathComponent("entries/README"))
        try Data([1]).write(to: dir.appendingPathComponent("index/zz"))
        try Data([1]).write(to: dir.appendingPathComponent("entries/" + e.id.uuidString.uppercased()))
        try fm.createDirectory(at: dir.appendingPathComponent("entries/sub"), withIntermediateDirectories: false)
        try fm.createSymbolicLink(
            atPath: dir.appendingPathComponent("index/link").path, withDestinationPath: "/etc/passwd")
        let findings = try storeFindings(vault)
        for name in [
            "'notes.txt' in the vault directory", "'README' in entries/", "'zz' in index/",
            "'\(e.id.uuidString.uppercased())' in entries/", "directory 'sub' in entries/",
            "symbolic link 'link' in index/",
        ] {
            XCTAssertTrue(findings.contains { $0.contains(name) }, "\(name) not reported: \(findings)")
        }
        XCTAssertEqual(findings.count, 6, "\(findings)")
    }

    /// `00000080` is a name the store may write (any u32 page number), so the store does not
    /// flag it; the root does not name page 128, and the vault reports it as not part of the index.
    func testAPageFileBeyondTheIndexIsReportedByTheVault() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        try Data(try Data(contentsOf: vault.directory.appendingPathComponent("index/00000040")))
            .write(to: vault.directory.appendingPathComponent("index/00000080"))
        let report = try vault.verify()
        XCTAssertTrue(
            report.damaged.contains { $0.object == .index && $0.reason.contains("page 128") }, "\(report.damaged)")
    }
}
