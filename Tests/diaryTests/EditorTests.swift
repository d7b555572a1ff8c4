import Foundation
import XCTest

/// The editor works on a file in a private directory on a memory file system; afterwards no file
/// with the plaintext remains — after success, after a failing editor, and after an interrupt.
final class EditorTests: XCTestCase {
    private var box: DiarySandbox!
    private var id = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "editor")
        _ = try box.initVault()
        id = try box.ok(["new", "Secret title\nsecret body"]).out
    }

    override func tearDown() { box = nil }

    func testEditorSeesAPrivateFileOnTmpfsAndItIsGoneAfterwards() throws {
        // The script records where the file was and its permissions, then edits it.
        let report = box.root.appendingPathComponent("seen.txt").path
        let editor = try box.script(
            """
            stat -c '%a %n' "$1" "$(dirname "$1")" > '\(report)'
            df --output=fstype "$1" | tail -1 >> '\(report)'
            printf 'New title\\nnew body\\n' > "$1"
            """)
        try box.ok(["edit", String(id.prefix(8))], env: ["EDITOR": editor])
        let seen = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(seen.count, 3, "\(seen)")
        XCTAssertTrue(seen[0].hasPrefix("600 \(box.runtime.path)/diary-edit-"), seen[0])
        XCTAssertTrue(seen[1].hasPrefix("700 \(box.runtime.path)/diary-edit-"), seen[1])
        XCTAssertEqual(seen[2].trimmingCharacters(in: .whitespaces), "tmpfs")
        XCTAssertEqual(try box.editorLeftovers(), [])
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("new body"))
    }

    /// An entry changed while its editor was open (another `diary edit`, a sync) is never
    /// overwritten: the edited text becomes a new entry beside it, and diary says so.
    func testAnEntryChangedWhileItsEditorWasOpenIsNotOverwritten() throws {
        let short = String(id.prefix(8))
        let inner = try box.script("printf 'the other edit\\n' >> \"$1\"", name: "inner.sh")
        let outer = try box.script(
            """
            printf 'this edit\\n' >> "$1"
            EDITOR='\(inner)' '\(DiarySandbox.binary.path)' edit \(short) || exit 9
            """, name: "outer.sh")
        let result = try box.ok(["edit", short], env: ["EDITOR": outer])
        let added = result.out
        XCTAssertEqual(added.count, 36, "the new entry's id on stdout: \(result.stdout) \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("changed while you edited it"), result.stderr)
        let original = try box.ok(["show", id]).stdout
        XCTAssertTrue(original.contains("the other edit"), original)
        XCTAssertFalse(original.contains("this edit"), original)
        XCTAssertTrue(try box.ok(["show", added]).stdout.contains("this edit"))
    }

    func testEditorValueMayCarryArguments() throws {
        let editor = try box.script("[ \"$1\" = --wait ] || exit 9; printf 'Args ok\\n' > \"$2\"", name: "code.sh")
        try box.ok(["edit", String(id.prefix(8))], env: ["VISUAL": "\(editor) --wait", "EDITOR": "false"])
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("Args ok"))
    }

    func testUnchangedTextWritesNothing() throws {
        let before = try box.ok(["show", id, "--json"]).stdout
        let result = try box.ok(["edit", String(id.prefix(8))], env: ["EDITOR": "true"])
        XCTAssertTrue(result.stderr.contains("no changes; nothing written"))
        XCTAssertEqual(try box.ok(["show", id, "--json"]).stdout, before, "modified date untouched")
    }

    func testEmptiedTextWithoutTerminalNeedsYes() throws {
        let empty = try box.script(": > \"$1\"", name: "empty.sh")
        XCTAssertEqual(try box.run(["edit", String(id.prefix(8))], env: ["EDITOR": empty]).status, 64)
        XCTAssertEqual(try box.listJSON().count, 1)
        try box.ok(["edit", String(id.prefix(8)), "--yes"], env: ["EDITOR": empty])
        XCTAssertEqual(try box.listJSON().count, 0)
        XCTAssertEqual(try box.editorLeftovers(), [])
    }

    /// Leaving a new entry empty (vim's `:q!`) is the user's choice: nothing is stored, stderr
    /// says so, status 0. Empty text given as an argument stays a failure (1).
    func testANewEntryLeftEmptyStoresNothingAndSucceeds() throws {
        let left = try box.run(["new", "--edit"], env: ["EDITOR": "true"])
        XCTAssertEqual(left.status, 0, left.stderr)
        XCTAssertTrue(left.stderr.contains("the entry was left empty; nothing was stored"), left.stderr)
        XCTAssertEqual(left.stdout, "", "no id: nothing was stored")
        let emptying = try box.script(": > \"$1\"", name: "empty.sh")
        let emptied = try box.run(["new", "--edit", "A draft"], env: ["EDITOR": emptying])
        XCTAssertEqual(emptied.status, 0, emptied.stderr)
        XCTAssertEqual(try box.listJSON().count, 1, "only the entry of setUp")
        XCTAssertEqual(try box.editorLeftovers(), [])
        XCTAssertEqual(try box.run(["new", " "]).status, 1, "an empty argument is not a choice made in the editor")
    }

    /// `diary new` at a terminal opens the editor; quitting it without writing (vim's `:q!`)
    /// stores nothing and succeeds.
    func testQuittingTheEditorOfANewEntryOnATerminalSucceeds() throws {
        let run = try box.runOnTerminal(["new"], env: ["EDITOR": "true"])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertTrue(run.shown.contains("the entry was left empty; nothing was stored"), run.shown)
        XCTAssertFalse(run.shown.contains("error"), run.shown)
        XCTAssertEqual(try box.listJSON().count, 1, "only the entry of setUp")
    }

    /// A failing editor is not an abandoned entry: status 1, the editor named. It is an abort
    /// (vim's `:cq`), so even a text it saved before failing is wiped, not kept.
    func testAFailingEditorFailsAndKeepsNothing() throws {
        let plain = try box.run(["new", "--edit"], env: ["EDITOR": "false"])
        XCTAssertEqual(plain.status, 1)
        XCTAssertTrue(plain.stderr.contains("the editor 'false' failed (status 1)"), plain.stderr)
        let aborting = try box.script("printf 'Saved then aborted\\n' > \"$1\"; exit 3", name: "abort.sh")
        let aborted = try box.run(["new", "--edit"], env: ["EDITOR": aborting])
        XCTAssertEqual(aborted.status, 1)
        XCTAssertTrue(aborted.stderr.contains("failed (status 3)"), aborted.stderr)
        XCTAssertFalse(aborted.stderr.contains("kept"), aborted.stderr)
        XCTAssertEqual(try box.editorLeftovers(), [])
        XCTAssertEqual(try box.listJSON().count, 1, "only the entry of setUp")
    }

    func testInterruptedEditLeavesNoPlaintextFile() throws {
        for sig in [SIGTERM, SIGINT] {
            let started = box.root.appendingPathComponent("started-\(sig)").path
            // Touch a marker, then wait to be interrupted.
            let editor = try box.script("touch '\(started)'; exec sleep 30", name: "slow-\(sig).sh")
            let process = Process()
            process.executableURL = DiarySandbox.binary
            process.arguments = ["edit", String(id.prefix(8))]
            process.environment = box.fullEnvironment(["EDITOR": editor])
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let deadline = Date().addingTimeInterval(10)
            while !FileManager.default.fileExists(atPath: started) && Date() < deadline { usleep(20_000) }
            XCTAssertEqual(try box.editorLeftovers().count, 1, "the editor's directory exists while it runs")
            kill(process.processIdentifier, sig)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal, "re-raised signal \(sig)")
            XCTAssertEqual(process.terminationStatus, sig)
            XCTAssertEqual(try box.editorLeftovers(), [], "nothing left after signal \(sig)")
        }
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("secret body"), "the entry is unchanged")
    }
}

/// An editor (or anything else running as the user) can put links in the private directory;
/// cleanup and read-back must never act on a file outside it.
final class EditorLinkTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "editor-links")
        _ = try box.initVault()
    }

    override func tearDown() { box = nil }

    private func victim() throws -> String {
        let path = box.root.appendingPathComponent("victim.txt").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A symlink or a hard link the editor leaves in the private directory: cleanup unlinks
    /// it and never zeroes the file it leads to.
    func testCleanupNeverActsOnAFileOutsideThroughALink() throws {
        let victim = try victim()
        let editor = try box.script(
            """
            ln -s '\(victim)' "$(dirname "$1")/.entry.txt~"
            printf 'Linked title\\n' > "$1"
            """)
        try box.ok(["new", "--edit"], env: ["EDITOR": editor])
        XCTAssertEqual(
            try String(contentsOfFile: victim, encoding: .utf8), "precious\n", "the link's target is untouched")
        XCTAssertEqual(try box.editorLeftovers(), [])
        XCTAssertEqual(try box.listJSON().first?["title"] as? String, "Linked title")
        // A hard link needs the same file system: the victim lives on the runtime tmpfs.
        let hardVictim = box.runtime.appendingPathComponent("victim.txt").path
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: hardVictim))
        let hardEditor = try box.script(
            """
            ln '\(hardVictim)' "$(dirname "$1")/hard" || exit 3
            printf 'Hard title\\n' > "$1"
            """)
        try box.ok(["new", "--edit"], env: ["EDITOR": hardEditor])
        XCTAssertEqual(
            try String(contentsOfFile: hardVictim, encoding: .utf8), "precious\n", "the other link's file is untouched")
        XCTAssertEqual(try box.editorLeftovers(), [])
    }

    /// The entry file replaced by a FIFO (no hang) or by a symlink: refused (1), nothing stored,
    /// the link's target untouched.
    func testEntryFileReplacedByAFIFOOrASymlinkIsRefused() throws {
        let editor = try box.script("rm -f \"$1\"; mkfifo \"$1\"")
        let result = try box.run(["new", "--edit"], env: ["EDITOR": editor])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("not a regular file"), result.stderr)
        XCTAssertEqual(try box.listJSON().count, 0, "nothing stored")
        XCTAssertEqual(try box.editorLeftovers(), [])
        let victim = try victim()
        let linkEditor = try box.script("rm -f \"$1\"; ln -s '\(victim)' \"$1\"")
        let linked = try box.run(["new", "--edit"], env: ["EDITOR": linkEditor])
        XCTAssertEqual(linked.status, 1, linked.stderr)
        XCTAssertTrue(linked.stderr.contains("not a regular file"), linked.stderr)
        XCTAssertEqual(try box.listJSON().count, 0, "nothing stored")
        XCTAssertEqual(
            try String(contentsOfFile: victim, encoding: .utf8), "precious\n", "the link's target is untouched")
        XCTAssertEqual(try box.editorLeftovers(), [])
    }
}
