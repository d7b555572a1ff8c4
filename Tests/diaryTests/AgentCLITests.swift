import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// `unlock`, `status`, `lock` and `rekey` with a real agent process.
final class AgentCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var pass = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "agent")
        pass = try box.initVault()
        // From here on, only the agent can provide the key.
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
    }

    override func tearDown() {
        // The sandbox locks only its default vault; a test may have unlocked more.
        _ = try? box.run(["lock", "--all"])
        box = nil
    }

    func testUnlockLetsCommandsRunWithoutAPassphraseUntilLock() throws {
        XCTAssertEqual(try box.run(["new", "x"]).status, 75)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("* locked \(box.vault.path)"))
        try box.ok(["unlock", "--passphrase-file", pass, "--timeout", "10m", "--max", "1h"])
        let status = try box.ok(["status"]).out
        XCTAssertTrue(status.hasPrefix("* unlocked \(box.vault.path)"), status)
        XCTAssertTrue(status.contains("without use, at most"), status)
        try box.ok(["new", "written while unlocked"])
        XCTAssertEqual(try box.listJSON().count, 1)
        try box.ok(["lock"])
        XCTAssertEqual(try box.run(["list"]).status, 75)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("* locked"))
    }

    func testUnlockWithAWrongPassphraseStartsNoAgent() throws {
        let wrong = try box.passphraseFile("wrong")
        XCTAssertEqual(try box.run(["unlock", "--passphrase-file", wrong]).status, 77)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("* locked"))
    }

    func testAbsurdTimeoutsAreUsageErrorsAndStartNoAgent() throws {
        let pass = try box.passphraseFile("correct horse")
        for timeout in ["inf", "nan", "1e300", "0", "-5m", "31d"] {
            let result = try box.run(["unlock", "--passphrase-file", pass, "--timeout", timeout])
            XCTAssertEqual(result.status, 64, "\(timeout): \(result.stderr)")
        }
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("* locked"))
    }

    func testUnlockTwiceReusesTheAgent() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        // No passphrase source the second time: it must not be needed.
        let again = try box.ok(["unlock"])
        XCTAssertTrue(again.stderr.contains("already unlocked"), again.stderr)
    }

    func testTheAgentForgetsTheKeyAfterTheIdleTimeout() throws {
        try box.ok(["unlock", "--passphrase-file", pass, "--timeout", "2s"])
        try box.ok(["list"])
        sleep(4)
        let result = try box.run(["list"])
        XCTAssertEqual(result.status, 75, result.stderr)
        XCTAssertTrue(try box.ok(["status"]).out.hasPrefix("* locked"))
    }

    func testPasswdNeedsTheCurrentPassphraseEvenWhileUnlocked() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        let newPass = try box.passphraseFile("brand new")
        let result = try box.run(["passwd", "--new-passphrase-file", newPass])
        XCTAssertEqual(result.status, 75, result.stderr)
        try box.ok(["passwd", "--passphrase-file", pass, "--new-passphrase-file", newPass])
        try box.ok(["list"])  // passwd leaves the session as it is
    }

    func testRekeyHandsTheNewKeyToTheAgent() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        try box.ok(["new", "before rekey"])
        XCTAssertEqual(try box.run(["rekey"]).status, 75, "rekey always needs the passphrase")
        let rekey = try box.ok(["rekey", "--passphrase-file", pass])
        XCTAssertTrue(rekey.stderr.contains("now holds the new key"), rekey.stderr)
        // No passphrase source: only an agent holding the *new* key can open the vault now.
        let list = try box.ok(["list", "--json"])
        XCTAssertFalse(list.stderr.contains("warning"), list.stderr)
        XCTAssertTrue(list.stdout.contains("before rekey"))
        try box.ok(["verify"])
    }

    /// A rotation cut short while the vault is unlocked: the agent's key (one generation) does
    /// not open the vault until it is finished. `status` and `unlock` say so, and a command
    /// with nothing to ask the passphrase with says why, not "locked"; `rekey` finishes it and
    /// hands the agent the new key.
    func testAnInterruptedRotationIsSaidByStatusUnlockAndEveryCommand() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        try box.ok(["new", "before the rotation"])
        struct Interrupted: Error {}
        let passphrase = String(try String(contentsOfFile: pass, encoding: .utf8).split(separator: "\n").first ?? "")
        let vault = try Vault.open(at: box.vault, passphrase: try secretBytes(passphrase))
        XCTAssertThrowsError(
            try vault.rotateKey(passphrase: try secretBytes(passphrase), beforeRetiring: { _ in throw Interrupted() }))

        let interrupted =
            "a key rotation was interrupted: until `diary rekey` finishes it, commands ask for the passphrase"
        let status = try box.ok(["status"])
        XCTAssertTrue(status.out.hasPrefix("* unlocked"), status.out)
        XCTAssertTrue(status.stderr.contains(interrupted), status.stderr)
        let list = try box.run(["list"])
        XCTAssertEqual(list.status, 75, list.stderr)
        XCTAssertTrue(list.stderr.contains("the unlocked session's key alone does not open the vault"), list.stderr)
        XCTAssertTrue(list.stderr.contains("run `diary rekey` on a terminal to finish the rotation"), list.stderr)
        try box.ok(["lock"])
        let unlock = try box.ok(["unlock", "--passphrase-file", pass])
        XCTAssertTrue(unlock.stderr.contains(interrupted), unlock.stderr)

        try box.ok(["rekey", "--passphrase-file", pass])
        let after = try box.ok(["list", "--json"])
        XCTAssertTrue(after.stdout.contains("before the rotation"), after.stdout)
        XCTAssertFalse(try box.ok(["status"]).stderr.contains("interrupted"))
    }

    func testAStaleAgentKeyFallsBackToThePassphraseWithAWarning() throws {
        try box.ok(["unlock", "--passphrase-file", pass])
        try box.ok(["new", "kept"])
        // Rotate the key behind the agent's back (another machine, an old diary).
        var bytes = Array("correct horse".utf8)
        let vault = try Vault.open(at: box.vault, passphrase: try SecretBytes(consuming: &bytes))
        var again = Array("correct horse".utf8)
        try vault.rotateKey(passphrase: try SecretBytes(consuming: &again))

        let locked = try box.run(["list"])
        XCTAssertEqual(locked.status, 75, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("does not open this vault's index"), locked.stderr)
        let opened = try box.ok(["list", "--passphrase-file", pass])
        XCTAssertTrue(opened.stdout.contains("kept"))
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    /// Two vaults unlocked at once: `status` from either shows it marked `*` and the other
    /// below; `lock --all` ends both, and says so on stderr.
    func testStatusShowsEveryUnlockedVaultAndLockAllEndsThem() throws {
        let second = box.root.appendingPathComponent("second vault")
        let secondPass = try box.passphraseFile("another horse")
        try box.ok(["init", "--vault", second.path, "--new-passphrase-file", secondPass])
        let third = box.root.appendingPathComponent("third")
        try box.ok(["init", "--vault", third.path, "--new-passphrase-file", secondPass])
        try box.ok(["unlock", "--passphrase-file", pass, "--timeout", "10m"])
        try box.ok(["unlock", "--vault", second.path, "--passphrase-file", secondPass, "--timeout", "20m"])

        let status = try box.ok(["status"])
        XCTAssertEqual(status.stderr, "")
        let shown = lines(status.out)
        XCTAssertEqual(shown.count, 2, status.out)
        XCTAssertTrue(shown[0].hasPrefix("* unlocked \(box.vault.path) (sqlite): locks in "), status.out)
        XCTAssertTrue(shown[1].hasPrefix("  unlocked \(second.path): locks in "), status.out)
        let fromSecond = lines(try box.ok(["status", "--vault", second.path]).out)
        XCTAssertEqual(fromSecond.count, 2, fromSecond.joined(separator: "\n"))
        XCTAssertTrue(fromSecond[0].hasPrefix("* unlocked \(second.path) (sqlite): "), fromSecond[0])
        XCTAssertTrue(fromSecond[1].hasPrefix("  unlocked \(box.vault.path): "), fromSecond[1])
        let fromThird = lines(try box.ok(["status", "--vault", third.path]).out)
        XCTAssertEqual(fromThird.count, 3, fromThird.joined(separator: "\n"))
        XCTAssertEqual(fromThird[0], "* locked \(third.path) (sqlite)")
        // No vault here: the unlocked ones are still listed, then the error.
        let nowhere = try box.run(["status", "--vault", box.root.appendingPathComponent("none").path])
        XCTAssertNotEqual(nowhere.status, 0)
        XCTAssertEqual(lines(nowhere.stdout).count, 2, nowhere.stdout)
        XCTAssertTrue(nowhere.stderr.contains("no vault at"), nowhere.stderr)

        let lock = try box.ok(["lock", "--all", "--vault", third.path])
        XCTAssertEqual(lock.stdout, "")
        XCTAssertTrue(lock.stderr.contains("locked \(box.vault.path)\n"), lock.stderr)
        XCTAssertTrue(lock.stderr.contains("locked \(second.path)\n"), lock.stderr)
        XCTAssertEqual(lines(try box.ok(["status"]).out), ["* locked \(box.vault.path) (sqlite)"])
        XCTAssertEqual(try box.run(["list"]).status, 75)
        XCTAssertEqual(try box.run(["list", "--vault", second.path]).status, 75)
        let again = try box.ok(["lock", "--all"])
        XCTAssertEqual(again.stderr, "no vault was unlocked\n")
    }

    /// A socket left by a killed agent is neither listed nor kept; an agent that does not
    /// report its path (as one started by an older diary) is named by its vault id, and
    /// `lock --all` ends it too.
    func testStaleSocketsAreRemovedAndPathlessAgentsNamedByTheirID() throws {
        let agents = box.runtime.appendingPathComponent("diary")
        try box.ok(["unlock", "--passphrase-file", pass])
        let stale = agents.appendingPathComponent(String(repeating: "ab", count: 16) + ".sock")
        let bound = try box.runPython(
            "import socket, sys\nsocket.socket(socket.AF_UNIX).bind(sys.argv[1])\n", named: "bind.py", [stale.path])
        XCTAssertEqual(bound.status, 0, bound.shown)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stale.path))

        // `diary agent` run by hand, not told its vault's path.
        let vaultID = UUID()
        let agent = Process()
        agent.executableURL = DiarySandbox.binary
        agent.arguments = [
            "agent", "--vault-id", vaultID.uuidString, "--generation", "1", "--key-bytes", "32", "--timeout", "60",
            "--max", "60",
        ]
        agent.environment = box.fullEnvironment([:])
        let input = Pipe()
        agent.standardInput = input
        agent.standardOutput = FileHandle.nullDevice
        agent.standardError = FileHandle.nullDevice
        try agent.run()
        input.fileHandleForWriting.write(Data(repeating: 7, count: 32))
        let socket = agents.appendingPathComponent(vaultID.uuidString.lowercased().filter { $0 != "-" } + ".sock")
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket.path) { usleep(20_000) }

        let shown = lines(try box.ok(["status"]).out)
        XCTAssertEqual(shown.count, 2, shown.joined(separator: "\n"))
        XCTAssertTrue(shown[0].hasPrefix("* unlocked \(box.vault.path) "), shown[0])
        XCTAssertTrue(shown[1].hasPrefix("  unlocked vault \(vaultID.uuidString.lowercased()): locks in "), shown[1])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale.path), "the stale socket is removed")

        let lock = try box.ok(["lock", "--all"])
        XCTAssertTrue(lock.stderr.contains("locked vault \(vaultID.uuidString.lowercased())"), lock.stderr)
        agent.waitUntilExit()
        XCTAssertEqual(agent.terminationStatus, 0)
        XCTAssertEqual(lines(try box.ok(["status"]).out), ["* locked \(box.vault.path) (sqlite)"])
    }

    /// A vault unlocked from a shell without XDG_RUNTIME_DIR (its agent in the fallback
    /// directory) is unlocked to `status` in a normal session, marked as elsewhere; `lock`
    /// ends it, and so does `lock --all`.
    func testAnAgentStartedWithoutXDGRuntimeDirIsSeenAndLocked() throws {
        let fallback = box.runtime.appendingPathComponent("fallback").path
        let noXDG = ["XDG_RUNTIME_DIR": ""]
        try box.ok(["unlock", "--passphrase-file", pass], env: noXDG)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fallback), "the agent lives in the fallback")
        let status = try box.ok(["status"])
        XCTAssertEqual(
            lines(status.out).map {
                $0.replacingOccurrences(of: #"locks in .* at most \S+"#, with: "…", options: .regularExpression)
            },
            ["* unlocked \(box.vault.path) (sqlite): … (agent in \(fallback), which commands here do not use)"])
        XCTAssertEqual(status.stderr, "")
        let locked = try box.ok(["lock"])
        XCTAssertEqual(locked.stderr, "locked \(box.vault.path)\n")
        XCTAssertEqual(
            lines(try box.ok(["status", "--vault", box.vault.path], env: noXDG).out),
            ["* locked \(box.vault.path) (sqlite)"])

        try box.ok(["unlock", "--passphrase-file", pass], env: noXDG)
        let all = try box.ok(["lock", "--all"])
        XCTAssertEqual(all.stderr, "locked \(box.vault.path)\n")
        XCTAssertEqual(lines(try box.ok(["status"], env: noXDG).out), ["* locked \(box.vault.path) (sqlite)"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: fallback), [], "no socket and no lock file is left")
    }

    /// Sockets in the runtime directory that are not diary agents: one that accepts and never
    /// answers, one that answers junk. Neither is a vault to `status` (each is named by its
    /// path in a warning), neither is removed, and `lock --all` still locks the vault, then
    /// fails because the silent one may be a stopped agent.
    func testSocketsThatAreNotAgentsAreNamedAsSocketsAndLeftAlone() throws {
        let agents = box.runtime.appendingPathComponent("diary")
        try box.ok(["unlock", "--passphrase-file", pass])
        let silent = agents.appendingPathComponent(String(repeating: "a", count: 32) + ".sock")
        let junk = agents.appendingPathComponent(String(repeating: "b", count: 32) + ".sock")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = [
            "-c",
            """
            import socket, sys, threading
            silent = socket.socket(socket.AF_UNIX); silent.bind(sys.argv[1]); silent.listen(4)
            junk = socket.socket(socket.AF_UNIX); junk.bind(sys.argv[2]); junk.listen(4)
            def serve():
                while True:
                    c, _ = junk.accept(); c.sendall(b"HTTP/1.0 200 OK\\r\\n\\r\\n"); c.close()
            threading.Thread(target=serve, daemon=True).start()
            print("ready", flush=True)
            sys.stdin.read()
            """,
            silent.path, junk.path,
        ]
        let input = Pipe(), output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        try server.run()
        defer {
            try? input.fileHandleForWriting.close()
            server.waitUntilExit()
        }
        XCTAssertTrue(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("ready"))

        let status = try box.ok(["status"])
        let shown = lines(status.out)
        XCTAssertEqual(shown.count, 1, status.out)
        XCTAssertTrue(shown[0].hasPrefix("* unlocked \(box.vault.path) "), shown[0])
        XCTAssertFalse(status.out.contains("aaaaaaaa"), "no vault made up from the socket's name")
        XCTAssertTrue(
            status.stderr.contains("warning: an unresponsive socket at \(silent.path): it accepts connections"),
            status.stderr)
        XCTAssertTrue(status.stderr.contains("warning: a socket at \(junk.path) is not a diary agent"), status.stderr)

        let lock = try box.run(["lock", "--all"])
        XCTAssertEqual(lock.status, 1, lock.stderr)
        XCTAssertTrue(lock.stderr.contains("locked \(box.vault.path)\n"), lock.stderr)
        XCTAssertFalse(lock.stderr.contains("unlock agent"), lock.stderr)
        XCTAssertFalse(lock.stderr.contains(" of "), "no socket is counted as a vault: \(lock.stderr)")
        XCTAssertTrue(
            lock.stderr.contains("error: not everything is locked: 1 unresponsive socket was left alone"), lock.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: silent.path), "something listens on it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: junk.path), "something listens on it")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: agents.path).sorted(),
            [silent.lastPathComponent, junk.lastPathComponent].sorted(), "the locked agent left no lock file")
    }
}
