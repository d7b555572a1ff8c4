import Foundation
import XCTest

/// An export that does not finish leaves no plaintext: one killed by a signal removes the
/// file, the attachments folder and its temporary files; a Markdown directory export stopped
/// by a damaged attachment removes the entry files already written. Neither leaves anything
/// that would refuse the next export (status 73).
final class ExportCleanupCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "export-cleanup") }
    override func tearDown() { box = nil }

    /// Every regular file under `directory`, with its size.
    private func files(under directory: URL) -> [String: Int] {
        var found: [String: Int] = [:]
        guard let walker = FileManager.default.enumerator(atPath: directory.path) else { return found }
        while let name = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular {
                found[name] = walker.fileAttributes?[.size] as? Int ?? 0
            }
        }
        return found
    }

    func testAnExportKilledBySignalLeavesNothing() throws {
        try box.initVault(store: "files")
        // 64 MiB (a sparse file: cheap to read), so the export is caught while writing it.
        let large = box.root.appendingPathComponent("large.bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: large, contents: Data([1])))
        XCTAssertEqual(truncate(large, 64 << 20), 0)
        try box.ok(["new", "--attach", large, "Big"])
        // JSON, a Markdown document, a Markdown directory (which the export creates).
        for (format, target, folder) in [
            ("json", "e.json", "e.attachments/"), ("markdown", "doc.md", "doc.attachments/"),
            ("markdown", "md/", "md/attachments/"),
        ] {
            let out = box.root.appendingPathComponent("out-" + format + "-" + target.prefix(2))
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
            let args = ["export", "--format", format, "-o", out.path + "/" + target, "--yes"]
            for sig in [SIGTERM, SIGHUP, SIGINT] {
                try interrupt(args, with: sig, whenWritingUnder: out)
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path), [], "\(target) \(sig)")
            }
            // Nothing left to refuse the next export.
            try box.ok(args)
            let written = files(under: out)
            XCTAssertEqual(written.filter { $0.key.hasPrefix(folder) && $0.value == 64 << 20 }.count, 1, "\(written)")
        }
    }

    /// Runs `diary args`, and sends it `sig` once decrypted attachment bytes are on disk under
    /// `out` (the moment the reviewer's export was killed); waits for it to die of it.
    private func interrupt(_ args: [String], with sig: Int32, whenWritingUnder out: URL) throws {
        let process = Process()
        process.executableURL = DiarySandbox.binary
        process.arguments = args
        process.environment = box.fullEnvironment([:])
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        func writing() -> Bool {
            files(under: out).contains { $0.key.contains("/.tmp-") && $0.value > 0 }
        }
        while !writing() && process.isRunning && Date() < deadline { usleep(1000) }
        // Stopped at once, so the export cannot end before the signal arrives.
        kill(process.processIdentifier, SIGSTOP)
        XCTAssertTrue(writing(), "the export ended before it could be stopped (\(args) \(sig))")
        kill(process.processIdentifier, sig)
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal)
        XCTAssertEqual(process.terminationStatus, sig)
    }

    func testAMarkdownDirectoryExportStoppedByADamagedAttachmentLeavesNothing() throws {
        try box.initVault(store: "files")
        let note = box.root.appendingPathComponent("note.txt")
        try Data("hello\n".utf8).write(to: note)
        try box.ok(["new", "--attach", note.path, "With", "--date", "2024-01-01"])
        // The newest: its file is written before the damaged attachment is reached.
        try box.ok(["new", "Plain", "--date", "2024-01-02"])
        let objects = box.vault.appendingPathComponent("attachments")
        for name in try FileManager.default.contentsOfDirectory(atPath: objects.path) {
            let url = objects.appendingPathComponent(name)
            var stored = try Array(Data(contentsOf: url))
            stored[stored.count - 40] ^= 0x01
            try Data(stored).write(to: url)
        }
        let dir = box.root.appendingPathComponent("md").path + "/"
        for _ in 0..<2 {
            let failed = try box.run(["export", "--format", "markdown", "-o", dir, "--yes"])
            XCTAssertEqual(failed.status, 65, failed.stderr)
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: dir), "left: \(files(under: URL(fileURLWithPath: dir)))")
        }
        // A directory that was there stays, empty as it was.
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        let again = try box.run(["export", "--format", "markdown", "-o", dir, "--yes"])
        XCTAssertEqual(again.status, 65, again.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }
}
