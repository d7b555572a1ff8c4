import Foundation
import XCTest

@testable import diary

/// `diary pick` with the built binary and a stand-in fzf (a script on PATH), and with the real
/// fzf in its non-interactive `--filter` mode where it is installed.
final class PickCommandTests: XCTestCase {
    private var box: DiarySandbox!
    private var bin: URL!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "pick")
        _ = try box.initVault()
        try box.ok(["new", "Old walk\n\n*far*", "--date", "2023-05-01", "--tag", "walk"])
        try box.ok(["new", "Newer \u{1B}[2J day", "--date", "2024-02-01T10:00", "--star"])
        bin = box.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    }

    override func tearDown() {
        _ = try? box.run(["lock", "--all"])
        box = nil
    }

    /// A stand-in fzf: keeps its arguments and input, runs the preview of the line it picks
    /// (`PICK`, 1-based) and prints that line, or exits with `STATUS` without choosing.
    private func fakeFzf() throws -> [String: String] {
        let script = """
            #!/bin/sh
            log="$FAKE_LOG"
            printf '%s\\n' "$@" > "$log.args"
            cat > "$log.in"
            [ -n "$STATUS" ] && exit "$STATUS"
            if [ -n "$ASK_TTY" ]; then printf 'fzf-ask: ' > /dev/tty; read PICK < /dev/tty; fi
            line=$(sed -n "${PICK}p" "$log.in")
            id=$(printf '%s' "$line" | cut -f1)
            for a in "$@"; do case "$a" in --preview=*) p=${a#--preview=};; esac; done
            cmd=$(printf '%s' "$p" | sed "s/{1}/'$id'/")
            sh -c "$cmd" > "$log.preview" 2>&1
            echo "status $?" >> "$log.preview"
            printf '%s\\n' "$line"
            """
        let url = bin.appendingPathComponent("fzf")
        try Data(script.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return ["PATH": "\(bin.path):/usr/bin:/bin", "FAKE_LOG": box.root.appendingPathComponent("fzf").path]
    }

    private func logged(_ suffix: String) throws -> String {
        try String(contentsOf: box.root.appendingPathComponent("fzf.\(suffix)"), encoding: .utf8)
    }

    func testPrintsTheChosenIdAndOffersOneLinePerEntry() throws {
        var env = try fakeFzf()
        env["PICK"] = "2"
        let ids = try box.listJSON().map { $0["id"] as! String }  // newest first
        let picked = try box.ok(["pick"], env: env)
        XCTAssertEqual(picked.stdout, ids[1] + "\n", "only the id on stdout")
        let lines = try logged("in").split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix(ids[0] + "\t"), lines[0])
        XCTAssertTrue(lines[0].contains("★ Newer \\e[2J day"), "escaped: \(lines[0])")
        XCTAssertTrue(lines[1].contains("May 1, 2023") && lines[1].hasSuffix("Old walk  #walk"), lines[1])
        let args = try logged("args")
        XCTAssertTrue(args.contains("--with-nth=2.."), args)
        XCTAssertTrue(args.contains("show --preview --vault '\(box.vault.path)' {1}"), args)

        // The filters are list's.
        env["PICK"] = "1"
        XCTAssertEqual(try box.ok(["pick", "--tag", "walk"], env: env).stdout, ids[1] + "\n")
        XCTAssertEqual(try box.ok(["pick", "-n", "1"], env: env).stdout, ids[0] + "\n")
        XCTAssertEqual(try logged("in").split(separator: "\n").count, 1)
        let none = try box.run(["pick", "--tag", "nothing"], env: env)
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no entry matches"), none.stderr)
    }

    /// The preview never asks and never reads the passphrase file: only the agent's key opens
    /// the vault for it.
    func testThePreviewAsksOnlyTheAgent() throws {
        var env = try fakeFzf()
        env["PICK"] = "2"
        try box.ok(["pick"], env: env)
        let locked = try logged("preview")
        XCTAssertTrue(locked.contains("locked"), locked)
        XCTAssertTrue(locked.hasSuffix("status 75\n"), locked)

        try box.ok(["unlock"])
        try box.ok(["pick"], env: env)
        let shown = try logged("preview")
        XCTAssertTrue(shown.contains("Old walk"), shown)
        XCTAssertTrue(shown.contains("\nfar\n"), "rendered as on a terminal: \(shown)")
        XCTAssertTrue(shown.hasSuffix("status 0\n"), shown)
    }

    func testNoChoicePrintsNothingAndFails() throws {
        var env = try fakeFzf()
        for status in ["1", "130"] {
            env["STATUS"] = status
            let result = try box.run(["pick"], env: env)
            XCTAssertEqual(result.status, 1, "fzf \(status)")
            XCTAssertEqual(result.stdout, "")
            XCTAssertEqual(result.stderr, "")
        }
        env["STATUS"] = "2"
        let failed = try box.run(["pick"], env: env)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("fzf failed (exit status 2)"), failed.stderr)
    }

    /// fzf reads the keys from the terminal: it must run in the terminal's foreground process
    /// group (diary's own), or its first read stops it and `diary pick` never returns.
    func testOnATerminalFzfReadsTheKeysAndTheChoiceIsPrinted() throws {
        var env = try fakeFzf()
        env["ASK_TTY"] = "1"
        let ids = try box.listJSON().map { $0["id"] as! String }
        let chosen = box.root.appendingPathComponent("chosen")
        let run = try box.runOnTerminal(["pick"], answers: [("fzf-ask: ", "2")], env: env, stdoutTo: chosen)
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertEqual(try String(contentsOf: chosen, encoding: .utf8), ids[1] + "\n")
    }

    /// Options from the user's FZF_DEFAULT_OPTS can print other lines before the chosen one
    /// (`--print-query` the query, `--expect` the key): the id is the chosen line's, never a
    /// query taken for an id.
    func testTheIdComesFromTheChosenLineWhateverFzfPrintsBeforeIt() {
        let id = "0F1E2D3C-4B5A-4968-8776-655443322110"
        XCTAssertEqual(Picker.choice(status: 0, output: "entry 2\n\(id)\t2024  Walk\n"), .chosen(id: id))
        XCTAssertEqual(Picker.choice(status: 0, output: "\nctrl-x\n\(id)\t2024  Walk\n"), .chosen(id: id))
        XCTAssertEqual(Picker.choice(status: 0, output: "entry 2\n"), .nothingMatched)
        XCTAssertEqual(Picker.choice(status: 0, output: "\(id)\t2024  Walk\n"), .chosen(id: id))
    }

    func testWithoutFzfAnErrorNamesThePackage() throws {
        let result = try box.run(["pick"], env: ["PATH": bin.path + ":/nonexistent"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("diary: error: fzf is not installed"), result.stderr)
        XCTAssertTrue(result.stderr.contains("apt install fzf"), result.stderr)
    }

    func testRealFzfInFilterMode() throws {
        guard Picker.find() != nil else { throw XCTSkip("fzf is not installed (apt install fzf)") }
        let ids = try box.listJSON().map { $0["id"] as! String }
        XCTAssertEqual(try box.ok(["pick"], env: ["FZF_DEFAULT_OPTS": "--filter=walk"]).stdout, ids[1] + "\n")
        // The id is not among the fields fzf matches.
        let byID = try box.run(["pick"], env: ["FZF_DEFAULT_OPTS": "--filter=\(ids[0].prefix(8))"])
        XCTAssertEqual(byID.status, 1)
        XCTAssertEqual(byID.stdout, "")
    }
}
