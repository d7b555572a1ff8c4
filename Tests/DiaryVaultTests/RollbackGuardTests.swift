import DiaryCrypto
import DiaryStore
import Foundation
import DiaryTestSupport
import XCTest

@testable import DiaryVault

/// The rollback guard: a machine-local memory of each vault's highest index generation.
final class RollbackGuardTests: VaultTestCase {
    private var guardian: RollbackGuard!

    override func setUpWithError() throws {
        try super.setUpWithError()
        guardian = RollbackGuard(stateDirectory: path("state/diary"))
    }

    /// Opens the vault, checks it against the guard, then records it: what the CLI does on open.
    private func openAndCheck(_ directory: URL) throws -> RollbackWarning? {
        let vault = try Vault.open(at: directory, passphrase: secret("correct horse"))
        let warning = try guardian.check(vaultID: vault.id, generation: vault.indexGeneration)
        try guardian.record(vaultID: vault.id, generation: vault.indexGeneration)
        return warning
    }

    private func copyDirectory(_ from: URL, to: URL) throws {
        try? FileManager.default.removeItem(at: to)
        try FileManager.default.copyItem(at: from, to: to)
    }

    func testAnOldCopyPutBackAfterNewerWritesIsReported() {
        forEachStoreKind { kind in
            let live = path("vault-\(kind.rawValue)")
            let old = path("old-\(kind.rawValue)")
            let vault = try makeVault(kind)
            _ = try vault.add(text: "first")
            XCTAssertNil(try openAndCheck(live))
            let oldGeneration = vault.indexGeneration
            try copyDirectory(live, to: old)

            _ = try vault.add(text: "second")
            _ = try vault.add(text: "third")
            XCTAssertNil(try openAndCheck(live))
            let newest = vault.indexGeneration

            try copyDirectory(old, to: live)
            let warning = try openAndCheck(live)
            XCTAssertEqual(warning, .olderThanSeen(vaultID: vault.id, seen: newest, found: oldGeneration))
            XCTAssertTrue(warning?.description.contains(vault.id.uuidString.lowercased()) == true)
            // Recording the old copy must not lower the memory: the warning persists.
            XCTAssertNotNil(try openAndCheck(live))
        }
    }

    func testNormalUseNeverWarns() {
        forEachStoreKind { kind in
            let live = path("vault-\(kind.rawValue)")
            let vault = try makeVault(kind)
            XCTAssertNil(try openAndCheck(live))
            for n in 0..<3 {
                let entry = try vault.add(text: "entry \(n)")
                XCTAssertNil(try openAndCheck(live))
                try vault.delete(entry.id)
                XCTAssertNil(try openAndCheck(live))
            }
        }
    }

    func testVaultsAreRememberedSeparately() throws {
        let a = UUID(), b = UUID()
        try guardian.record(vaultID: a, generation: 10)
        try guardian.record(vaultID: b, generation: 3)
        XCTAssertNil(try guardian.check(vaultID: b, generation: 3))
        XCTAssertNil(try guardian.check(vaultID: UUID(), generation: 0))
        XCTAssertEqual(try guardian.check(vaultID: a, generation: 9), .olderThanSeen(vaultID: a, seen: 10, found: 9))
        try guardian.record(vaultID: a, generation: 4)
        XCTAssertEqual(try guardian.check(vaultID: a, generation: 9), .olderThanSeen(vaultID: a, seen: 10, found: 9))
    }

    func testStateIsPrivateAndHoldsOnlyIdsAndCounters() throws {
        let id = UUID()
        try guardian.record(vaultID: id, generation: 42)
        let attributes = try FileManager.default.attributesOfItem(atPath: guardian.fileURL.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: guardian.stateDirectory.path)
        XCTAssertEqual((directory[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let text = try String(contentsOf: guardian.fileURL, encoding: .utf8)
        XCTAssertEqual(text, "diary-rollback-state 1\n\(id.uuidString.lowercased()) 42\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: guardian.stateDirectory.path)
            .filter { $0.hasPrefix(DurableFile.tempPrefix) }
        XCTAssertEqual(leftovers, [])
    }

    func testACorruptStateFileIsReportedIgnoredAndReplaced() throws {
        let id = UUID()
        try guardian.record(vaultID: id, generation: 7)
        let corruptions: [String] = [
            "garbage",
            "diary-rollback-state 2\n",
            "diary-rollback-state 1\n\(id.uuidString.lowercased()) 7",  // no final newline
            "diary-rollback-state 1\n\(id.uuidString.lowercased()) -7\n",
            "diary-rollback-state 1\n\(id.uuidString.lowercased()) 07\n",
            "diary-rollback-state 1\n\(id.uuidString.lowercased()) 99999999999999999999999\n",
            "diary-rollback-state 1\n\(id.uuidString) 7\n",  // uppercase id
            "diary-rollback-state 1\n\(id.uuidString.lowercased()) 7\n\(id.uuidString.lowercased()) 8\n",
            "diary-rollback-state 1\n\(id.uuidString.lowercased())  7\n",
            "diary-rollback-state 1\n\n",
        ]
        for text in corruptions {
            try Data(text.utf8).write(to: guardian.fileURL)
            guard case .stateUnreadable(let reportedPath, _)? = try guardian.check(vaultID: id, generation: 1) else {
                XCTFail("accepted a corrupt state file: \(text.debugDescription)")
                continue
            }
            XCTAssertEqual(reportedPath, guardian.fileURL.path)
            try guardian.record(vaultID: id, generation: 5)
            XCTAssertNil(try guardian.check(vaultID: id, generation: 5), text.debugDescription)
        }
        try Data([0xFF, 0xFE, 0x0A]).write(to: guardian.fileURL)
        XCTAssertNotNil(try guardian.check(vaultID: id, generation: 1))
    }

    func testAStateFileThatIsNotARegularFileIsReportedNotFollowed() throws {
        try guardian.record(vaultID: UUID(), generation: 1)
        try FileManager.default.removeItem(at: guardian.fileURL)
        try FileManager.default.createSymbolicLink(atPath: guardian.fileURL.path, withDestinationPath: "/etc/passwd")
        guard case .stateUnreadable? = try guardian.check(vaultID: UUID(), generation: 1) else {
            return XCTFail("followed a symbolic link")
        }
    }

    func testDefaultDirectoryFollowsXDGStateHomeElseHome() {
        XCTAssertEqual(
            RollbackGuard.defaultDirectory(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]).path,
            "/x/state/diary")
        XCTAssertEqual(
            RollbackGuard.defaultDirectory(environment: ["HOME": "/home/u"]).path, "/home/u/.local/state/diary")
        // The XDG spec says relative paths are to be ignored.
        XCTAssertEqual(
            RollbackGuard.defaultDirectory(environment: ["XDG_STATE_HOME": "rel", "HOME": "/home/u"]).path,
            "/home/u/.local/state/diary")
    }
}
