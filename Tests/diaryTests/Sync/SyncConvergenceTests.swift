import Foundation
import XCTest

/// Two and three machines that write offline and then sync, in any order, end with the same
/// entries and the same `list`, over git and over a synced folder.
final class SyncConvergenceTests: XCTestCase {
    func testOfflineChangesConvergeOverGit() throws { try offlineChangesConverge(.git) }
    func testOfflineChangesConvergeOverAFolder() throws { try offlineChangesConverge(.folder) }

    private func offlineChangesConverge(_ kind: SyncMachines.Kind) throws {
        let net = try SyncMachines(kind)
        let a = try net.first(
            store: "sqlite", entries: ["Heron at dawn\nby the lake", "Frost\non the window", "Market day", "Rain"])
        let b = try net.join(store: "files")
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        var ids: [String: String] = [:]
        for e in try a.listJSON() { ids[e["title"] as! String] = e["id"] as? String }
        XCTAssertEqual(ids.count, 4)

        // Offline on both: add, edit, star, tag and delete, each machine on its own entries.
        try a.ok(["new", "--date", "2024-02-22"], stdin: Data("Written on A\nalone".utf8))
        try a.ok(["star", ids["Heron at dawn"]!])
        try a.ok(["tag", ids["Frost"]!, "+winter"])
        try b.ok(["delete", ids["Market day"]!, "--yes"])
        try b.ok(["new", "--date", "2024-03-01T09:00"], stdin: Data("Written on B\ntoo".utf8))
        try b.ok(["edit", ids["Rain"]!], env: ["EDITOR": try b.script("echo 'added on B' >> \"$1\"")])

        try net.sync(1)
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
        XCTAssertEqual(try net.list(0), try net.list(1))
        let texts = try net.snapshot(0).joined(separator: "\n")
        XCTAssertTrue(texts.contains("Written on A"))
        XCTAssertTrue(texts.contains("Written on B"))
        XCTAssertTrue(texts.contains("added on B"))
        XCTAssertFalse(texts.contains("Market day"))
        XCTAssertTrue(try b.ok(["list", "--starred"]).stdout.contains("Heron at dawn"))
        XCTAssertTrue(try b.ok(["list", "--tag", "winter"]).stdout.contains("Frost"))
        XCTAssertEqual(try net.snapshot(0).count, 5)
        XCTAssertTrue(try net.conflicts(0).isEmpty)

        // A third machine joins late and sees the same.
        let c = try net.join(store: "sqlite")
        XCTAssertEqual(try net.snapshot(2), try net.snapshot(0))
        try c.ok(["new"], stdin: Data("From C".utf8))
        try net.sync(2)
        try net.sync(0)
        try net.sync(1)
        XCTAssertEqual(try net.snapshot(0), try net.snapshot(2))
        XCTAssertEqual(try net.snapshot(1), try net.snapshot(2))
    }

    func testSyncingInEitherOrderGivesTheSameEntries() throws {
        var results: [[String]] = []
        for order in [[0, 1], [1, 0]] {
            let net = try SyncMachines(.git)
            let a = try net.first(entries: ["one"])
            let b = try net.join()
            try a.ok(["new"], stdin: Data("from A".utf8))
            try b.ok(["new"], stdin: Data("from B".utf8))
            for n in order { try net.sync(n) }
            for n in order { try net.sync(n) }
            XCTAssertEqual(try net.snapshot(0), try net.snapshot(1))
            results.append(
                try net.snapshot(0).map { String($0.split(separator: " ", maxSplits: 4).last ?? "") }.sorted())
        }
        XCTAssertEqual(results[0], results[1])
    }

    func testSyncSaysWhatMovedOnStderrAndNothingOnStdout() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        _ = try net.join()
        try a.ok(["new"], stdin: Data("two".utf8))
        let sent = try net.sync(0)
        XCTAssertEqual(sent.stdout, "")
        XCTAssertTrue(sent.stderr.contains("sent 1 change"), sent.stderr)
        let received = try net.sync(1)
        XCTAssertEqual(received.stdout, "")
        XCTAssertTrue(received.stderr.contains("added 1"), received.stderr)
        XCTAssertTrue(try net.sync(1).stderr.contains("up to date"))
    }

    func testTheRemoteHoldsNoPlaintextAndNeutralCommits() throws {
        for kind in [SyncMachines.Kind.git, .folder] {
            let net = try SyncMachines(kind)
            let a = try net.first(entries: ["MARKER-TITLE-7f3a\nMARKER-BODY-19cc"])
            let b = try net.join()
            try b.ok(["tag", try a.listJSON()[0]["id"] as! String, "+MARKERTAG"])
            try b.ok(["new"], stdin: Data("MARKER-B-5e21".utf8))
            try net.sync(1)
            try net.sync(0)
            let bytes = try net.remoteBytes()
            XCTAssertFalse(bytes.isEmpty)
            for marker in [
                "MARKER-TITLE-7f3a", "MARKER-BODY-19cc", "MARKERTAG", "MARKER-B-5e21", "machine-0", "machine-1",
            ] {
                XCTAssertNil(bytes.range(of: Data(marker.utf8)), "\(marker) found in the \(kind) remote")
            }
            if kind == .git {
                let log = try SyncMachines.git([
                    "--git-dir", net.remoteRepository.path, "log", "main", "--format=%an %ae %ad %cn %ce %cd",
                ])
                for line in log.split(separator: "\n") {
                    XCTAssertEqual(
                        String(line),
                        "diary diary@invalid Mon Jan 1 00:00:00 2001 +0000 diary diary@invalid Mon Jan 1 00:00:00 2001 +0000"
                    )
                }
            }
        }
    }
}
