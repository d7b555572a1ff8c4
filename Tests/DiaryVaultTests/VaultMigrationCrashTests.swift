import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Kill -9 during the migration of an index of version 2, or of a root of version 3 (naming
/// its pages), to root version 5 (docs/FORMAT.md §7.3): the vault opens after it, at the old
/// version or 5, with every entry intact and verify clean, and a later open finishes the
/// migration. A `Sweep`: 40 kills per store under `Scripts/soak`, a sample otherwise.
final class VaultMigrationCrashTests: VaultTestCase {
    func testAKilledMigrationOfAFilesVaultLosesNothing() throws { try runKillRounds(.files, from: 2) }

    func testAKilledMigrationOfASQLiteVaultLosesNothing() throws { try runKillRounds(.sqlite, from: 2) }

    func testAKilledMigrationOfAVersion3FilesVaultLosesNothing() throws { try runKillRounds(.files, from: 3) }

    func testAKilledMigrationOfAVersion3SQLiteVaultLosesNothing() throws { try runKillRounds(.sqlite, from: 3) }

    private func runKillRounds(_ kind: StoreKind, from old: Int) throws {
        _ = try StressChild.executable()
        var rng = Sweep("VaultMigrationCrashTests \(kind.rawValue) \(old)")
        let rounds = rng.count(full: 40, sample: 6)
        let vault = try makeVault(kind)
        var entries: [Entry] = []
        for batch in 0..<4 {
            let puts = (0..<500).map { n in
                let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(batch * 500 + n) * 60_000)
                return Entry(
                    id: SecureRandom.uuid(), text: "entry \(batch)-\(n)\nbody", date: date, created: date,
                    modified: date, starred: n % 7 == 0, tags: n % 4 == 0 ? ["four"] : [])
            }
            _ = try vault.applySynced(puts: puts, deletes: [], expected: [:])
            entries += puts
        }
        let passFile = path("pass")
        try writePassphraseFile("correct horse", to: passFile)
        var outcomes: [Int: Int] = [:]
        for round in 0..<rounds {
            let context = "\(kind.rawValue) round \(round) (\(rng.replay))"
            let start = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            if start.indexVersion != old {
                try old == 2 ? LegacyIndexWriter.downgrade(start) : LegacyIndexWriter.downgradeToVersion3(start)
            }
            let child = try StressChild(
                ["migrate", vault.directory.path, passFile.path], logs: scratch, name: "\(kind.rawValue)-migrate")
            XCTAssertTrue(child.waitFor(line: "READY"), "\(context): \(child.errorOutput)")
            usleep(UInt32.random(in: 0...150_000, using: &rng))
            child.killNow()
            let finished = child.lines().contains("MIGRATED")
            let after = try rng.check(context) {
                try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            }
            XCTAssertTrue([old, 5].contains(after.indexVersion), context)
            if finished { XCTAssertEqual(after.indexVersion, 5, "\(context): acknowledged, so done") }
            outcomes[after.indexVersion, default: 0] += 1
            try rng.check(context) {
                XCTAssertEqual(after.indexState, .ok, context)
                XCTAssertEqual(Set(try after.list().map(\.id)), Set(entries.map(\.id)), context)
                XCTAssertTrue(try after.verify().isClean, context)
                try after.migrateIndexIfNeeded()
                let done = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
                XCTAssertEqual(done.indexVersion, 5, context)
                XCTAssertEqual(done.entryCount, entries.count, context)
                XCTAssertEqual(try done.backend.auditLayout(), [], context)
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        print(
            "migration crash \(kind.rawValue) from \(old): \(rounds) kills, index version after the kill: \(outcomes)")
    }
}
