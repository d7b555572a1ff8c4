import Foundation
import XCTest

/// `Scripts/decrypt-vault.py`, written from docs/FORMAT.md §12 with PyNaCl alone, decrypts a
/// sync remote the real `diary` wrote: every entry as the machine shows it, a deleted one as
/// deleted, nothing in conflict. If the spec missed a byte, the script could not do it.
final class SyncFormatReaderTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("Scripts/decrypt-vault.py")
    static let passphrase = "correct horse"

    private var box: DiarySandbox!
    private var python: String!

    override func setUpWithError() throws {
        // Debian's python3-nacl (Scripts/bootstrap installs it) is for /usr/bin/python3; a
        // python3 earlier on PATH (pyenv, a venv) may have PyNaCl from pip instead.
        let candidates =
            ["/usr/bin/python3"]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "")
            .split(separator: ":").map { "\($0)/python3" }
        guard
            let found = candidates.first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
                    && (try? Self.run($0, ["-c", "import nacl"]).status) == 0
            })
        else {
            throw XCTSkip("no python3 with PyNaCl (apt-get install python3-nacl, or pip install pynacl)")
        }
        python = found
        box = try DiarySandbox(name: "syncfmt")
    }

    override func tearDown() {
        box = nil
    }

    func testReaderDecryptsAFolderRemote() throws {
        let remote = box.root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        let ids = try writeAndSync(remote: ["--folder", remote.path])
        let result = try Self.run(python, [Self.script.path, remote.path, Self.passphrase])
        XCTAssertEqual(result.status, 0, result.stderr)
        try checkEntries(result.stdout, ids)
    }

    func testReaderDecryptsABareGitRemote() throws {
        guard (try? Self.run("/usr/bin/env", ["git", "--version"]).status) == 0 else { throw XCTSkip("needs git") }
        let bare = box.root.appendingPathComponent("remote.git")
        XCTAssertEqual(try Self.run("/usr/bin/env", ["git", "init", "--quiet", "--bare", bare.path]).status, 0)
        let ids = try writeAndSync(remote: [bare.path])
        let result = try Self.run(python, [Self.script.path, bare.path, Self.passphrase])
        XCTAssertEqual(result.status, 0, result.stderr)
        try checkEntries(result.stdout, ids)
        // §12.8: every commit has the neutral author, committer and date.
        let log = try Self.run(
            "/usr/bin/env",
            [
                "git", "--git-dir", bare.path, "log", "--format=%an <%ae> %aI | %cn <%ce> %cI | %s", "main",
            ])
        XCTAssertEqual(log.status, 0, log.stderr)
        let lines = log.stdout.split(separator: "\n")
        XCTAssertFalse(lines.isEmpty)
        for line in lines {
            XCTAssertEqual(
                line,
                "diary <diary@invalid> 2001-01-01T00:00:00+00:00 | diary <diary@invalid> 2001-01-01T00:00:00+00:00 | sync"
            )
        }
    }

    /// A reader that must refuse does: a record swapped into another record's place.
    func testReaderRefusesARecordInAnotherPlace() throws {
        let remote = box.root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        _ = try writeAndSync(remote: ["--folder", remote.path])
        let logs = try FileManager.default.contentsOfDirectory(atPath: remote.appendingPathComponent("log").path)
        XCTAssertEqual(logs.count, 1)
        let log = remote.appendingPathComponent("log").appendingPathComponent(logs[0])
        let second = log.appendingPathComponent("000000000002")
        try FileManager.default.removeItem(at: second)
        try FileManager.default.copyItem(at: log.appendingPathComponent("000000000001"), to: second)
        let result = try Self.run(python, [Self.script.path, remote.path, Self.passphrase])
        XCTAssertEqual(result.status, 2, result.stdout)
        XCTAssertTrue(result.stderr.contains("wrong place"), result.stderr)
    }

    /// Two machines edit one entry, and one deletes an entry the other stars: the script finds
    /// both conflicts (§12.5) and shows the head both vaults show; after `resolve` and a sync on
    /// each machine, one head again.
    func testReaderShowsConflictsAsTheMachinesDo() throws {
        let remote = box.root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        _ = try box.initVault(passphrase: Self.passphrase)
        let edited = try box.ok(["new", "Shared entry"]).out
        let starred = try box.ok(["new", "Edit against delete"]).out
        try box.ok(["sync", "init", "--folder", remote.path, "--name", "laptop"])

        let desk = try DiarySandbox(name: "syncfmt-desk")
        desk.environment["DIARY_PASSPHRASE_FILE"] = try desk.passphraseFile(Self.passphrase)
        let code = try box.ok(["sync", "invite", "--name", "desk"]).out
        try desk.ok(["sync", "join", "--folder", remote.path, "--invite", code, "--name", "desk"])
        try box.ok(["sync"])
        try desk.ok(["sync"])

        try box.ok(
            ["edit", String(edited.prefix(8))], env: ["EDITOR": try box.script("printf 'Laptop version\\n' > \"$1\"")])
        try desk.ok(
            ["edit", String(edited.prefix(8))], env: ["EDITOR": try desk.script("printf 'Desk version\\n' > \"$1\"")])
        try box.ok(["delete", String(starred.prefix(8)), "--yes"])
        try desk.ok(["star", String(starred.prefix(8))])
        try box.ok(["sync"])
        try desk.ok(["sync"])
        try box.ok(["sync"])

        var result = try Self.run(python, [Self.script.path, remote.path, Self.passphrase])
        XCTAssertEqual(result.status, 0, result.stderr)
        var found = sections(result.stdout)
        XCTAssertTrue(found[edited]?.hasPrefix("\(edited): shown, in conflict (2 heads)\n") == true, result.stdout)
        XCTAssertTrue(found[starred]?.hasPrefix("\(starred): shown, in conflict (2 heads)\n") == true, result.stdout)
        XCTAssertTrue(found[starred]?.contains("- other head: deleted (") == true, result.stdout)
        XCTAssertTrue(found[edited]?.contains("Laptop version") == true, "both texts are listed")
        XCTAssertTrue(found[edited]?.contains("Desk version") == true, "both texts are listed")
        // The head the script shows first is the one each vault shows.
        for machine in [box!, desk] {
            let titles = Dictionary(
                uniqueKeysWithValues: try machine.listJSON().map {
                    ($0["id"] as? String ?? "", $0["title"] as? String ?? "")
                })
            XCTAssertEqual(Set(titles.keys), [edited, starred])
            for (id, title) in titles {
                XCTAssertTrue(found[id]?.contains(": shown, in conflict (2 heads)\n\n- shown: revision") == true)
                XCTAssertEqual(
                    found[id]?.components(separatedBy: "- title: ").dropFirst().first?.prefix { $0 != "\n" }
                        .description,
                    title, "the script's shown head is the one \(machine === box ? "laptop" : "desk") shows")
            }
        }

        try box.ok(["resolve", String(edited.prefix(8)), "--keep", "mine"])
        try box.ok(["resolve", String(starred.prefix(8)), "--keep", "mine"])
        try box.ok(["sync"])
        try desk.ok(["sync"])
        result = try Self.run(python, [Self.script.path, remote.path, Self.passphrase])
        XCTAssertEqual(result.status, 0, result.stderr)
        found = sections(result.stdout)
        XCTAssertFalse(result.stdout.contains("in conflict"), result.stdout)
        XCTAssertTrue(found[edited]?.hasPrefix("\(edited): shown\n") == true, result.stdout)
        XCTAssertTrue(found[edited]?.contains("- title: Laptop version\n") == true, result.stdout)
        XCTAssertTrue(found[starred]?.hasPrefix("\(starred): deleted\n") == true, result.stdout)
        XCTAssertEqual(try desk.listJSON().compactMap { $0["title"] as? String }, ["Laptop version"])
    }

    /// `rekey`, then `passwd` (which rotates the key again on a synced vault): the first records
    /// are under keys that no header opening with the new passphrase wraps; only the retired
    /// keys of the chain's statements give them (§12.7). The old passphrase opens no header of
    /// the newest statement: the script reads what it can and lists the rest as pending.
    func testReaderFollowsARekeyThenAPasswd() throws {
        let remote = box.root.appendingPathComponent("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        _ = try box.initVault(passphrase: Self.passphrase)
        let first = try box.ok(["new", "Before the rotation"]).out
        try box.ok(["sync", "init", "--folder", remote.path, "--name", "laptop"])
        try box.ok(["rekey"])
        let second = try box.ok(["new", "Between rekey and passwd"]).out
        try box.ok(["sync"])
        let newPassphrase = "second pass phrase two"
        let newFile = try box.passphraseFile(newPassphrase)
        try box.ok(["passwd", "--new-passphrase-file", newFile])
        box.environment["DIARY_PASSPHRASE_FILE"] = newFile
        let third = try box.ok(["new", "After passwd"]).out
        try box.ok(["sync"])

        let old = try Self.run(python, [Self.script.path, remote.path, Self.passphrase])
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertTrue(old.stdout.contains("pending"), old.stdout)
        XCTAssertFalse(old.stdout.contains("After passwd"), "written under the key only the new passphrase opens")
        XCTAssertFalse(old.stdout.contains("| VK_3 (from"), old.stdout)
        for passphrase in [newPassphrase] {
            let result = try Self.run(python, [Self.script.path, remote.path, passphrase])
            XCTAssertEqual(result.status, 0, result.stderr)
            let found = sections(result.stdout)
            XCTAssertEqual(Set(found.keys), [first, second, third], result.stdout)
            for (id, text) in [
                (first, "Before the rotation"), (second, "Between rekey and passwd"), (third, "After passwd"),
            ] {
                XCTAssertTrue(found[id]?.contains("- title: \(text)\n") == true, result.stdout)
            }
            XCTAssertFalse(result.stdout.contains("pending"), result.stdout)
            // Two rotations in the chain; the older record keys come from their retirement, the
            // newest vault key from the header published with the newest statement.
            XCTAssertTrue(result.stdout.contains("| rekey | 2 |"), result.stdout)
            XCTAssertTrue(result.stdout.contains("| rekey | 3 |"), result.stdout)
            XCTAssertTrue(result.stdout.contains("| RK_1 = ") && result.stdout.contains("| RK_2 = "), result.stdout)
            XCTAssertTrue(result.stdout.contains("| VK_3 (from"), result.stdout)
        }
    }

    // MARK: Helpers

    private struct Written {
        var kept: String
        var edited: String
        var deleted: String
        var added: String
    }

    /// Three entries, `sync init` as "laptop", then an edit (text, star, tag), a delete and a
    /// new entry, and a second sync: two records, the first with the published headers.
    private func writeAndSync(remote: [String]) throws -> Written {
        _ = try box.initVault(passphrase: Self.passphrase)
        let kept = try box.ok(["new", "Kept entry title\nkept body text", "--tag", "keep"]).out
        let edited = try box.ok(["new", "Entry before its edit"]).out
        let deleted = try box.ok(["new", "Entry to delete soon"]).out
        try box.ok(["sync", "init"] + remote + ["--name", "laptop"])

        let editor = try box.script("printf 'Edited entry title\\nedited body\\n' > \"$1\"")
        try box.ok(["edit", String(edited.prefix(8))], env: ["EDITOR": editor])
        try box.ok(["star", String(edited.prefix(8))])
        try box.ok(["tag", String(edited.prefix(8)), "+later"])
        try box.ok(["delete", String(deleted.prefix(8)), "--yes"])
        let added = try box.ok(["new", "Written after sync init"]).out
        try box.ok(["sync"])
        return Written(kept: kept, edited: edited, deleted: deleted, added: added)
    }

    /// The script's sections, by entry id: `#### entry <id>: <state>` and what follows (the
    /// entries come last in its output).
    private func sections(_ output: String) -> [String: String] {
        var found: [String: String] = [:]
        for chunk in output.components(separatedBy: "#### entry ").dropFirst() {
            let id = String(chunk.prefix(36))
            found[id] = chunk
        }
        return found
    }

    private func checkEntries(_ output: String, _ ids: Written, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let found = sections(output)
        XCTAssertEqual(Set(found.keys), [ids.kept, ids.edited, ids.deleted, ids.added], output, file: file, line: line)
        XCTAssertTrue(output.contains("('laptop')"), "the machine's name", file: file, line: line)
        XCTAssertFalse(output.contains("in conflict"), output, file: file, line: line)
        XCTAssertFalse(output.contains("pending"), output, file: file, line: line)

        let kept = found[ids.kept] ?? ""
        XCTAssertTrue(kept.hasPrefix("\(ids.kept): shown\n"), kept, file: file, line: line)
        XCTAssertTrue(kept.contains("- title: Kept entry title\n"), kept, file: file, line: line)
        XCTAssertTrue(kept.contains("Kept entry title\nkept body text\n"), kept, file: file, line: line)
        XCTAssertTrue(kept.contains("- starred: no; tags: #keep\n"), kept, file: file, line: line)

        let edited = found[ids.edited] ?? ""
        XCTAssertTrue(edited.hasPrefix("\(ids.edited): shown\n"), edited, file: file, line: line)
        XCTAssertTrue(edited.contains("- title: Edited entry title\n"), edited, file: file, line: line)
        XCTAssertTrue(edited.contains("Edited entry title\nedited body\n"), edited, file: file, line: line)
        XCTAssertTrue(edited.contains("- starred: yes; tags: #later\n"), edited, file: file, line: line)
        XCTAssertFalse(output.contains("Entry before its edit"), "only heads are shown", file: file, line: line)

        let deleted = found[ids.deleted] ?? ""
        XCTAssertTrue(deleted.hasPrefix("\(ids.deleted): deleted\n"), deleted, file: file, line: line)
        XCTAssertFalse(
            output.contains("Entry to delete soon"), "a deleted entry's text is not shown", file: file, line: line)

        let added = found[ids.added] ?? ""
        XCTAssertTrue(added.hasPrefix("\(ids.added): shown\n"), added, file: file, line: line)
        XCTAssertTrue(added.contains("Written after sync init"), added, file: file, line: line)

        // The same entries, dates and stars as the vault lists.
        for row in try box.listJSON() {
            let id = try XCTUnwrap(row["id"] as? String, file: file, line: line)
            XCTAssertTrue(found[id]?.contains(": shown\n") == true, "\(id) is in the vault", file: file, line: line)
        }
    }

    /// Runs git or python with settings that keep the user's git configuration and terminal out.
    private static func run(_ program: String, _ args: [String]) throws -> DiaryResult {
        try runProgram(
            URL(fileURLWithPath: program), args,
            env: ["GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C.UTF-8"])
    }
}
