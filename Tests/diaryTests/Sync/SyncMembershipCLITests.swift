import Foundation
import XCTest

/// Invites, joining and members as a user meets them: what reaches stdout and stderr, and the
/// statuses. What the chain and the codes mean is DiarySync's, tested in process.
final class SyncMembershipCLITests: XCTestCase {
    /// Crockford base32 in groups of four joined by `-`: the shape of an invite code.
    private func isInviteCode(_ text: String) -> Bool {
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.count > 4
            && groups.allSatisfy { !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(alphabet.contains) }
            && groups.dropLast().allSatisfy { $0.count == 4 }
    }

    func testInvitePrintsTheCodeAloneOnStdoutAndWhatToDoOnStderr() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let result = try a.ok(["sync", "invite", "--name", "phone"])
        XCTAssertTrue(result.stdout.hasSuffix("\n"), result.stdout)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 1, "only the code on stdout: \(result.stdout)")
        let code = result.out
        XCTAssertTrue(isInviteCode(code), code)
        XCTAssertTrue(result.stderr.contains("diary sync join REMOTE --invite \(code)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("run `diary sync` here to admit it"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\n\(code)\n"), "the code is data, on stdout")
        // Each invite is a new code.
        XCTAssertNotEqual(try net.invite(from: 0), code)
        // A machine that is not set up to sync has nothing to invite to.
        let alone = try DiarySandbox(name: "alone")
        try alone.initVault()
        let refused = try alone.run(["sync", "invite"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertEqual(refused.stdout, "")
    }

    func testJoinWithoutAnInviteExits64AndSaysHowToGetOne() throws {
        let net = try SyncMachines(.git)
        try net.first(entries: ["one"])
        let box = try DiarySandbox(name: "j")
        let result = try box.run(
            ["sync", "join", net.remoteRepository.path, "--to", box.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(net.passphrase)])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("takes an invite from a machine that already syncs"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("`diary sync invite`") && result.stderr.contains("--invite"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path))
    }

    func testACodeWithOneCharacterChangedExits64AndNamesTheCode() throws {
        let net = try SyncMachines(.git)
        try net.first(entries: ["one"])
        let code = try net.invite(from: 0)
        // One character of the secret part changed to another of the alphabet.
        var characters = Array(code)
        let index = characters.indices.first { characters[$0] != "-" && $0 > 10 }!
        characters[index] = characters[index] == "7" ? "8" : "7"
        let box = try DiarySandbox(name: "j")
        let pass = try box.passphraseFile(net.passphrase)
        let bad = try box.run(
            ["sync", "join", net.remoteRepository.path, "--invite", String(characters), "--to", box.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": pass])
        XCTAssertEqual(bad.status, 64, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("that invite code has a wrong character"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("diary sync invite"), bad.stderr)
        let garbage = try box.run(
            ["sync", "join", net.remoteRepository.path, "--invite", "hello", "--to", box.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": pass])
        XCTAssertEqual(garbage.status, 64, garbage.stderr)
        XCTAssertTrue(garbage.stderr.contains("that is not an invite code"), garbage.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path), "nothing was created")
        // The code as printed still works.
        try box.ok(
            ["sync", "join", net.remoteRepository.path, "--invite", code, "--to", box.vault.path],
            env: ["DIARY_PASSPHRASE_FILE": pass])
    }

    func testMembersListsBothMachinesWithTheSameFingerprintsOnEach() throws {
        let net = try SyncMachines(.folder)
        try net.first(entries: ["one"])
        try net.join()
        var seen: [[String: String]] = []
        for n in 0...1 {
            let result = try net[n].ok(["sync", "members"])
            XCTAssertEqual(result.stderr, "", "machine \(n)")
            XCTAssertEqual(
                result.stdout.components(separatedBy: "\n").count, 3, "two lines, no blank one: \(result.stdout)")
            var fingerprints: [String: String] = [:]
            for line in result.out.split(separator: "\n") {
                let fields = line.split(separator: "\t").map(String.init)
                XCTAssertGreaterThanOrEqual(fields.count, 2, String(line))
                XCTAssertNotNil(
                    fields[1].range(
                        of: "^[0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4} [0-9a-f]{4}$", options: .regularExpression),
                    fields[1])
                fingerprints[fields[0]] = fields[1]
                XCTAssertEqual(fields.contains("this machine"), fields[0] == "machine-\(n)", String(line))
            }
            XCTAssertEqual(Set(fingerprints.keys), ["machine-0", "machine-1"], result.out)
            seen.append(fingerprints)
        }
        XCTAssertEqual(seen[0], seen[1], "each machine shows the same key for each member")
        XCTAssertNotEqual(seen[0]["machine-0"], seen[0]["machine-1"], "each machine has a key of its own")
    }

    func testStatusShowsTheRemoteAndEachMemberAndAJoinerWaiting() throws {
        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        try a.ok(["new"], stdin: Data("two".utf8))
        let b = try net.join(admit: false)
        let waiting = try b.ok(["sync", "status"]).out.split(separator: "\n").map(String.init)
        XCTAssertEqual(waiting.first, "remote: git \(net.remoteRepository.path)", "\(waiting)")
        XCTAssertTrue(waiting.contains("this machine waits to be admitted by the member who invited it"), "\(waiting)")
        let outstanding = try a.ok(["sync", "status"]).out
        XCTAssertTrue(outstanding.contains("invites not used yet: 1"), outstanding)

        try net.sync(0)
        try net.sync(1)
        try b.ok(["new"], stdin: Data("from B".utf8))
        try net.sync(1)
        try net.sync(0)
        let status = try a.ok(["sync", "status"])
        let lines = status.out.components(separatedBy: "\n")
        XCTAssertEqual(lines.count, 3, "the remote and two members, no blank line: \(status.out)")
        XCTAssertFalse(status.out.contains("invites not used yet"), "the invite was used: \(status.out)")
        XCTAssertFalse(status.out.contains("waits to be admitted"), status.out)
        let own = try XCTUnwrap(lines.first { $0.hasPrefix("machine-0\t") }).split(separator: "\t")
        XCTAssertEqual(own.last, "this machine")
        let other = try XCTUnwrap(lines.first { $0.hasPrefix("machine-1\t") }).split(separator: "\t").map(String.init)
        XCTAssertEqual(other.count, 5, "\(other)")
        XCTAssertEqual(other[2], "2 record(s) read", "B's join and its entry")
        XCTAssertTrue(other[3].hasPrefix("written 20"), other[3])
        XCTAssertTrue(other[4].hasPrefix("heard 20"), other[4])
        XCTAssertFalse(status.stderr.contains("not been heard from"), status.stderr)
    }

    func testPasswdSaysTheKeyWasRotatedOnlyOnAVaultThatSyncs() throws {
        let alone = try DiarySandbox(name: "alone")
        try alone.initVault()
        let plain = try alone.ok(["passwd", "--new-passphrase-file", try alone.passphraseFile("violet anchor meadow")])
        XCTAssertFalse(plain.stderr.contains("rotated"), plain.stderr)

        let net = try SyncMachines(.git)
        let a = try net.first(entries: ["one"])
        let before = try a.ok(["sync", "members"]).out
        let synced = try a.ok(["passwd", "--new-passphrase-file", try a.passphraseFile("violet anchor meadow")])
        XCTAssertTrue(
            synced.stderr.contains("the vault key was rotated too: this vault syncs (--no-rekey keeps the key)"),
            synced.stderr)
        a.environment["DIARY_PASSPHRASE_FILE"] = try a.passphraseFile("violet anchor meadow")
        let pending = try a.ok(["sync", "status"]).out
        XCTAssertTrue(pending.contains("a key change made here goes out with the next sync"), pending)
        try net.sync(0)
        XCTAssertFalse(try a.ok(["sync", "status"]).out.contains("a key change made here"))
        XCTAssertEqual(try a.ok(["sync", "members"]).out, before, "a new key, the same members and signing keys")
    }
}
