import Foundation
import XCTest

/// An entry changed on two machines becomes a conflict that shows both versions, on both
/// machines; resolving it on one resolves it everywhere after the next sync. Nothing is
/// decided by the clock.
final class SyncConflictTests: XCTestCase {
    private func editor(_ machine: DiarySandbox, appending line: String) throws -> [String: String] {
        ["EDITOR": try machine.script("echo '\(line)' >> \"$1\"", name: "append-\(UUID().uuidString.prefix(6)).sh")]
    }

    func testEditsOnTwoMachinesAreAConflictShowingBothThenResolvedEverywhere() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let net = try SyncMachines(kind)
            let a = try net.first(entries: ["Shared entry\nfirst words"])
            let b = try net.join()
            let id = try a.listJSON()[0]["id"] as! String
            try a.ok(["edit", id], env: try editor(a, appending: "words from A"))
            try b.ok(["edit", id], env: try editor(b, appending: "words from B"))
            try net.sync(0)
            let seen = try net.sync(1)
            XCTAssertTrue(seen.stderr.contains("conflict"), seen.stderr)
            try net.sync(0)

            for n in 0...1 {
                let conflicts = try net.conflicts(n)
                XCTAssertEqual(conflicts.count, 1, "machine \(n), \(kind)")
                XCTAssertEqual(conflicts.first?["id"] as? String, id)
                let versions = conflicts.first?["versions"] as? [[String: Any]] ?? []
                let texts = versions.compactMap { ($0["entry"] as? [String: Any])?["text"] as? String }
                XCTAssertEqual(texts.count, 2)
                XCTAssertTrue(texts.contains { $0.contains("words from A") })
                XCTAssertTrue(texts.contains { $0.contains("words from B") })
            }
            // While in conflict, both machines show the same version.
            XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))

            let resolved = try b.ok(["resolve", String(id.prefix(8)), "--keep", "mine"])
            XCTAssertTrue(resolved.stderr.contains("resolved"))
            try net.sync(1)
            try net.sync(0)
            for n in 0...1 {
                XCTAssertTrue(try net.conflicts(n).isEmpty, "machine \(n) still has the conflict, \(kind)")
            }
            XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
            let text = try a.ok(["show", id, "--raw", "--no-pager"]).stdout
            XCTAssertTrue(text.contains("words from B"), text)
            XCTAssertFalse(text.contains("words from A"), text)
        }
    }

    func testEditAgainstDeleteIsAConflictAndTheTextIsKept() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["Keep me\nplease"])
        let b = try net.join()
        let id = try a.listJSON()[0]["id"] as! String
        try a.ok(["delete", id, "--yes"])
        try b.ok(["edit", id], env: try editor(b, appending: "an edit made offline"))
        try net.sync(0)
        try net.sync(1)
        try net.sync(0)
        for n in 0...1 {
            let conflicts = try net.conflicts(n)
            XCTAssertEqual(conflicts.count, 1)
            let versions = conflicts.first?["versions"] as? [[String: Any]] ?? []
            XCTAssertEqual(versions.filter { $0["deleted"] as? Bool == true }.count, 1)
            // The edit is shown, not the deletion: nothing is hidden until someone chooses.
            XCTAssertTrue(try net.snapshot(n).joined().contains("an edit made offline"))
        }
        try a.ok(["resolve", id, "--keep", "mine"])
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), [])
        XCTAssertEqual(try net.snapshot(1), [])
    }

    func testKeepBothMakesTheOtherVersionANewEntryOnEveryMachine() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["Title\nbase"])
        let b = try net.join()
        let id = try a.listJSON()[0]["id"] as! String
        try a.ok(["edit", id], env: try editor(a, appending: "A side"))
        try b.ok(["edit", id], env: try editor(b, appending: "B side"))
        try net.sync(0)
        try net.sync(1)
        let both = try a.run(["resolve", id, "--keep", "both"])
        // A has not seen B's change yet: no conflict there.
        XCTAssertEqual(both.status, 1, both.stderr)
        try net.sync(0)
        try a.ok(["resolve", id, "--keep", "both"])
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        let all = try net.snapshot(0).joined(separator: "\n")
        XCTAssertEqual(try net.snapshot(0).count, 2)
        XCTAssertTrue(all.contains("A side"))
        XCTAssertTrue(all.contains("B side"))
    }

    func testThreeVersionsAreNeverResolvedByDroppingOneSilently() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["Title\nbase"])
        let b = try net.join()
        let c = try net.join()
        let id = try a.listJSON()[0]["id"] as! String
        for (n, machine) in [a, b, c].enumerated() {
            try machine.ok(["edit", id], env: try editor(machine, appending: "side \(n)"))
            try net.sync(n)
        }
        try net.sync(0)
        XCTAssertEqual((try net.conflicts(0).first?["versions"] as? [[String: Any]])?.count, 3)
        // The text listing tells versions apart.
        let listed = try a.ok(["conflicts"]).stdout
        XCTAssertEqual(listed.components(separatedBy: "(4 words)").count - 1, 3, listed)

        // "theirs" would have to pick one of two other machines' versions: refused.
        let theirs = try a.run(["resolve", id, "--keep", "theirs"])
        XCTAssertEqual(theirs.status, 64, theirs.stderr)
        XCTAssertTrue(
            theirs.stderr.contains("2 versions came from other machines ('machine-1', 'machine-2')"), theirs.stderr)
        XCTAssertTrue(theirs.stderr.contains("--keep both"), theirs.stderr)

        // "both" keeps every version: this one in place, the two others as new entries.
        let both = try a.ok(["resolve", id, "--keep", "both"])
        XCTAssertTrue(both.stderr.contains("the other versions are now entries"), both.stderr)
        for n in [0, 1, 2, 0] { try net.sync(n) }
        for n in 0...2 {
            XCTAssertTrue(try net.conflicts(n).isEmpty, "machine \(n)")
            let all = try net.snapshot(n).joined(separator: "\n")
            XCTAssertEqual(try net.snapshot(n).count, 3, all)
            for side in 0...2 { XCTAssertTrue(all.contains("side \(side)"), "machine \(n): \(all)") }
        }
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(2))
    }

    func testResolveByEditingBothTexts() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["Day\nmorning"])
        let b = try net.join()
        let id = try a.listJSON()[0]["id"] as! String
        try a.ok(["edit", id], env: try editor(a, appending: "A evening"))
        try b.ok(["edit", id], env: try editor(b, appending: "B night"))
        try net.sync(0)
        try net.sync(1)
        // An editor that keeps the markers is refused and nothing changes.
        let lazy = try b.run(["resolve", id, "--edit"], env: ["EDITOR": try b.script("true", name: "keep.sh")])
        XCTAssertEqual(lazy.status, 64, lazy.stderr)
        XCTAssertTrue(lazy.stderr.contains("markers"), lazy.stderr)
        XCTAssertEqual(try net.conflicts(1).count, 1)
        let merge = try b.script("printf 'Day\\nmorning, evening and night\\n' > \"$1\"", name: "merge.sh")
        try b.ok(["resolve", id, "--edit"], env: ["EDITOR": merge])
        try net.sync(1)
        try net.sync(0)
        XCTAssertTrue(try net.conflicts(0).isEmpty)
        XCTAssertEqual(
            try a.ok(["show", id, "--raw", "--no-pager"]).stdout.contains("morning, evening and night"), true)
        XCTAssertEqual(try b.editorLeftovers(), [])
    }

    func testResolveOfAnEntryThatIsNotInConflictChangesNothing() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["calm"])
        let id = try a.listJSON()[0]["id"] as! String
        let result = try a.run(["resolve", id, "--keep", "theirs"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("not in conflict"), result.stderr)
        XCTAssertEqual(try a.run(["resolve", id]).status, 64)
    }
}
