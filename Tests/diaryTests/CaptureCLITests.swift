import Foundation
import XCTest

/// Write-only capture through the binary: `capture-key create`, `capture` from a directory that
/// holds only the key, and the next command taking the item in exactly once; replays, revoked
/// devices and hostile items moved aside and said once.
final class CaptureCLITests: CaptureCLITestCase {
    private func items(_ directory: URL? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: (directory ?? inbox).path)) ?? []).filter {
            $0.hasSuffix(".dcap")
        }.sorted()
    }

    func testACaptureArrivesOnceAsAnOrdinaryEntryAndLeavesNoPlaintext() throws {
        let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
        let sent = try capture(["--tag", "lake", "Saw a heron at dawn #birds"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertEqual(sent.stdout, "", "stdout carries data only")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: device.path), ["phone.key"])
        let names = items()
        XCTAssertEqual(names.count, 1)
        let item = try Data(contentsOf: inbox.appendingPathComponent(names[0]))
        for word in ["heron", "birds", "lake"] {
            XCTAssertNil(item.range(of: Data(word.utf8)), "the item does not hold '\(word)'")
        }
        let keyText = try String(contentsOfFile: key, encoding: .utf8)
        XCTAssertTrue(keyText.contains("counter 1\n"), "the counter was written back")
        XCTAssertFalse(keyText.contains("heron"))

        let listed = try box.ok(["list", "--json"])
        XCTAssertTrue(listed.stderr.contains("took in 1 captured entry from phone"), listed.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["title"] as? String, "Saw a heron at dawn #birds")
        XCTAssertEqual(rows.first?["source"] as? String, "capture:phone")
        XCTAssertEqual(rows.first?["tags"] as? [String], ["birds", "lake"])
        XCTAssertEqual(items(), [], "the item is removed")
        let again = try box.ok(["list", "--json"])
        XCTAssertFalse(again.stderr.contains("took in"), "exactly once")
        XCTAssertEqual(try box.listJSON().count, 1)
        XCTAssertTrue(try box.ok(["verify"]).stderr.contains("1 entry and 1 capture device"))
    }

    func testACopiedBackItemIsMovedAsideAndSaidOnce() throws {
        XCTAssertEqual(try capture(["first"]).status, 0)
        let name = items()[0]
        let bytes = try Data(contentsOf: inbox.appendingPathComponent(name))
        try box.ok(["list"])
        // Its entry still here: a take-in stopped before the removal, removed without a word.
        try bytes.write(to: inbox.appendingPathComponent(name))
        let quiet = try box.ok(["list"])
        XCTAssertFalse(quiet.stderr.contains("moved aside") || quiet.stderr.contains("took in"), quiet.stderr)
        XCTAssertEqual(items(), [])
        let id = try XCTUnwrap(try box.listJSON().first?["id"] as? String)
        try box.ok(["delete", id, "--yes"])
        try bytes.write(to: inbox.appendingPathComponent(name))
        let replayed = try box.ok(["list"])
        XCTAssertTrue(
            replayed.stderr.contains("moved aside a replayed capture from phone (number 1): inbox/rejected/\(name)"),
            replayed.stderr)
        XCTAssertEqual(items(inbox.appendingPathComponent("rejected")), [name])
        XCTAssertFalse(try box.ok(["list"]).stderr.contains("moved aside"), "said once")
        XCTAssertEqual(try box.listJSON().count, 0, "not stored again")
        XCTAssertEqual(try box.ok(["verify"]).status, 0, "a rejected item is not damage")
    }

    func testARevokedDevicesCaptureIsRefused() throws {
        XCTAssertEqual(try capture(["before"]).status, 0)
        try box.ok(["list"])  // taken in before the revocation (one still waiting then is refused)
        try box.ok(["capture-key", "revoke", "phone", "--yes"])
        XCTAssertEqual(try capture(["after"]).status, 0, "the device cannot know it was revoked")
        let result = try box.ok(["list"])
        XCTAssertTrue(result.stderr.contains("a revoked device (number 2)"), result.stderr)
        XCTAssertEqual(try box.listJSON().count, 1, "the capture from before the revocation arrived")
        let listed = try box.ok(["capture-key", "list", "--json"]).stdout
        XCTAssertTrue(listed.contains("\"revoked\""), listed)
    }

    func testHostileItemsAreRefusedWithoutHarm() throws {
        XCTAssertEqual(try capture(["kept"]).status, 0)
        let name = items()[0]
        let good = try Data(contentsOf: inbox.appendingPathComponent(name))
        // Numbered 8 in its header (bound into the seal): it no longer opens.
        var tampered = good
        tampered[48] = 8
        let prefix = String(name.prefix(32)) + "-"
        let hostile: [(String, Data)] = [
            (prefix + "00000000000000000007.dcap", good.prefix(80)),
            (prefix + "00000000000000000008.dcap", tampered),
            (prefix + "00000000000000000009.dcap", Data(count: 10 << 20)),
        ]
        for (hostileName, bytes) in hostile { try bytes.write(to: inbox.appendingPathComponent(hostileName)) }
        let other = try DiarySandbox(name: "capture-other")
        _ = try other.initVault()
        let otherKey = device.appendingPathComponent("other.key").path
        try other.ok(["capture-key", "create", "laptop", "--output", otherKey])
        let refused = try box.run(["capture", "--key", otherKey, "--to", box.vault.path, "wrong vault"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("the capture key is for vault"), refused.stderr)
        XCTAssertEqual(try other.ok(["capture", "--key", otherKey, "--to", other.vault.path, "theirs"]).status, 0)
        let foreign = try XCTUnwrap(items(other.vault.appendingPathComponent("inbox")).first)
        try FileManager.default.copyItem(
            at: other.vault.appendingPathComponent("inbox/\(foreign)"), to: inbox.appendingPathComponent(foreign))

        let result = try box.ok(["list"])
        XCTAssertTrue(result.stderr.contains("took in 1 captured entry from phone"), result.stderr)
        for said in ["(truncated)", "(does not open", "(larger than any item)", "a capture for another vault"] {
            XCTAssertTrue(result.stderr.contains(said), "\(said): \(result.stderr)")
        }
        XCTAssertEqual(items(), [])
        XCTAssertEqual(items(inbox.appendingPathComponent("rejected")).count, 4)
        XCTAssertEqual(try box.listJSON().count, 1)
        XCTAssertEqual(try box.ok(["verify"]).status, 0)
    }

    func testWhereAKeyGoesAndWhereACaptureGoesAreChecked() throws {
        let existing = try box.run(["capture-key", "create", "laptop", "--output", key])
        XCTAssertEqual(existing.status, 73, existing.stderr)
        XCTAssertTrue(try box.ok(["capture-key", "list"]).stdout.hasPrefix("phone  enrolled"))
        XCTAssertEqual(try box.run(["capture-key", "create", "PHONE", "--output", key + "2"]).status, 1)
        let piped = try box.ok(["capture-key", "create", "cron"])
        XCTAssertTrue(piped.stdout.hasPrefix("# diary capture key"), "a pipe gets the key")
        let shared = box.root.appendingPathComponent("shared.key")
        FileManager.default.createFile(atPath: shared.path, contents: nil, attributes: [.posixPermissions: 0o644])
        let redirected = Process()
        redirected.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        redirected.arguments = ["-w", DiarySandbox.binary.path, "capture-key", "create", "desk"]
        redirected.environment = box.fullEnvironment([:])
        redirected.standardOutput = try FileHandle(forWritingTo: shared)
        redirected.standardError = FileHandle.nullDevice
        try redirected.run()
        redirected.waitUntilExit()
        XCTAssertEqual(redirected.terminationStatus, 64, "a key is never written into a file others can read")
        XCTAssertEqual(try Data(contentsOf: shared).count, 0)
        XCTAssertEqual(try box.run(["capture", "--key", key, "--to", "server:diary.git", "text"]).status, 64)
        let notAVault = try box.run(["capture", "--key", key, "--to", device.path, "text"])
        XCTAssertEqual(notAVault.status, 66, notAVault.stderr)
        XCTAssertEqual(try box.run(["capture", "--key", key, "--to", "ssh://host/diary", "text"]).status, 64)
        XCTAssertEqual(try box.run(["capture", "--key", key, "--to", box.vault.path, " "]).status, 1, "blank text")
        XCTAssertTrue(try String(contentsOfFile: key, encoding: .utf8).contains("counter 0\n"), "no number spent")
        let fromStdin = try capture([], stdin: Data("piped in\n".utf8))
        XCTAssertEqual(fromStdin.status, 0, fromStdin.stderr)
        XCTAssertEqual(try box.listJSON().map { $0["title"] as? String }, ["piped in"])
    }

    func testTheEditorWritesInMemoryAndCapturesRunAtOnceGetTheirOwnNumbers() throws {
        let ownerCopy = box.root.appendingPathComponent("owner-seen").path
        let editor = try box.script(
            "printf 'from the editor #pen\\n' > \"$1\"; cp \"$(dirname \"$1\")/owner\" '\(ownerCopy)'")
        let edited = try box.run(
            ["capture", "--key", key, "--to", box.vault.path, "--edit"], env: ["EDITOR": editor])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        // Marked as a capture's, so only `capture` reports it should it be left behind.
        let device = try XCTUnwrap(
            try String(contentsOfFile: key, encoding: .utf8).split(separator: "\n").first { $0.hasPrefix("device ") })
        XCTAssertTrue(
            try String(contentsOfFile: ownerCopy, encoding: .utf8).contains("capture " + device.dropFirst(7) + "\n"))
        XCTAssertEqual(try box.editorLeftovers(), [], "the editor's file is wiped")
        let group = DispatchGroup()
        // Each run only reads the sandbox's settings; the processes race on the key file.
        nonisolated(unsafe) let sandbox = box!
        let arguments = ["capture", "--key", key, "--to", box.vault.path]
        for i in 0..<4 {
            DispatchQueue.global().async(group: group) { _ = try? sandbox.run(arguments + ["at once \(i)"]) }
        }
        group.wait()
        XCTAssertEqual(items().count, 5, "five numbers, none shared: \(items())")
        XCTAssertTrue(try String(contentsOfFile: key, encoding: .utf8).contains("counter 5\n"))
        let titles = try box.listJSON().compactMap { $0["title"] as? String }
        XCTAssertEqual(titles.count, 5)
        XCTAssertTrue(titles.contains("from the editor #pen"), "\(titles)")
    }
}
