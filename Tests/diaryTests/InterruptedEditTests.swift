import Foundation
import XCTest

/// A `diary` killed with SIGKILL cannot clean up: its editor directory (plaintext, in memory)
/// stays. The next command that opens the vault says so, and `diary recover` stores the text
/// and wipes the directory. A directory of a diary that still runs is left alone.
final class InterruptedEditTests: XCTestCase {
    private var box: DiarySandbox!
    private var id = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "killed")
        _ = try box.initVault()
        id = try box.ok(["new", "Old title\nold body"]).out
    }

    override func tearDown() { box = nil }

    /// Starts `diary args` with an editor that writes `text`, records its pid and blocks;
    /// returns the diary process and the editor's pid once the text is written.
    private func startBlockedEdit(_ args: [String], text: String) throws -> (Process, pid_t) {
        let pidFile = box.root.appendingPathComponent("editor-\(UUID().uuidString.prefix(6)).pid").path
        let editor = try box.script(
            "printf '\(text)\\n' > \"$1\"; echo $$ > '\(pidFile).tmp'; mv '\(pidFile).tmp' '\(pidFile)'; exec sleep 30",
            name: "blocking-\(UUID().uuidString.prefix(6)).sh")
        let process = Process()
        process.executableURL = DiarySandbox.binary
        process.arguments = args
        process.environment = box.fullEnvironment(["EDITOR": editor])
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: pidFile) && Date() < deadline { usleep(20_000) }
        let editorPID =
            pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? 0
        XCTAssertGreaterThan(editorPID, 1)
        return (process, editorPID)
    }

    /// SIGKILLs diary, waits until it is dead (a zombie: no cleanup can run any more), then
    /// stops the editor, which still holds a descriptor `Process` waits on.
    private func killDiaryThenEditor(_ process: Process, _ editorPID: pid_t) {
        let pid = process.processIdentifier
        kill(pid, SIGKILL)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if let close = stat.lastIndex(of: ")"), stat[close...].hasPrefix(") Z") { break }
            usleep(10_000)
        }
        if editorPID > 1 { kill(editorPID, SIGKILL) }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    }

    /// A killed `edit` leaves its directory, which the next command reports and `recover`
    /// stores into the entry; a killed `new --edit`, likewise, as a new entry.
    func testKilledEditsAreReportedThenRecovered() throws {
        let (process, editorPID) = try startBlockedEdit(
            ["edit", String(id.prefix(8))], text: "New title\\nrecovered body")
        // While that diary runs, its directory is not anyone's leftover.
        let during = try box.ok(["list"])
        XCTAssertFalse(during.stderr.contains("was not saved"), during.stderr)

        killDiaryThenEditor(process, editorPID)
        XCTAssertEqual(try box.editorLeftovers().count, 1, "SIGKILL leaves the directory")

        let next = try box.ok(["list"])
        XCTAssertTrue(next.stderr.contains("an edit of entry \(id.prefix(8)) was not saved"), next.stderr)
        XCTAssertTrue(next.stderr.contains("diary recover"), next.stderr)
        XCTAssertEqual(try box.editorLeftovers().count, 1, "never deleted silently")

        let recovered = try box.ok(["recover"])
        XCTAssertEqual(recovered.out, id)
        let shown = try box.ok(["show", id]).stdout
        XCTAssertTrue(shown.contains("New title") && shown.contains("recovered body"), shown)
        XCTAssertEqual(try box.editorLeftovers(), [], "the directory is wiped")
        XCTAssertFalse(try box.ok(["list"]).stderr.contains("was not saved"))

        // A killed `new --edit` is recovered as a new entry, as `new` meant it (date, tags, star);
        // wiping it instead needs --yes.
        let (newProcess, newEditorPID) = try startBlockedEdit(
            ["new", "--edit", "--date", "2024-11-24T21:00", "--tag", "walks", "--star"], text: "Half-written #home")
        killDiaryThenEditor(newProcess, newEditorPID)
        XCTAssertTrue(try box.ok(["list"]).stderr.contains("a new entry was not saved"))
        XCTAssertEqual(try box.run(["recover", "--discard"]).status, 64, "wiping needs --yes without a terminal")
        XCTAssertEqual(try box.editorLeftovers().count, 1)

        let recoveredNew = try box.ok(["recover"]).out
        XCTAssertNotEqual(recoveredNew, id)
        XCTAssertTrue(try box.ok(["show", recoveredNew]).stdout.hasPrefix("Half-written #home\n"))
        let row = try XCTUnwrap(try box.listJSON().first { ($0["id"] as? String) == recoveredNew })
        XCTAssertEqual(row["date"] as? String, "2024-11-24T21:00:00Z")
        XCTAssertEqual(row["tags"] as? [String], ["home", "walks"])
        XCTAssertEqual(row["starred"] as? Bool, true)
        XCTAssertEqual(try box.editorLeftovers(), [])
    }

    func testOnATerminalTheNextCommandOffersToRecover() throws {
        let (process, editorPID) = try startBlockedEdit(["edit", String(id.prefix(8))], text: "Offered title")
        killDiaryThenEditor(process, editorPID)

        let run = try box.runOnTerminal(["list"], answers: [("Store it in the vault now", "y")])
        XCTAssertEqual(run.status, 0, run.shown)
        XCTAssertTrue(run.shown.contains("recovered an edit of entry \(id.prefix(8))"), run.shown)
        XCTAssertTrue(run.shown.contains("Offered title"), "list goes on and shows the recovered title: \(run.shown)")
        XCTAssertEqual(try box.editorLeftovers(), [])
    }
}
