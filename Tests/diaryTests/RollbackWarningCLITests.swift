import XCTest

/// The rollback warning through the CLI: this machine remembers the highest index generation
/// it has seen per vault (under `$XDG_STATE_HOME/diary`, here the sandbox's
/// `~/.local/state/diary`) and warns when an older copy of the vault is put back.
final class RollbackWarningCLITests: XCTestCase {
    func testPuttingAnOlderCopyBackWarnsOnTheNextOpenButStillWorks() throws {
        for store in ["sqlite", "files"] {
            let box = try DiarySandbox(name: "rollback-\(store)")
            try box.initVault(store: store)
            try box.ok(["new", "First."])
            let old = box.root.appendingPathComponent("old-copy")
            try Observer.runTool("/bin/cp", ["-a", box.vault.path, old.path])
            try box.ok(["new", "Second, soon to be rolled back."])
            let fresh = try box.ok(["list"])
            XCTAssertFalse(fresh.stderr.contains("warning"), "\(store): \(fresh.stderr)")

            try FileManager.default.removeItem(at: box.vault)
            try FileManager.default.moveItem(at: old, to: box.vault)
            let result = try box.ok(["list"])
            XCTAssertTrue(result.stderr.contains("diary: warning: vault "), "\(store): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("it may be an older copy put back in place"), result.stderr)
            XCTAssertTrue(result.stderr.contains("diary: hint: "), result.stderr)
            XCTAssertEqual(result.stdout.split(separator: "\n").count, 1, "the old copy still lists its one entry")
            let state = box.root.appendingPathComponent("home/.local/state/diary/generations")
            XCTAssertTrue(try String(contentsOf: state, encoding: .utf8).hasPrefix("diary-rollback-state 1\n"))
        }
    }

    func testTheGenerationReachedByAWriteIsRemembered() throws {
        // Recorded after the command's own write too: rolling back exactly that write is caught.
        let box = try DiarySandbox(name: "rollback-last")
        try box.initVault()
        try box.ok(["new", "One."])
        let old = box.root.appendingPathComponent("old-copy")
        try Observer.runTool("/bin/cp", ["-a", box.vault.path, old.path])
        try box.ok(["new", "Two."])
        try FileManager.default.removeItem(at: box.vault)
        try FileManager.default.moveItem(at: old, to: box.vault)
        XCTAssertTrue(try box.ok(["list"]).stderr.contains("older copy"))
    }

    func testAnotherMachineWithoutMemoryOfTheVaultDoesNotWarn() throws {
        let box = try DiarySandbox(name: "rollback-new")
        try box.initVault()
        try box.ok(["new", "One."])
        try FileManager.default.removeItem(at: box.root.appendingPathComponent("home/.local/state/diary"))
        XCTAssertFalse(try box.ok(["list"]).stderr.contains("warning"))
    }
}
