import Foundation
import XCTest

@testable import DiarySync

/// What a git remote may hold and how git is run: plain files only (on the first clone and on
/// every fetch), only the transports a remote needs, a time limit on every command, and a
/// local bare remote whose HEAD names diary's branch. These run the `git` program.
final class GitRemoteTests: XCTestCase {
    private var scratch: URL!
    private var bare: URL { scratch.appendingPathComponent("remote.git", isDirectory: true) }
    /// Someone else's working copy of the remote: what the host (or an attacker) pushes.
    private var author: URL { scratch.appendingPathComponent("author", isDirectory: true) }
    private var clone: URL { scratch.appendingPathComponent("clone", isDirectory: true) }
    private var remote: GitRemote { GitRemote(url: bare.path, tree: clone) }
    private var savedTimeout: TimeInterval = 0

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "git-remote-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // As `git init --bare` makes it without configuration: HEAD on master.
        try git(["-c", "init.defaultBranch=master", "init", "--quiet", "--bare", bare.path])
        try git(["-c", "init.defaultBranch=main", "init", "--quiet", author.path])
        savedTimeout = GitProcess.timeout
    }

    override func tearDownWithError() throws {
        GitProcess.timeout = savedTimeout
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Runs the git program itself (not diary's runner), failing the test when it fails.
    @discardableResult
    private func git(_ args: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=a", "-c", "user.email=a@a", "-c", "commit.gpgsign=false"] + args
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "git \(args.joined(separator: " "))", code: Int(process.terminationStatus))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes a plain file in the author's copy.
    private func put(_ path: String, _ text: String = "x") throws {
        let url = author.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Commits everything in the author's copy and pushes it to the bare remote's `main`.
    @discardableResult
    private func pushAuthor() throws -> String {
        try git(["add", "-A"], in: author)
        try git(["commit", "--quiet", "-m", "x"], in: author)
        try git(["push", "--quiet", bare.path, "HEAD:refs/heads/main"], in: author)
        return try git(["rev-parse", "HEAD"], in: author)
    }

    /// What diary never writes, each as the author would push it, with its path and git mode.
    private func plantings() -> [(name: String, path: String, mode: String, plant: () throws -> Void)] {
        [
            (
                "symbolic link", "log/etc", "120000",
                {
                    try FileManager.default.createDirectory(
                        at: self.author.appendingPathComponent("log"), withIntermediateDirectories: true)
                    try FileManager.default.createSymbolicLink(
                        atPath: self.author.appendingPathComponent("log/etc").path, withDestinationPath: "../etc")
                }
            ),
            (
                "submodule", "log/sub", "160000",
                {
                    // A repository inside the copy is added as a submodule entry.
                    let sub = self.author.appendingPathComponent("log/sub")
                    try self.git(["init", "--quiet", sub.path])
                    try self.git(["commit", "--quiet", "--allow-empty", "-m", "x"], in: sub)
                }
            ),
            (
                "executable", "keys/run", "100755",
                {
                    try self.put("keys/run", "#!/bin/sh\n")
                    XCTAssertEqual(chmod(self.author.appendingPathComponent("keys/run").path, 0o755), 0)
                }
            ),
            ("attributes", "log/.gitattributes", "100644", { try self.put("log/.gitattributes", "* text eol=crlf\n") }),
        ]
    }

    /// Removes what was planted at `path` from the author's copy (a link itself, not its target).
    private func takeBack(_ path: String) throws {
        try git(["rm", "-r", "--quiet", "--cached", path], in: author)
        let url = author.appendingPathComponent(path)
        if unlink(url.path) != 0 { try FileManager.default.removeItem(at: url) }
    }

    func testAFirstCloneOfATreeWithAnythingButPlainFilesIsRefusedAndLeavesNoClone() throws {
        try put("diary-sync")
        try pushAuthor()
        for planting in plantings() {
            try planting.plant()
            try pushAuthor()
            XCTAssertThrowsError(try remote.cloneIfNeeded(), planting.name) { error in
                XCTAssertEqual(
                    error as? SyncError,
                    .untrustedRemote([.treeEntryRefused(path: planting.path, mode: planting.mode)]),
                    planting.name)
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: clone.path), planting.name)
            try takeBack(planting.path)
            try pushAuthor()
        }
        try remote.cloneIfNeeded()
        XCTAssertEqual(try git(["config", "core.symlinks"], in: clone), "false")
    }

    func testAFetchOfATreeWithAnythingButPlainFilesIsRefusedBeforeItIsMerged() throws {
        try put("diary-sync")
        var good = try pushAuthor()
        try remote.cloneIfNeeded()
        for planting in plantings() {
            try planting.plant()
            let bad = try pushAuthor()
            let (findings, head) = try remote.fetchAndMerge(last: good)
            XCTAssertEqual(findings, [.treeEntryRefused(path: planting.path, mode: planting.mode)], planting.name)
            XCTAssertEqual(head, bad)
            XCTAssertEqual(try git(["rev-parse", "HEAD"], in: clone), good, "nothing merged: \(planting.name)")
            XCTAssertNil(
                try? FileManager.default.attributesOfItem(atPath: clone.appendingPathComponent(planting.path).path))
            // The author takes it back; the remote moves on from what this clone last saw.
            try takeBack(planting.path)
            try put("log/\(planting.mode)-\(planting.name.count)")
            good = try pushAuthor()
            XCTAssertEqual(try remote.fetchAndMerge(last: try git(["rev-parse", "HEAD"], in: clone)).findings, [])
        }
    }

    func testAPlainBareRemoteGetsItsHeadOnDiarysBranchAtTheFirstPush() throws {
        try remote.cloneIfNeeded()
        try Data("diary-sync 1\n".utf8).write(to: clone.appendingPathComponent("diary-sync"))
        XCTAssertNotNil(try remote.commitAndPush())
        XCTAssertEqual(try git(["--git-dir", bare.path, "symbolic-ref", "HEAD"]), "refs/heads/main")
        let check = scratch.appendingPathComponent("check")
        try git(["clone", "--quiet", bare.path, check.path])
        XCTAssertTrue(FileManager.default.fileExists(atPath: check.appendingPathComponent("diary-sync").path))
    }

    func testAHeadSomeonePointedAtARealBranchIsLeftAlone() throws {
        try put("README")
        try git(["add", "-A"], in: author)
        try git(["commit", "--quiet", "-m", "x"], in: author)
        try git(["push", "--quiet", bare.path, "HEAD:refs/heads/master"], in: author)
        try remote.cloneIfNeeded()
        try Data("diary-sync 1\n".utf8).write(to: clone.appendingPathComponent("diary-sync"))
        XCTAssertNotNil(try remote.commitAndPush())
        XCTAssertEqual(try git(["--git-dir", bare.path, "symbolic-ref", "HEAD"]), "refs/heads/master")
    }

    func testOnlyLocalAddressesAreLocalPaths() {
        XCTAssertEqual(GitRemote.localPath("/srv/diary.git"), "/srv/diary.git")
        XCTAssertEqual(GitRemote.localPath("file:///srv/my%20diary.git"), "/srv/my diary.git")
        XCTAssertNil(GitRemote.localPath("host:/srv/diary.git"))
        XCTAssertNil(GitRemote.localPath("ssh://host/srv/diary.git"))
        XCTAssertNil(GitRemote.localPath("https://example.org/diary.git"))
    }

    func testAGitCommandThatHangsIsKilledWithWhatItStartedWhenItsTimeIsUp() throws {
        let pidFile = scratch.appendingPathComponent("pid")
        let finished = scratch.appendingPathComponent("finished")
        try git(
            ["config", "alias.hang", "!echo $$ > '\(pidFile.path)'; sleep 20; touch '\(finished.path)'"], in: author)
        GitProcess.timeout = 1
        XCTAssertThrowsError(try GitProcess.run(["hang"], in: author)) { error in
            XCTAssertEqual(error as? SyncError, .remoteUnusable(.gitTimedOut(command: "hang", seconds: 1)))
        }
        // The alias's shell was in git's process group: it was killed too, before it finished.
        let pid = try XCTUnwrap(
            Int32(
                String(decoding: try Data(contentsOf: pidFile), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        let deadline = Date().addingTimeInterval(5)
        while Self.isRunning(pid), Date() < deadline { usleep(20_000) }
        XCTAssertFalse(Self.isRunning(pid), "the hanging child was killed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: finished.path), "it did not run to its end")
    }

    /// True while `pid` runs (a zombie waiting for its parent to reap it does not).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    func testTransportsThatRunCommandsOrTalkOverInheritedDescriptorsAreRefused() throws {
        // Without the refusal, `fd::3` waits forever on a descriptor diary never opened; the
        // lowered time limit would then end it with another error.
        GitProcess.timeout = 10
        XCTAssertThrowsError(try GitRemote(url: "fd::3", tree: clone).cloneIfNeeded()) { error in
            guard case .remoteUnusable(.gitFailed("clone", let message?, _))? = error as? SyncError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(message.contains("'fd' not allowed"), message)
        }
        let planted = scratch.appendingPathComponent("ran")
        XCTAssertThrowsError(try GitRemote(url: "ext::sh -c touch% \(planted.path)", tree: clone).cloneIfNeeded())
        XCTAssertFalse(FileManager.default.fileExists(atPath: planted.path))
    }
}
