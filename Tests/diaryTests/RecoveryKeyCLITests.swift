import DiaryCrypto
import Foundation
import XCTest

/// `diary recovery-key` and `diary reset-passphrase` as a person runs them: the key written to
/// a new file or shown on the terminal only, and a reset after `passwd` twice and a `rekey`.
final class RecoveryKeyCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "recovery-key")
    }

    override func tearDown() { box = nil }

    private func keyLine(_ text: String) -> String? {
        text.components(separatedBy: .newlines).map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.count == 62 && $0.split(separator: "-").map(\.count) == Array(repeating: 6, count: 9) }
    }

    func testKeyFileMadeBeforeTwoPasswdsAndARekeyResetsTheForgottenPassphrase() throws {
        try box.initVault(store: "files", passphrase: "first passphrase 1")
        try box.ok(["new", "Written before the key"])
        let keyFile = box.root.appendingPathComponent("recovery-key.txt").path
        let created = try box.ok(["recovery-key", "create", "--output", keyFile])
        XCTAssertEqual(created.stdout, "", "the key never goes to stdout")
        XCTAssertTrue(created.stderr.contains("fingerprint"), created.stderr)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let contents = try String(contentsOfFile: keyFile, encoding: .utf8)
        XCTAssertNotNil(keyLine(contents), contents)
        XCTAssertTrue(try box.ok(["recovery-key", "status"]).stdout.hasPrefix("active (epoch 1, fingerprint "))
        // The file is never written over.
        let again = try box.run(["recovery-key", "create", "--replace", "--output", keyFile])
        XCTAssertEqual(again.status, 73, again.stderr)
        XCTAssertEqual(try String(contentsOfFile: keyFile, encoding: .utf8), contents)

        for (old, new) in [
            ("first passphrase 1", "second passphrase 2"), ("second passphrase 2", "third passphrase 3"),
        ] {
            try box.ok(
                ["passwd", "--new-passphrase-file", try box.passphraseFile(new)],
                env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile(old)])
        }
        try box.ok(
            ["new", "Written after"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("third passphrase 3")])
        try box.ok(["rekey"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("third passphrase 3")])

        // Forgotten: no passphrase file at all, the vault locked.
        let reset = try box.ok(
            [
                "reset-passphrase", "--recovery-key-file", keyFile,
                "--new-passphrase-file", try box.passphraseFile("reset passphrase 4"),
            ],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(reset.stdout, "")
        let listed = try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("reset passphrase 4")])
        XCTAssertTrue(listed.stdout.contains("Written before the key"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("Written after"), listed.stdout)
        let old = try box.run(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("third passphrase 3")])
        XCTAssertNotEqual(old.status, 0)
    }

    func testWithoutATerminalTheKeyIsNeverMadeUnlessWrittenToAFile() throws {
        try box.initVault()
        let result = try box.run(["recovery-key", "create"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--output"), result.stderr)
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).out, "none")
    }

    func testAMistypedKeyFileAndAnotherKeyAreNamedAndChangeNothing() throws {
        try box.initVault()
        let keyFile = box.root.appendingPathComponent("key.txt").path
        try box.ok(["recovery-key", "create", "--output", keyFile])
        let text = try XCTUnwrap(keyLine(try String(contentsOfFile: keyFile, encoding: .utf8)))
        // Two neighbours swapped, the mistake the checksum must catch.
        var swapped = Array(text)
        let j = try XCTUnwrap(
            swapped.indices.dropLast().first {
                swapped[$0] != swapped[$0 + 1] && swapped[$0] != "-" && swapped[$0 + 1] != "-"
            })
        swapped.swapAt(j, j + 1)
        let mistyped = box.root.appendingPathComponent("mistyped.txt")
        try (String(swapped) + "\n").write(to: mistyped, atomically: true, encoding: .utf8)
        let newFile = try box.passphraseFile("never set 123")
        let bad = try box.run(
            ["reset-passphrase", "--recovery-key-file", mistyped.path, "--new-passphrase-file", newFile],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(bad.status, 67, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("checksum"), bad.stderr)
        let other = box.root.appendingPathComponent("other.txt").path
        try box.ok(["recovery-key", "create", "--replace", "--output", other])
        let stale = try box.run(
            ["reset-passphrase", "--recovery-key-file", keyFile, "--new-passphrase-file", newFile],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(stale.status, 77, stale.stderr)
        XCTAssertTrue(stale.stderr.contains("does not open this vault"), stale.stderr)
        // Both fingerprints, readable without the forgotten passphrase; no hint that needs it.
        let status = try box.ok(["recovery-key", "status"]).out
        let vaultsFingerprint = try XCTUnwrap(status.components(separatedBy: "fingerprint ").last?.dropLast())
        XCTAssertTrue(
            stale.stderr.contains("the vault's recovery key has fingerprint \(vaultsFingerprint)"), stale.stderr)
        XCTAssertTrue(stale.stderr.contains("it has fingerprint "), stale.stderr)
        XCTAssertFalse(stale.stderr.contains("recovery-key status"), stale.stderr)
        // A stray character is named, counted among the key's characters (not the dashes).
        let stray = box.root.appendingPathComponent("stray.txt")
        try (String(text.prefix(7)) + "U" + String(text.dropFirst(8)) + "\n").write(
            to: stray, atomically: true, encoding: .utf8)
        let strayed = try box.run(
            ["reset-passphrase", "--recovery-key-file", stray.path, "--new-passphrase-file", newFile],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(strayed.status, 67, strayed.stderr)
        XCTAssertTrue(strayed.stderr.contains("character 7 of the key (U)"), strayed.stderr)
        // The current passphrase is not what a reset takes.
        let withCurrent = try box.run(
            ["reset-passphrase", "--recovery-key-file", keyFile, "--passphrase-file", newFile])
        XCTAssertEqual(withCurrent.status, 64, withCurrent.stderr)
        try box.ok(["list"])  // the passphrase still opens it
        try box.ok(["recovery-key", "remove", "--yes"])
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).out, "removed (epoch 3)")
    }

    /// A header put back after `create --replace` (someone with file access) is refused by every
    /// command that opens the vault, and nothing is written.
    func testAnOldHeaderPutBackIsRefused() throws {
        try box.initVault(store: "files")
        try box.ok(["new", "kept"])
        try box.ok(["recovery-key", "create", "--output", box.root.appendingPathComponent("first.txt").path])
        let headerURL = box.vault.appendingPathComponent("vault.header")
        let old = try Data(contentsOf: headerURL)
        try box.ok([
            "recovery-key", "create", "--replace", "--output", box.root.appendingPathComponent("second.txt").path,
        ])
        try old.write(to: headerURL)
        for command in [["list"], ["new", "more"], ["rekey"]] {
            let result = try box.run(command)
            XCTAssertEqual(result.status, 65, "\(command): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("does not match the index"), result.stderr)
            XCTAssertFalse(result.stderr.contains("diary verify` lists"), "no hint that loops: \(result.stderr)")
        }
        // `verify` lists it as the damage found, not as a refusal sending back to itself.
        let verified = try box.run(["verify"])
        XCTAssertEqual(verified.status, 65, verified.stderr)
        XCTAssertTrue(verified.stdout.hasPrefix("header: its recovery key is not the one the index"), verified.stdout)
        XCTAssertTrue(verified.stderr.contains("the vault header does not match the index"), verified.stderr)
        XCTAssertTrue(verified.stderr.contains("put back the vault.header that belongs"), verified.stderr)
        XCTAssertEqual(try Data(contentsOf: headerURL), old)
    }

    /// The vault put back whole (header and index) to before `--replace`, with an entry written
    /// since: the replaced key must not reset it; the witness refuses as for every other open.
    func testAResetOnAVaultPutBackWholeIsRefusedByTheWitness() throws {
        try box.initVault(store: "files")
        try box.ok(["new", "kept"])
        let first = box.root.appendingPathComponent("first.txt").path
        try box.ok(["recovery-key", "create", "--output", first])
        let saved = box.root.appendingPathComponent("saved")
        try FileManager.default.copyItem(at: box.vault, to: saved)
        try box.ok(["recovery-key", "create", "--replace", "--output", box.root.appendingPathComponent("2.txt").path])
        try box.ok(["new", "written after the replace"])
        for name in ["index", "vault.index", "vault.header"] {
            let target = box.vault.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            let source = saved.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: source.path) {
                try FileManager.default.copyItem(at: source, to: target)
            }
        }
        XCTAssertNotEqual(try box.run(["list"]).status, 0)
        let header = try Data(contentsOf: box.vault.appendingPathComponent("vault.header"))
        let reset = try box.run(
            [
                "reset-passphrase", "--recovery-key-file", first,
                "--new-passphrase-file", try box.passphraseFile("never set 123"),
            ], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertNotEqual(reset.status, 0, reset.stderr)
        XCTAssertTrue(reset.stderr.contains("older than"), reset.stderr)
        XCTAssertEqual(try Data(contentsOf: box.vault.appendingPathComponent("vault.header")), header)
    }

    /// GUIDE's rows: a recovery block edited in place (another public key, the checksum made
    /// good) does not open with the passphrase, which binds the block; and the refusals of a
    /// vault without a key, a second key, a missing key file.
    func testTheGuidesRowsForAnEditedBlockAndMissingKeys() throws {
        try box.initVault(store: "files")
        let keyFile = box.root.appendingPathComponent("key.txt").path
        let none = try box.run(
            [
                "reset-passphrase", "--recovery-key-file", keyFile,
                "--new-passphrase-file", try box.passphraseFile("never set 123"),
            ], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(none.status, 1, none.stderr)
        XCTAssertEqual(try box.run(["recovery-key", "remove", "--yes"]).status, 1)
        try box.ok(["recovery-key", "create", "--output", keyFile])
        let second = try box.run(["recovery-key", "create", "--output", keyFile + ".2"])
        XCTAssertEqual(second.status, 1, second.stderr)
        XCTAssertTrue(second.stderr.contains("has a recovery key already"), second.stderr)
        let missing = try box.run(
            [
                "reset-passphrase", "--recovery-key-file", keyFile + ".missing",
                "--new-passphrase-file", try box.passphraseFile("never set 123"),
            ], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(missing.status, 1, missing.stderr)

        let headerURL = box.vault.appendingPathComponent("vault.header")
        var header = [UInt8](try Data(contentsOf: headerURL))
        header.replaceSubrange(64..<96, with: SecureRandom.bytes(count: 32))
        header.replaceSubrange((header.count - 32)..., with: BLAKE2b.hash(Array(header.dropLast(32))))
        try Data(header).write(to: headerURL)
        let edited = try box.run(["list"])
        XCTAssertEqual(edited.status, 77, edited.stderr)
        XCTAssertTrue(edited.stderr.contains("wrong passphrase"), edited.stderr)
        XCTAssertEqual([UInt8](try Data(contentsOf: headerURL)), header)
    }

    /// `init` on a terminal offers a key; it is shown there (never on stdout) with its QR code,
    /// and typed back at the prompt it resets the passphrase.
    func testInitOffersAKeyShownOnTheTerminalAndTypedBackToReset() throws {
        let stdout = box.root.appendingPathComponent("stdout.txt")
        let made = try box.runOnTerminal(
            ["init"],
            answers: [
                ("New passphrase: ", "Heron frost 9 ladder river"), ("(again): ", "Heron frost 9 ladder river"),
                ("recovery key now?", "y"), ("written it down", ""),
            ],
            env: ["DIARY_PASSPHRASE_FILE": ""], stdoutTo: stdout)
        XCTAssertEqual(made.status, 0, made.shown)
        XCTAssertEqual(try String(contentsOf: stdout, encoding: .utf8), "")
        let key = try XCTUnwrap(keyLine(made.shown.replacingOccurrences(of: "\r", with: "")), made.shown)
        XCTAssertTrue(made.shown.contains("▀") || made.shown.contains("▄"), "a QR code: \(made.shown)")

        let reset = try box.runOnTerminal(
            ["reset-passphrase"],
            answers: [
                ("Recovery key: ", key.lowercased().replacingOccurrences(of: "-", with: " ")),
                ("New passphrase: ", "Otter lamp 4 quiet meadow"), ("(again): ", "Otter lamp 4 quiet meadow"),
            ],
            env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(reset.status, 0, reset.shown)
        XCTAssertFalse(reset.shown.contains(key.lowercased()), "the key was echoed")
        try box.ok(["list"], env: ["DIARY_PASSPHRASE_FILE": try box.passphraseFile("Otter lamp 4 quiet meadow")])
    }

    /// Ctrl-D (end of input) at "Press Enter" cancels as Ctrl-C does: the screen is cleared and
    /// no key is set.
    func testEndOfInputAtTheEnterPromptSetsNoKey() throws {
        try box.initVault(store: "files")
        let cancelled = try box.runOnTerminal(["recovery-key", "create"], answers: [("written it down", "\u{4}")])
        XCTAssertEqual(cancelled.status, 1, cancelled.shown)
        XCTAssertTrue(cancelled.shown.contains("cancelled; no recovery key was set"), cancelled.shown)
        XCTAssertTrue(cancelled.shown.contains("\u{1B}[3J"), "the screen was cleared: \(cancelled.shown)")
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).stdout, "none\n")
    }

    /// Typing something and then Ctrl-D twice (a line ended without Enter, then end of input)
    /// is no Enter either: only a newline confirms that the key is written down.
    func testTypingThenEndOfInputAtTheEnterPromptSetsNoKey() throws {
        try box.initVault(store: "files")
        let cancelled = try box.runOnTerminal(
            ["recovery-key", "create"], answers: [("written it down", "abc\u{4}\u{4}")])
        XCTAssertEqual(cancelled.status, 1, cancelled.shown)
        XCTAssertTrue(cancelled.shown.contains("cancelled; no recovery key was set"), cancelled.shown)
        XCTAssertEqual(try box.ok(["recovery-key", "status"]).stdout, "none\n")
    }
}
