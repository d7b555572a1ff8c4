import Foundation
import XCTest

/// The review's findings that need a process: an interrupted `extract` leaves no plaintext
/// (signals; a SIGKILL's leftover removed by the next extract), a file name that is not
/// UTF-8 on the command line, a damaged entry in `attachments`, and `new --attach` refusing
/// a file without keeping the text it was given.
final class AttachmentReviewCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "attach-review") }
    override func tearDown() { box = nil }

    /// The bytes written so far to the temporary files (one while an extract writes).
    private func partialBytes(in directory: URL) -> Int {
        partials(in: directory).reduce(0) { total, name in
            let path = directory.appendingPathComponent(name).path
            return total + ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    private func partials(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
            $0.hasPrefix(".diary-extract-")
        }
    }

    /// Runs `sh -c script` with the sandbox's environment; `$0` is the diary binary.
    private func shell(_ script: String, _ args: [String] = []) throws -> DiaryResult {
        try runProgram(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, DiarySandbox.binary.path] + args,
            env: box.fullEnvironment([:]))
    }

    /// An entry with a 64 MiB attachment (a sparse file: cheap to read).
    private func entryWithLargeAttachment() throws -> String {
        try box.initVault(store: "files")
        let large = box.root.appendingPathComponent("large.bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: large, contents: Data([1])))
        XCTAssertEqual(truncate(large, 64 << 20), 0)
        let id = try box.ok(["new", "Big"]).out
        try box.ok(["attach", id, large])
        return id
    }

    func testAnInterruptedExtractLeavesNoPlaintextAndAKilledOnesIsRemovedNext() throws {
        let id = try entryWithLargeAttachment()
        let out = box.root.appendingPathComponent("ex")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        // A file size limit (1 MiB): SIGXFSZ mid-write, status 128 + 25 from the shell.
        let limited = try shell(
            "ulimit -f 2048; \"$0\" extract \"$1\" large.bin -o \"$2\" --yes", [id, out.path + "/o"])
        XCTAssertEqual(limited.status, 128 + SIGXFSZ, limited.stderr)
        XCTAssertEqual(partials(in: out), [])
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGKILL] {
            let process = Process()
            process.executableURL = DiarySandbox.binary
            process.arguments = ["extract", id, "large.bin", "-o", out.path + "/o", "--yes"]
            process.environment = box.fullEnvironment([:])
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            // Bytes written: the file is registered for removal by then (it is from its creation
            // to the first write that a signal could leave it, empty, to the next extract).
            while partialBytes(in: out) == 0 && process.isRunning && Date() < deadline { usleep(1000) }
            // Stopped at once, so the extract cannot end before the signal arrives.
            kill(process.processIdentifier, SIGSTOP)
            XCTAssertEqual(partials(in: out).count, 1, "the extract ended before it could be stopped (\(sig))")
            kill(process.processIdentifier, sig)
            kill(process.processIdentifier, SIGCONT)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(process.terminationStatus, sig)
            XCTAssertEqual(partials(in: out).count, sig == SIGKILL ? 1 : 0, "signal \(sig)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path + "/o"))
        // SIGKILL cannot be caught: the next extract into that directory removes what it left.
        let left = partials(in: out)
        let next = try box.ok(["extract", id, "large.bin", "-o", out.path + "/o", "--yes"])
        XCTAssertTrue(
            next.stderr.contains("removed \(out.path)/\(left[0]), left by an extract that was killed"), next.stderr)
        XCTAssertEqual(partials(in: out), [])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out.path + "/o")[.size] as? Int, 64 << 20)
    }

    func testAFileNamedInBytesThatAreNotUTF8() throws {
        try box.initVault()
        let id = try box.ok(["new", "Odd names"]).out
        let made = try shell("cd \"$1\" && printf 'odd content' > \"$(printf 'x\\377\\376.bin')\"", [box.root.path])
        XCTAssertEqual(made.status, 0, made.stderr)
        let attach = "\"$0\" attach \"$1\" \"$2/$(printf 'x\\377\\376.bin')\""
        let unnamed = try shell(attach, [id, box.root.path])
        XCTAssertEqual(unnamed.status, 67, unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("is not UTF-8"), unnamed.stderr)
        XCTAssertTrue(unnamed.stderr.contains("--name"), unnamed.stderr)
        let named = try shell(attach + " --name ok.bin", [id, box.root.path])
        XCTAssertEqual(named.status, 0, named.stderr)
        XCTAssertEqual(try box.ok(["extract", id, "ok.bin", "-o", "-", "--yes"]).stdout, "odd content")
        let badName = try shell(attach + " --name \"$(printf '\\377.bin')\"", [id, box.root.path])
        XCTAssertEqual(badName.status, 64, badName.stderr)
        // An output path that is not UTF-8 is refused rather than written under another name.
        let before = try FileManager.default.contentsOfDirectory(atPath: box.root.path).sorted()
        let badOutput = try shell(
            "\"$0\" extract \"$1\" ok.bin -o \"$2/$(printf 'y\\377.bin')\" --yes", [id, box.root.path])
        XCTAssertEqual(badOutput.status, 64, badOutput.stderr)
        XCTAssertTrue(badOutput.stderr.contains("the output path is not UTF-8"), badOutput.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: box.root.path).sorted(), before)
    }

    func testADamagedEntryDoesNotHideTheOthersFromTheListing() throws {
        try box.initVault(store: "files")
        let note = box.root.appendingPathComponent("note.txt")
        try Data("hello\n".utf8).write(to: note)
        let kept = try box.ok(["new", "--attach", note.path, "Kept", "--date", "2024-01-01"]).out
        let lost = try box.ok(["new", "--attach", note.path, "Lost", "--date", "2024-01-02"]).out
        let file = box.vault.appendingPathComponent("entries/\(lost)")
        var sealed = try Array(Data(contentsOf: file))
        sealed[sealed.count - 5] ^= 1
        try Data(sealed).write(to: file)
        let listed = try box.run(["attachments"])
        XCTAssertEqual(listed.status, 65, listed.stderr)
        XCTAssertTrue(listed.stdout.hasPrefix("\(kept.prefix(8))  Kept\n"), listed.stdout)
        XCTAssertFalse(listed.stdout.contains("Lost"))
        XCTAssertTrue(listed.stderr.contains("entry \(lost) is damaged and was not listed"), listed.stderr)
    }

    func testARefusedFileDoesNotKeepTextFromArgumentsOrStdin() throws {
        try box.initVault()
        let broken = box.root.appendingPathComponent("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01] + [UInt8](repeating: 0, count: 100)).write(to: broken)
        let fromArguments = try box.run(["new", "--attach", broken.path, "Some text"])
        XCTAssertEqual(fromArguments.status, 67, fromArguments.stderr)
        XCTAssertFalse(fromArguments.stderr.contains("kept in"), fromArguments.stderr)
        let fromStdin = try box.run(["new", "--attach", broken.path], stdin: Data("Piped text\n".utf8))
        XCTAssertEqual(fromStdin.status, 67, fromStdin.stderr)
        XCTAssertEqual(try box.editorLeftovers(), [])
        let later = try box.ok(["list"])
        XCTAssertEqual(later.stderr, "")
        XCTAssertEqual(try box.listJSON().count, 0)
    }
}
