import Foundation
import XCTest

/// Types passphrases at a real pseudo-terminal prompt (python3's `pty` module) and shows that
/// they are not echoed, that a mismatch writes nothing, and that a locked vault asks on the
/// terminal.
final class PseudoTerminalTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "pty")
    }

    override func tearDown() { box = nil }

    /// `diary args` on a pty with colour allowed and no passphrase file, so diary asks there.
    private func runOnTerminal(
        _ args: [String], dialogue: [(String, String)], env: [String: String] = [:]
    ) throws -> (output: String, status: Int32) {
        let run = try box.runOnTerminal(
            args, answers: dialogue, colour: true, env: ["DIARY_PASSPHRASE_FILE": ""].merging(env) { $1 })
        return (run.shown, run.status)
    }

    /// `init` at the prompt: an empty passphrase, or a repeat that does not match three times,
    /// writes nothing (1); then a passphrase typed twice is not echoed and opens the vault.
    func testInitPromptRefusesEmptyOrMismatchedAndDoesNotEcho() throws {
        let empty = try runOnTerminal(["init"], dialogue: [("New passphrase: ", "")])
        XCTAssertEqual(empty.status, 1, empty.output)
        XCTAssertTrue(empty.output.contains("the passphrase is empty"), empty.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path))

        // A mistyped repeat is asked again, as `passwd` does: three pairs, then it gives up.
        let mismatched = try runOnTerminal(
            ["init"],
            dialogue: Array(
                repeating: [("New passphrase: ", "Heron frost 9 ladder river"), ("(again): ", "another")], count: 3
            ).flatMap { $0 })
        XCTAssertEqual(mismatched.status, 1, mismatched.output)
        XCTAssertEqual(mismatched.output.components(separatedBy: "try again").count - 1, 2, mismatched.output)
        XCTAssertTrue(mismatched.output.contains("do not match; nothing was changed"), mismatched.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.vault.path), "no vault was written")

        let secret = "typed-secret-7q"
        let (output, status) = try runOnTerminal(
            ["init"], dialogue: [("New passphrase: ", secret), ("(again): ", secret), ("recovery key now?", "n")])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("New passphrase: "), output)
        XCTAssertFalse(output.contains(secret), "the passphrase was echoed: \(output)")
        // The typed passphrase opens the vault.
        try box.ok(["new", "hello"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(secret)])
    }

    func testLockedVaultAsksOnTheTerminal() throws {
        _ = try box.initVault(passphrase: "at the prompt")
        try box.ok(["new", "Seen through a prompt"])
        let (output, status) = try runOnTerminal(["list"], dialogue: [("Passphrase for", "at the prompt")])
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains("Seen through a prompt"), output)
        XCTAssertFalse(output.contains("at the prompt\r\n"), "not echoed: \(output)")
    }

    func testColourOnlyOnATerminalAndNeverWithNOCOLOR() throws {
        let pass = try box.initVault()
        try box.ok(["new", "Colourful", "--star"])
        let env = ["DIARY_PASSPHRASE_FILE": pass]
        let coloured = try runOnTerminal(["list"], dialogue: [], env: env)
        XCTAssertEqual(coloured.status, 0, coloured.output)
        XCTAssertTrue(coloured.output.contains("\u{1B}["), "colour on a terminal: \(coloured.output)")
        let plain = try runOnTerminal(["list"], dialogue: [], env: env.merging(["NO_COLOR": "1"]) { $1 })
        XCTAssertTrue(plain.output.contains("Colourful"), plain.output)
        XCTAssertFalse(plain.output.contains("\u{1B}["), "NO_COLOR: \(plain.output)")
        let dumb = try runOnTerminal(["list"], dialogue: [], env: env.merging(["TERM": "dumb"]) { $1 })
        XCTAssertEqual(dumb.status, 0, dumb.output)
        XCTAssertFalse(dumb.output.contains("\u{1B}["), "TERM=dumb: \(dumb.output)")
        XCTAssertFalse(try box.ok(["list"]).stdout.contains("\u{1B}["), "no colour into a pipe")
    }

    func testCtrlCAtThePromptRestoresEcho() throws {
        _ = try box.initVault()
        let report = try box.runPython(
            Self.interruptDriver, named: "interrupt_driver.py", [DiarySandbox.binary.path],
            env: ["DIARY_PASSPHRASE_FILE": ""]
        ).shown
        XCTAssertTrue(report.contains("echo-at-prompt=0"), "echo off while asking: \(report)")
        XCTAssertTrue(report.contains("status=-2"), "killed by the re-raised SIGINT: \(report)")
        XCTAssertTrue(report.contains("echo-after=1"), "echo restored: \(report)")
    }

    /// Starts `diary list` with the pty as its controlling terminal, types Ctrl-C at the prompt,
    /// and reports the terminal's ECHO flag during the prompt and after diary died.
    static let interruptDriver = #"""
        import fcntl, os, pty, subprocess, sys, termios, time
        master, slave = pty.openpty()
        def take_terminal():
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        child = subprocess.Popen([sys.argv[1], "list"], stdin=slave, stdout=slave, stderr=slave,
                                 start_new_session=True, preexec_fn=take_terminal)
        seen, end = b"", time.time() + 20
        while b"Passphrase for" not in seen and time.time() < end:
            seen += os.read(master, 1024)
        time.sleep(0.3)
        during = 1 if termios.tcgetattr(slave)[3] & termios.ECHO else 0
        os.write(master, b"\x03")
        status = child.wait(timeout=20)
        after = 1 if termios.tcgetattr(slave)[3] & termios.ECHO else 0
        print(f"echo-at-prompt={during} status={status} echo-after={after}")
        """#
}
