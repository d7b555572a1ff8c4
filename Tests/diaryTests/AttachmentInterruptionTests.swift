import Foundation
import XCTest

/// An attach killed while it seals (SIGKILL: no cleanup runs) or stopped by a full disk loses
/// nothing: the vault opens and verifies, every entry reads back, the entry has no half
/// attachment, and the next attach works. In the sqlite store the first attach also creates
/// the attachment table (schema version 3): a kill then leaves version 2 or 3, never a mix.
final class AttachmentInterruptionTests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "attach-kill") }
    override func tearDown() { box = nil }

    /// A 3 GiB sparse file: reading it costs nothing, sealing it takes seconds.
    private func largeFile() throws -> String {
        let path = box.root.appendingPathComponent("large.bin").path
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1])))
        XCTAssertEqual(truncate(path, 3 << 30), 0)
        return path
    }

    /// Bytes written so far by the attach: the staged file (files) or the write-ahead log (sqlite).
    private func bytesInFlight(_ vault: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: vault.path)) ?? []
        return names.filter { $0.hasPrefix(".tmp-") || $0.hasSuffix("-wal") }.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: vault.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? Int) ?? 0)
        }
    }

    func testAnAttachKilledWhileSealingLosesNothingInBothStores() throws {
        let large = try largeFile()
        for store in ["sqlite", "files"] {
            let vault = box.root.appendingPathComponent("vault-\(store)")
            box.environment["DIARY_VAULT"] = vault.path
            _ = try box.initVault(store: store)
            let kept = try box.ok(["new", "Kept entry\nwith its text"]).out
            let target = try box.ok(["new", "Gets a file"]).out

            let process = Process()
            process.executableURL = DiarySandbox.binary
            process.arguments = ["attach", target, large]
            process.environment = box.fullEnvironment([:])
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            process.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while bytesInFlight(vault) < 8 << 20 && process.isRunning && Date() < deadline { usleep(20_000) }
            XCTAssertTrue(process.isRunning, "the attach ended before it could be killed (\(store))")
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)

            XCTAssertEqual(try box.run(["verify"]).status, 0, store)
            XCTAssertTrue(try box.ok(["show", kept]).out.contains("with its text"), store)
            let entries = try box.listJSON()
            XCTAssertEqual(entries.count, 2)
            for entry in entries { XCTAssertEqual((entry["attachments"] as? [Any])?.count, 0, store) }
            let small = box.root.appendingPathComponent("small.txt").path
            try Data("after the kill\n".utf8).write(to: URL(fileURLWithPath: small))
            _ = try box.ok(["attach", target, small])
            let out = box.root.appendingPathComponent("out-\(store).txt").path
            _ = try box.ok(["extract", target, "small.txt", "-o", out, "--yes"])
            XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "after the kill\n")
        }
    }

    func testAnAttachThatFillsTheDiskStoresNothingAndLeavesNoTemporaryFile() throws {
        let disk = box.root.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=2m", "tmpfs", disk])
        guard mount.status == 0 else { throw XCTSkip("cannot mount a small tmpfs (needs root): \(mount.stderr)") }
        defer { _ = try? runProgram(URL(fileURLWithPath: "/bin/umount"), [disk]) }
        let file = box.root.appendingPathComponent("photo.bin").path
        try Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: file))
        for store in ["sqlite", "files"] {
            let vault = URL(fileURLWithPath: disk).appendingPathComponent("vault-\(store)")
            box.environment["DIARY_VAULT"] = vault.path
            _ = try box.initVault(store: store)
            let id = try box.ok(["new", "Room for text only"]).out
            let failed = try box.run(["attach", id, file])
            XCTAssertNotEqual(failed.status, 0, store)
            XCTAssertTrue(failed.stderr.lowercased().contains("no space left on device"), failed.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: vault.path)
            XCTAssertFalse(names.contains { $0.hasPrefix(".tmp-") }, "\(store): \(names)")
            XCTAssertEqual((try box.listJSON().first?["attachments"] as? [Any])?.count, 0, store)
            XCTAssertEqual(try box.run(["verify"]).status, 0, store)
            try FileManager.default.removeItem(at: vault)
        }
    }
}
