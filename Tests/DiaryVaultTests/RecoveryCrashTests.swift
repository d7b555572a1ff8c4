import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Kill -9 while the recovery key is replaced again and again (docs/FORMAT.md §3.1): header and
/// index root are one change, so the vault always opens (never "does not match the index"),
/// loses no entry, and the key in force is the last one set (by this round's child, or before it)
/// or the one in flight, and resets the passphrase. A `Sweep`: 30 kills per store under `Scripts/soak`, a sample otherwise.
final class RecoveryCrashTests: VaultTestCase {
    func testAKilledRecoveryKeyChangeOfAFilesVaultLosesNothing() throws { try runKillRounds(.files) }

    func testAKilledRecoveryKeyChangeOfASQLiteVaultLosesNothing() throws { try runKillRounds(.sqlite) }

    private func runKillRounds(_ kind: StoreKind) throws {
        _ = try StressChild.executable()
        var rng = Sweep("RecoveryCrashTests \(kind.rawValue)")
        let rounds = rng.count(full: 30, sample: 5)
        let vault = try makeVault(kind)
        let ids = try (0..<20).map { try vault.add(text: "entry \($0)").id }
        let passFile = path("pass")
        try writePassphraseFile("correct horse", to: passFile)
        var inFlightKept = 0
        var changesSeen = 0
        // The key found in force after the round before: still in force when this round's child
        // was killed before its first change landed (under load, its first change can take longer
        // than the wait before the kill).
        var previous: String?
        for round in 0..<rounds {
            let context = "\(kind.rawValue) round \(round) (\(rng.replay))"
            let child = try StressChild(
                ["recovery-loop", vault.directory.path, passFile.path], logs: scratch, name: "\(kind.rawValue)-recovery"
            )
            XCTAssertTrue(child.waitFor(line: "READY"), "\(context): \(child.errorOutput)")
            usleep(UInt32.random(in: 0...200_000, using: &rng))
            child.killNow()
            let lines = child.lines()
            let keys = lines.filter { $0.hasPrefix("KEY ") }.map { String($0.dropFirst(4)) }
            let acknowledged = lines.last { $0.hasPrefix("SET ") }.map { UInt32($0.dropFirst(4))! }
            changesSeen += lines.count { $0.hasPrefix("SET ") }
            let after = try rng.check(context) {
                try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            }
            try rng.check(context) {
                XCTAssertEqual(after.indexState, .ok, context)
                XCTAssertEqual(Set(try after.list().map(\.id)), Set(ids), context)
                XCTAssertTrue(try after.verify().isClean, context)
                guard case .active(let epoch, _) = after.recoveryStatus else { return }
                // The key of the change acknowledged last, or of the one in flight when killed.
                let key = try (keys + (previous.map { [$0] } ?? [])).map { try RecoveryKey(text: $0) }
                    .first { try Vault.recoveryKeyMatches(at: vault.directory, $0) }
                previous = key?.text
                XCTAssertNotNil(key, "\(context): the key in force is one the child made")
                if let acknowledged { XCTAssertTrue([acknowledged, acknowledged + 1].contains(epoch), context) }
                if let acknowledged, epoch == acknowledged + 1 { inFlightKept += 1 }
                if let key {
                    _ = try Vault.resetPassphrase(at: vault.directory, recoveryKey: key, new: secret("correct horse"))
                }
            }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        print(
            "recovery crash \(kind.rawValue): \(rounds) kills after \(changesSeen) changes, "
                + "\(inFlightKept) with the change in flight kept")
    }
}
