import Foundation
import XCTest

/// Issue 5's rollback warning through the built binary: a vault put back to an older copy is
/// flagged, normal use is not.
final class RollbackWarningTests: XCTestCase {
    func testOldCopyPutBackIsFlaggedAndNormalUseIsNot() throws {
        for store in ["sqlite", "files"] {
            let box = try DiarySandbox(name: "rollback-\(store)")
            _ = try box.initVault(store: store)
            try box.ok(["new", "first entry"])
            let copy = box.root.appendingPathComponent("old-copy")
            try FileManager.default.copyItem(at: box.vault, to: copy)
            try box.ok(["new", "second entry"])
            let normal = try box.ok(["list"])
            XCTAssertFalse(normal.stderr.contains("older than a copy"), "\(store): \(normal.stderr)")

            try FileManager.default.removeItem(at: box.vault)
            try FileManager.default.moveItem(at: copy, to: box.vault)
            let rolledBack = try box.run(["list"])
            XCTAssertEqual(rolledBack.status, 0, rolledBack.stderr)
            XCTAssertTrue(rolledBack.stderr.contains("diary: warning: vault "), "\(store): \(rolledBack.stderr)")
            XCTAssertTrue(rolledBack.stderr.contains("older than a copy this machine has seen"), rolledBack.stderr)
            XCTAssertEqual(rolledBack.stdout.split(separator: "\n").count, 1, "the old copy still lists")
            // The state file holds no secret: vault ids and numbers only.
            let state = box.root.appendingPathComponent("home/.local/state/diary/generations")
            let text = try String(contentsOf: state, encoding: .utf8)
            XCTAssertFalse(text.contains("entry"))
            XCTAssertTrue(text.split(separator: "\n").dropFirst().allSatisfy { line in
                let parts = line.split(separator: " ")
                return parts.count == 2 && UUID(uuidString: String(parts[0])) != nil && UInt64(parts[1]) != nil
            }, text)
        }
    }
}
