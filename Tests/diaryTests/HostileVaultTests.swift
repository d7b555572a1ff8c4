import DiaryTestSupport
import Foundation
import XCTest

/// Hostile neighbours in and around a vault, through the built binary: FIFOs where files
/// belong, sparse files of a terabyte. Every command must end promptly with a clear damage
/// error naming the file. Each run has a time limit, so a hang fails the test instead of
/// hanging the suite.
final class HostileVaultTests: XCTestCase {
    /// Far more than any of these commands needs; a blocked `open` never returns at all.
    static let seconds = 20

    private func filesVault(_ name: String) throws -> (DiarySandbox, String) {
        let box = try DiarySandbox(name: name)
        _ = try box.initVault(store: "files")
        let id = try box.ok(["new", "Morning walk\nFrost on the grass."]).out
        return (box, id)
    }

    /// Replaces `url` with a FIFO.
    private func fifo(_ url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        XCTAssertEqual(mkfifo(url.path, 0o600), 0, "mkfifo \(url.path)")
    }

    /// Removes the FIFO at `url` before `box` goes: the sandbox's clean-up runs `diary lock`
    /// without a time limit, and on code that blocks on a FIFO it would hang the suite
    /// instead of letting the test fail.
    private func remove(_ url: URL, before box: DiarySandbox) {
        try? FileManager.default.removeItem(at: url)
        withExtendedLifetime(box) {}
    }

    private func assertDamage(
        _ result: DiaryResult, naming url: URL, _ detail: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertNotEqual(result.status, 124, "timed out: diary hung", file: file, line: line)
        XCTAssertEqual(result.status, 65, result.stderr, file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains("diary: error: \(url.path) is damaged: \(detail)"), result.stderr, file: file,
            line: line)
    }

    /// A FIFO where the header, the journal or an entry file belongs: each command that reads
    /// it ends promptly with a damage error (65) naming the file, each in its own vault.
    func testFIFOsWhereFilesBelongAreRefusedPromptly() throws {
        try checkFIFOAsHeader()
        try checkFIFOAsJournal()
        try checkFIFOAsEntryFile()
    }

    /// Sparse files of a terabyte (the limits themselves are DiaryStoreTests'
    /// `StoreHostileFileTests`): damage (65) naming the file, through the binary.
    func testSparseHugeFilesAreRefusedAsDamage() throws {
        try checkSparseTerabyteJournal()
        try checkSparseHugeEntryFile()
    }

    private func checkFIFOAsHeader() throws {
        let (box, _) = try filesVault("fifo-header")
        let header = box.vault.appendingPathComponent("vault.header")
        try fifo(header)
        defer { remove(header, before: box) }
        assertDamage(try box.run(["list"], timeout: Self.seconds), naming: header, "is not a regular file")
    }

    /// The journal is read holding the vault lock: a hang there also locked out every other
    /// `diary` process.
    private func checkFIFOAsJournal() throws {
        let (box, _) = try filesVault("fifo-journal")
        let journal = box.vault.appendingPathComponent("vault.journal")
        try fifo(journal)
        defer { remove(journal, before: box) }
        assertDamage(try box.run(["list"], timeout: Self.seconds), naming: journal, "is not a regular file")
        assertDamage(try box.run(["new", "more"], timeout: Self.seconds), naming: journal, "is not a regular file")
    }

    private func checkFIFOAsEntryFile() throws {
        let (box, id) = try filesVault("fifo-entry")
        try box.ok(["new", "Evening\nFrost again."])
        let entry = box.vault.appendingPathComponent("entries/\(id)")
        try fifo(entry)
        defer { remove(entry, before: box) }
        assertDamage(try box.run(["show", id], timeout: Self.seconds), naming: entry, "is not a regular file")
        // Search reports a damaged entry and goes on with the others.
        let search = try box.run(["search", "frost"], timeout: Self.seconds)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertTrue(search.stdout.contains("Evening"), search.stdout)
        XCTAssertTrue(search.stderr.contains("entry \(id) is damaged"), search.stderr)
    }

    private func checkSparseTerabyteJournal() throws {
        let (box, _) = try filesVault("huge-journal")
        let journal = box.vault.appendingPathComponent("vault.journal")
        XCTAssertTrue(FileManager.default.createFile(atPath: journal.path, contents: nil))
        XCTAssertEqual(truncate(journal.path, 1 << 40), 0)
        assertDamage(
            try box.run(["list"], timeout: Self.seconds), naming: journal, "is larger than \(512 << 20) bytes")
    }

    private func checkSparseHugeEntryFile() throws {
        let (box, id) = try filesVault("huge-entry")
        let entry = box.vault.appendingPathComponent("entries/\(id)")
        XCTAssertEqual(truncate(entry.path, 1 << 40), 0)
        assertDamage(
            try box.run(["show", id], timeout: Self.seconds), naming: entry, "is larger than \(16 << 20) bytes")
    }

    /// The machine's record of the vault (its witness) is not part of the vault: a FIFO or a
    /// huge file in place of its root is a warning, the command goes on, and the record is
    /// started again.
    func testFIFOOrHugeWitnessRootIsIgnoredWithAWarning() throws {
        let (box, _) = try filesVault("fifo-state")
        let witnessRoot = try XCTUnwrap(
            FileManager.default.subpaths(
                atPath: box.root.appendingPathComponent("home/.local/state/diary/witness").path)?
                .first { $0.hasSuffix("index-copy/vault.index") })
        let state = box.root.appendingPathComponent("home/.local/state/diary/witness/" + witnessRoot)
        try FileManager.default.removeItem(at: state)
        try fifo(state)
        defer { remove(state, before: box) }
        var result = try box.run(["list"], timeout: Self.seconds)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("record of \(box.vault.path) could not be read"), result.stderr)
        try? FileManager.default.removeItem(at: state)
        XCTAssertTrue(FileManager.default.createFile(atPath: state.path, contents: nil))
        XCTAssertEqual(truncate(state.path, 1 << 40), 0)
        result = try box.run(["list"], timeout: Self.seconds)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("could not be read"), result.stderr)
        XCTAssertTrue(try box.ok(["list"]).stderr.isEmpty, "the record was started again")
    }

    /// Mutated import files through the binary: each imports (0) or is refused (67), and
    /// never kills `diary` (a crash would end with another status, and Swift's "Fatal error").
    func testMutatedImportFilesEndWithStatus67Or0ThroughTheBinary() throws {
        let box = try DiarySandbox(name: "mutated-import")
        _ = try box.initVault()
        var g = SeededGenerator(seed: SeededGenerator.announcedSeed("mutated imports through the binary"))
        for round in 0..<50 {
            let (valid, format, name) =
                round % 2 == 0 ? (HostileInput.dayOneZip, "dayone", "m.zip") : (HostileInput.jrnlJSON, "jrnl", "m.json")
            let url = box.root.appendingPathComponent(name)
            try Data(HostileInput.mutate(valid, using: &g)).write(to: url)
            let result = try box.run(["import", "--from", format, url.path], timeout: Self.seconds)
            XCTAssertTrue(
                [0, 67].contains(result.status), "round \(round) (\(format)): \(result.status) \(result.stderr)")
            XCTAssertFalse(result.stderr.contains("Fatal error"), "round \(round): \(result.stderr)")
            if result.status == 67 { XCTAssertTrue(result.stderr.hasPrefix("diary: error: "), result.stderr) }
        }
    }
}

extension DiarySandbox {
    /// `run`, with the command killed after `timeout` seconds (status 124, from `timeout`).
    /// `timeout` is the direct parent of `diary`, so a hung `diary` is killed, not left behind.
    func run(_ args: [String], timeout: Int) throws -> DiaryResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", "/usr/bin/timeout", "-k", "2", String(timeout), DiarySandbox.binary.path] + args
        process.environment = fullEnvironment([:])
        process.currentDirectoryURL = root
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        nonisolated(unsafe) var out = Data(), err = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { out = outPipe.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = errPipe.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return DiaryResult(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }
}
