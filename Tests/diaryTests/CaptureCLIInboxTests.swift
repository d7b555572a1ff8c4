import Foundation
import XCTest

/// The capture inbox seen from the vault's commands: `verify` notes what it holds (capture
/// devices write there by design, so it is never the vault's damage).
final class CaptureCLIInboxTests: CaptureCLITestCase {
    func testVerifyNotesTheInboxAndFindsNoDamageInIt() throws {
        let fm = FileManager.default
        let device = String(repeating: "3a", count: 16)
        try fm.createDirectory(at: inbox, withIntermediateDirectories: true)
        try fm.createSymbolicLink(
            atPath: inbox.appendingPathComponent("\(device)-00000000000000000012.dcap").path,
            withDestinationPath: "/etc/passwd")
        try fm.createDirectory(
            at: inbox.appendingPathComponent("\(device)-00000000000000000014.dcap"), withIntermediateDirectories: true)
        try fm.createDirectory(at: inbox.appendingPathComponent("subdir"), withIntermediateDirectories: true)
        try Data("hi".utf8).write(to: inbox.appendingPathComponent("notanitem.txt"))
        try Data("junk".utf8).write(to: inbox.appendingPathComponent("\(device)-00000000000000000016.dcap"))
        try box.ok(["list"])  // moves the link, the directory and the junk file aside
        let verified = try box.run(["verify"])
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertEqual(verified.stdout, "")
        // Only a regular file set aside is a capture; the link and the directory are not.
        XCTAssertTrue(verified.stderr.contains("1 capture set aside in inbox/rejected/"), verified.stderr)
        XCTAssertTrue(verified.stderr.contains("4 unexpected files in inbox/"), verified.stderr)
        XCTAssertTrue(verified.stderr.contains("no damage"), verified.stderr)
        // A `rejected` that is a link is not followed: one unexpected file more.
        try fm.moveItem(at: inbox.appendingPathComponent("rejected"), to: box.root.appendingPathComponent("elsewhere"))
        try fm.createSymbolicLink(
            at: inbox.appendingPathComponent("rejected"),
            withDestinationURL: box.root.appendingPathComponent("elsewhere"))
        let linked = try box.run(["verify"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        // subdir, notanitem.txt and the link `rejected`
        XCTAssertTrue(linked.stderr.contains("3 unexpected files in inbox/"), linked.stderr)
        XCTAssertFalse(linked.stderr.contains("set aside"), linked.stderr)
    }

    func testAKeyThatCannotBeHandedOverEnrolsNothing() throws {
        let missing = box.root.appendingPathComponent("nowhere/k").path
        let failed = try box.run(["capture-key", "create", "o7", "--output", missing])
        XCTAssertNotEqual(failed.status, 0)
        let toNull = try runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" capture-key create null > /dev/null", DiarySandbox.binary.path],
            env: box.fullEnvironment([:]))
        XCTAssertEqual(toNull.status, 64, toNull.stderr)
        XCTAssertTrue(toNull.stderr.contains("neither a pipe nor a file"), toNull.stderr)
        // `>> phone.key`: a private file that holds something already is refused before enrolling.
        let held = device.appendingPathComponent("held.key").path
        XCTAssertTrue(FileManager.default.createFile(atPath: held, contents: Data("kept\n".utf8)))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: held)
        let appended = try runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec \"$0\" capture-key create appended >> \"$1\"",
                DiarySandbox.binary.path, held,
            ],
            env: box.fullEnvironment([:]))
        XCTAssertEqual(appended.status, 64, appended.stderr)
        XCTAssertTrue(appended.stderr.contains("not empty"), appended.stderr)
        XCTAssertEqual(try String(contentsOfFile: held, encoding: .utf8), "kept\n")
        // A reader gone before the key is written: EPIPE, not SIGPIPE; the device is withdrawn.
        let (status, stderr) = try createWritingToAClosedPipe("gone")
        XCTAssertEqual(status, 1, stderr)
        XCTAssertTrue(stderr.contains("diary: error: stdout: Broken pipe; the key was not handed over"), stderr)
        XCTAssertEqual(
            try box.ok(["capture-key", "list"]).stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1)
        let again = device.appendingPathComponent("o7.key").path
        try box.ok(["capture-key", "create", "o7", "--output", again])
        XCTAssertTrue(FileManager.default.fileExists(atPath: again), "the name is free again")
        try box.ok(["capture-key", "create", "gone", "--output", device.appendingPathComponent("gone.key").path])
    }

    /// `capture-key create NAME` with stdout a pipe whose reader is gone: status and stderr.
    private func createWritingToAClosedPipe(_ name: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = DiarySandbox.binary
        process.arguments = ["capture-key", "create", name]
        process.environment = box.fullEnvironment([:])
        let out = Pipe(), err = Pipe()
        try out.fileHandleForReading.close()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try out.fileHandleForWriting.close()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let signalled = process.terminationReason == .uncaughtSignal
        return (signalled ? 128 + process.terminationStatus : process.terminationStatus, stderr)
    }

    func testRevokeRefusesTheItemsThatWaitAndSaysTheStoredName() throws {
        XCTAssertEqual(try capture(["waiting in the inbox"]).status, 0)
        let revoked = try box.run(["capture-key", "revoke", "PHONE", "--yes"])
        XCTAssertEqual(revoked.status, 0, revoked.stderr)
        XCTAssertTrue(revoked.stderr.contains("revoked capture device phone"), revoked.stderr)
        XCTAssertTrue(revoked.stderr.contains("a revoked device"), revoked.stderr)
        XCTAssertFalse(revoked.stderr.contains("took in"), revoked.stderr)
        XCTAssertEqual(try box.listJSON().count, 0)
    }

    func testTheNextCaptureSaysWhereAKilledCaptureLeftItsText() throws {
        let keyText = try String(contentsOfFile: key, encoding: .utf8)
        let vaultLine = keyText.split(separator: "\n").first { $0.hasPrefix("vault ") }!
        // As a `capture --edit` killed by SIGKILL leaves it: a dead pid's directory in memory.
        let deviceLine = keyText.split(separator: "\n").first { $0.hasPrefix("device ") }!
        let device = try XCTUnwrap(deviceLine.split(separator: " ").last)
        func leave(_ name: String, owner: String) throws -> URL {
            let left = box.runtime.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: left, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: left.path)
            try Data(owner.utf8).write(to: left.appendingPathComponent("owner"))
            try Data("EDITORSECRET\n".utf8).write(to: left.appendingPathComponent("entry.txt"))
            return left
        }
        let left = try leave("diary-edit-4194000-1-abcdef", owner: "\(vaultLine)\ncapture \(device)\n")
        // A killed `diary edit` and a `diary new`: the vault's, for `diary recover`, not capture's.
        let edit = try leave(
            "diary-edit-4194001-1-abcdef", owner: "\(vaultLine)\nentry 8c1f0a52-0e5c-4f0b-9d5e-2a9a8f0b1c11\n")
        let new = try leave("diary-edit-4194002-1-abcdef", owner: "\(vaultLine)\n")
        let next = try capture(["next"])
        XCTAssertEqual(next.status, 0, next.stderr)
        let lines = next.stderr.components(separatedBy: "\n").filter { $0.contains(left.path + "/entry.txt") }
        XCTAssertEqual(lines.count, 2, next.stderr)
        XCTAssertFalse(next.stderr.contains(edit.path) || next.stderr.contains(new.path), next.stderr)
        XCTAssertTrue(next.stderr.contains("in memory"), next.stderr)
        XCTAssertFalse(next.stderr.contains("EDITORSECRET"))
    }

    func testAnUnknownDevicesItemIsMovedAsideInAVaultThatDoesNotSync() throws {
        XCTAssertEqual(try capture(["a real one"]).status, 0)
        let real = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: inbox.path).first { $0.hasSuffix(".dcap") })
        var bytes = [UInt8](try Data(contentsOf: inbox.appendingPathComponent(real)))
        bytes.replaceSubrange(25..<41, with: [UInt8](repeating: 0x3a, count: 16))
        let forged = String(repeating: "3a", count: 16) + real.dropFirst(32)
        try Data(bytes).write(to: inbox.appendingPathComponent(forged))
        let listed = try box.ok(["list"])
        XCTAssertTrue(listed.stderr.contains("took in 1 captured entry from phone"), listed.stderr)
        XCTAssertTrue(
            listed.stderr.contains(
                "moved aside a capture from a device this vault does not know: inbox/rejected/\(forged)"),
            listed.stderr)
        XCTAssertFalse(try box.ok(["list"]).stderr.contains("does not know"), "said once, not again")
    }

    func testShowAndTheExportsSayWhichDeviceAnEntryCameFrom() throws {
        XCTAssertEqual(try capture(["Saw a heron"]).status, 0)
        let id = try box.listJSON()[0]["id"] as! String
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("capture device phone"))
        for format in ["markdown", "html"] {
            let exported = try box.ok(["export", "--format", format, "--yes"]).stdout
            XCTAssertTrue(exported.contains("from capture device phone"), format)
        }
        try box.ok(["new", "by hand"])
        let byHand = try box.listJSON().first { ($0["title"] as? String) == "by hand" }!["id"] as! String
        XCTAssertFalse(try box.ok(["show", byHand]).stdout.contains("capture device"))
    }

    func testANameWithANewlineIsEscapedInTheError() throws {
        let refused = try box.run([
            "capture-key", "create", "a\nb", "--output", device.appendingPathComponent("x").path,
        ])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("'a\\nb' cannot name a capture device"), refused.stderr)
    }
}
