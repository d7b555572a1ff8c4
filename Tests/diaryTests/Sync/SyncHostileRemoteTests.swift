import Foundation
import XCTest

/// The host is untrusted: a rewound remote, a removed, truncated, swapped or edited record,
/// or a record of another vault is refused (status 65) with a message that says what was
/// seen, on every machine that had seen the newer state; nothing is changed then. A record
/// that has not arrived yet is pending, not an alarm.
final class SyncHostileRemoteTests: XCTestCase {
    private func refused(
        _ machine: DiarySandbox, saying words: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try machine.ok(["list"]).stdout
        let result = try machine.run(["sync"])
        XCTAssertEqual(result.status, 65, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains(words), "expected '\(words)' in: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        XCTAssertEqual(try machine.ok(["list"]).stdout, before, "the vault changed", file: file, line: line)
    }

    /// Two machines that have both seen two records of machine 0.
    private func settled(_ kind: SyncMachines.Kind) throws -> SyncMachines {
        let net = try SyncMachines(kind)
        let a = try net.first(entries: ["one"])
        _ = try net.join()
        try a.ok(["new"], stdin: Data("two".utf8))
        try net.sync(0)
        try net.sync(1)
        return net
    }

    private func records(_ dir: URL, machineOf net: SyncMachines) throws -> [URL] {
        let log = dir.appendingPathComponent("log")
        var found: [URL] = []
        for machine in try FileManager.default.contentsOfDirectory(atPath: log.path).sorted() {
            for name in try FileManager.default.contentsOfDirectory(atPath: log.appendingPathComponent(machine).path)
                .sorted()
            {
                found.append(log.appendingPathComponent(machine).appendingPathComponent(name))
            }
        }
        return found
    }

    /// The log directory of machine 0 in `tree`.
    private func firstMachineLog(_ tree: URL, _ net: SyncMachines) throws -> URL {
        let all = try records(tree, machineOf: net)
        let counts = Dictionary(grouping: all, by: { $0.deletingLastPathComponent() })
        return counts.max { $0.value.count < $1.value.count }!.key
    }

    func testARewoundGitRemoteIsRefusedOnEveryMachineThatSawTheNewerState() throws {
        let net = try settled(.git)
        let history = try SyncMachines.git(["--git-dir", net.remoteRepository.path, "rev-list", "main"]).split(
            separator: "\n")
        XCTAssertGreaterThan(history.count, 1)
        try SyncMachines.git([
            "--git-dir", net.remoteRepository.path, "update-ref", "refs/heads/main", String(history.last!),
        ])
        try refused(net[0], saying: "rewound")
        try refused(net[1], saying: "rewound")
    }

    func testAForcePushedRewriteThatRemovesARecordIsRefused() throws {
        let net = try settled(.git)
        let host = try net.hostileCheckout()
        let log = try firstMachineLog(host, net)
        let last = try FileManager.default.contentsOfDirectory(atPath: log.path).sorted().last!
        try SyncMachines.git(["-C", host.path, "rm", "--quiet", log.appendingPathComponent(last).path])
        try SyncMachines.git(["-C", host.path, "commit", "--quiet", "-m", "tidy"])
        try SyncMachines.git(["-C", host.path, "push", "--quiet", "origin", "main"])
        try refused(net[0], saying: "changed a file that is never rewritten")
        try refused(net[1], saying: "changed a file that is never rewritten")
    }

    func testATruncatedOrRemovedRecordInAFolderIsRefused() throws {
        let net = try settled(.folder)
        let log = try firstMachineLog(net.folder(1), net)
        let names = try FileManager.default.contentsOfDirectory(atPath: log.path).sorted()
        let victim = log.appendingPathComponent(names[0])
        let bytes = try Data(contentsOf: victim)
        try bytes.prefix(bytes.count / 2).write(to: victim)
        try refused(net[1], saying: "was replaced or truncated")
        try FileManager.default.removeItem(at: victim)
        try refused(net[1], saying: "record 1 of machine 'machine-0' was removed")
    }

    func testAnOlderFolderPutBackIsRefused() throws {
        let net = try SyncMachines(.folder)
        let a = try net.first(entries: ["one"])
        _ = try net.join()
        let old = net.scratch.appendingPathComponent("old-copy")
        try FileManager.default.copyItem(at: net.folder(1), to: old)
        try a.ok(["new"], stdin: Data("two".utf8))
        try net.sync(0)
        try net.sync(1)
        try FileManager.default.removeItem(at: net.folder(1))
        try FileManager.default.copyItem(at: old, to: net.folder(1))
        try refused(net[1], saying: "was removed (this machine had read up to")
    }

    func testASwappedOrEditedNewRecordIsRefused() throws {
        let net = try settled(.folder)
        try net[0].ok(["new"], stdin: Data("three".utf8))
        try net.sync(0)
        let log = try firstMachineLog(net.folder(1), net)
        let names = try FileManager.default.contentsOfDirectory(atPath: log.path).sorted()
        let newest = log.appendingPathComponent(names.last!)
        let original = try Data(contentsOf: newest)
        // Swapped: an older record of the same machine under the new name.
        try Data(contentsOf: log.appendingPathComponent(names[0])).write(to: newest)
        try refused(net[1], saying: "not an authentic record")
        // Edited: one byte of the ciphertext flipped.
        var edited = original
        edited[edited.count - 40] ^= 0x01
        try edited.write(to: newest)
        try refused(net[1], saying: "not an authentic record")
        try original.write(to: newest)
        XCTAssertEqual(try net[1].run(["sync"]).status, 0)
    }

    func testANewRecordStillBeingCopiedIntoAFolderIsPendingNotAnAlarm() throws {
        let net = try settled(.folder)
        try net[0].ok(["new"], stdin: Data("three".utf8))
        try net.sync(0)
        let log = try firstMachineLog(net.folder(1), net)
        let newest = log.appendingPathComponent(
            try FileManager.default.contentsOfDirectory(atPath: log.path).sorted().last!)
        let original = try Data(contentsOf: newest)
        // A sync tool that writes in place: empty first, then part of the file.
        for part in [Data(), original.prefix(5), original.prefix(original.count / 2)] {
            try part.write(to: newest)
            let waiting = try net[1].run(["sync"])
            XCTAssertEqual(waiting.status, 0, waiting.stderr)
            XCTAssertTrue(
                waiting.stderr.contains("pending:") && waiting.stderr.contains("still arriving"), waiting.stderr)
        }
        try original.write(to: newest)
        try net.sync(1)
        XCTAssertTrue(try net.snapshot(1).joined().contains("three"))
    }

    func testARecordOfAnotherVaultIsRefused() throws {
        let net = try settled(.folder)
        let other = try SyncMachines(.folder, name: "other")
        try other.first(entries: ["someone else's diary"])
        let foreign = try records(other.folder(0), machineOf: other)[0]
        let log = try firstMachineLog(net.folder(1), net)
        let next = log.appendingPathComponent(
            String(format: "%012d", try FileManager.default.contentsOfDirectory(atPath: log.path).count + 1))
        try FileManager.default.copyItem(at: foreign, to: next)
        try refused(net[1], saying: "belongs to another vault")
    }

    func testARecordThatHasNotArrivedYetIsPendingNotAnAlarm() throws {
        let net = try settled(.folder)
        let a = net[0]
        try a.ok(["new"], stdin: Data("three".utf8))
        try a.ok(["sync"])
        let log = try firstMachineLog(net.folder(0), net)
        let third = try FileManager.default.contentsOfDirectory(atPath: log.path).sorted().last!
        try a.ok(["new"], stdin: Data("four".utf8))
        try a.ok(["sync"])
        // The sync tool delivers the later record first.
        try net.replicate(from: 0, to: 1) { $0.hasSuffix(third) }
        let partial = try net[1].run(["sync"])
        XCTAssertEqual(partial.status, 0, partial.stderr)
        XCTAssertTrue(partial.stderr.contains("pending"), partial.stderr)
        XCTAssertFalse(try net[1].ok(["list"]).stdout.contains("four"))
        try net.replicate(from: 0, to: 1)
        try net[1].ok(["sync"])
        let list = try net[1].ok(["list"]).stdout
        XCTAssertTrue(list.contains("three") && list.contains("four"), list)
    }

    func testASyncToolsConflictCopiesAreCleanedPutBackOrReported() throws {
        let net = try settled(.folder)
        let log = try firstMachineLog(net.folder(1), net)
        let names = try FileManager.default.contentsOfDirectory(atPath: log.path).sorted()
        // Identical copy: removed.
        let identical = log.appendingPathComponent("\(names[0]).sync-conflict-20240101-120000-ABCDEFG")
        try FileManager.default.copyItem(at: log.appendingPathComponent(names[0]), to: identical)
        // Junk under a conflict name: reported, left alone.
        let junk = log.appendingPathComponent("\(names[0]) (conflicted copy 2024-01-01)")
        try Data("not a record".utf8).write(to: junk)
        var result = try net[1].ok(["sync"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: identical.path))
        XCTAssertTrue(result.stderr.contains("removed a conflict copy identical"), result.stderr)
        XCTAssertTrue(result.stderr.contains("not an authentic record, left alone"), result.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: junk.path))

        // A new record that arrived only as a conflict copy: put back and read.
        try net[0].ok(["new"], stdin: Data("three".utf8))
        try net.sync(0)
        let newest = try FileManager.default.contentsOfDirectory(atPath: log.path).filter {
            !$0.contains(" ") && !$0.contains(".")
        }.sorted().last!
        try FileManager.default.moveItem(
            at: log.appendingPathComponent(newest), to: log.appendingPathComponent("\(newest) (1)"))
        result = try net[1].ok(["sync"])
        XCTAssertTrue(result.stderr.contains("put back a record"), result.stderr)
        XCTAssertTrue(try net[1].ok(["list"]).stdout.contains("three"))

        // An authentic record that differs from the one in place: two records with one number.
        let other = log.appendingPathComponent("\(names[1]).sync-conflict-20240101-120001-XYZ")
        try FileManager.default.copyItem(at: log.appendingPathComponent(newest), to: other)
        let fork = try net[1].run(["sync"])
        // Not authentic under that name (a record names its own number): reported, not merged.
        XCTAssertEqual(fork.status, 0, fork.stderr)
        XCTAssertTrue(fork.stderr.contains("left alone"), fork.stderr)
    }
}
