import Foundation
import XCTest

/// ssh asking for a key's passphrase on the terminal during a sync: git runs in a process group
/// of its own, which must be lent the terminal, or ssh's read stops it (SIGTTIN) and the sync
/// waits until the watchdog kills git.
final class SyncTerminalPromptTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "sync-tty")
    }

    override func tearDown() { box = nil }

    func testSSHCanAskOnTheTerminalDuringASync() throws {
        _ = try box.initVault()
        try box.ok(["new", "Before syncing"])
        // A stand-in ssh: asks on the terminal as ssh asks for a key's passphrase, notes the
        // answer, and fails as a refused login does.
        let log = box.root.appendingPathComponent("ssh.log")
        let ssh = box.root.appendingPathComponent("ssh")
        let script = """
            #!/bin/sh
            printf 'Enter passphrase for key: ' > /dev/tty
            read answer < /dev/tty
            echo "got $answer" >> '\(log.path)'
            exit 255
            """
        try Data(script.utf8).write(to: ssh)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: ssh.path)

        let run = try box.runOnTerminal(
            ["sync", "init", "ssh://example.invalid/diary.git"],
            answers: [("Enter passphrase for key: ", "key secret")], env: ["GIT_SSH_COMMAND": ssh.path])
        let answered = try? String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(answered, "got key secret\n", "ssh read the terminal: \(run.shown)")
        XCTAssertNotEqual(run.status, 0, run.shown)
        XCTAssertFalse(run.shown.contains("killed"), run.shown)
        XCTAssertTrue(run.shown.contains("diary: error:"), run.shown)
    }
}
