import Foundation
import XCTest

/// The commands that delete tell sync (an edit that empties an entry), and an older copy of
/// the vault put back and accepted with `reindex --accept-older` deletes nothing anywhere: what
/// it lacks is fetched back, and what it holds older goes beside the newer versions. A process
/// is needed: the editor, the witness and `reindex` are the CLI's.
final class SyncRollbackCLITests: XCTestCase {
    func testAnOlderVaultAcceptedDeletesNothingAndRevertsNothingElsewhere() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(store: "files", entries: ["First words", "Doomed entry"])
        _ = try net.join()
        var ids: [String: String] = [:]
        for e in try a.listJSON() { ids[e["title"] as! String] = e["id"] as? String }
        let old = a.root.appendingPathComponent("old-copy")
        try Observer.runTool("/bin/cp", ["-a", a.vault.path, old.path])

        try a.ok(["new"], stdin: Data("Second, written after the copy".utf8))
        try a.ok(["edit", ids["First words"]!], env: ["EDITOR": try a.script("echo 'and better' >> \"$1\"")])
        try a.ok(
            ["edit", ids["Doomed entry"]!, "--yes"], env: ["EDITOR": try a.script(": > \"$1\"", name: "empty.sh")])
        try net.sync(0)
        try net.sync(1)
        let before = try net.snapshot(1).joined(separator: "\n")
        XCTAssertFalse(before.contains("Doomed entry"), "an emptied entry is deleted everywhere")
        XCTAssertTrue(before.contains("and better"))

        try FileManager.default.removeItem(at: a.vault)
        try FileManager.default.moveItem(at: old, to: a.vault)
        try a.ok(["reindex", "--accept-older"])
        let synced = try net.sync(0)
        XCTAssertTrue(synced.stderr.contains("fetched back 1 entry from the remote"), synced.stderr)
        XCTAssertTrue(synced.stderr.contains("of the older state accepted here beside the newer"), synced.stderr)
        try net.sync(1)
        let after = try net.snapshot(1).joined(separator: "\n")
        XCTAssertTrue(after.contains("Second, written after the copy"), "nothing deleted elsewhere")
        XCTAssertTrue(try a.ok(["list"]).stdout.contains("Second, written after the copy"), "fetched back here")
        let conflicted = try net.conflicts(1).compactMap { $0["id"] as? String }
        XCTAssertTrue(conflicted.contains(ids["First words"]!), "the older copy is a conflict, not a silent revert")
    }
}
