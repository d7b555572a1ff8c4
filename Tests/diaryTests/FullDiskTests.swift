import Foundation
import XCTest

/// A save that fails (here: the vault's disk is full) exits non-zero, keeps the text the user
/// wrote in memory, says so and how to get it back, and `diary recover` stores it once there
/// is room: for `new` with its date, tags and star, for `edit` with its added paragraph.
final class FullDiskTests: XCTestCase {
    private var box: DiarySandbox!
    private var disk = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "full-disk")
        disk = box.root.appendingPathComponent("disk").path
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // A small tmpfs of its own holds the vault (we run as root in CI; elsewhere, skip).
        let mount = try runProgram(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=1m", "tmpfs", disk])
        guard mount.status == 0 else {
            throw XCTSkip("cannot mount a small tmpfs to fill (needs root): \(mount.stderr)")
        }
        box.environment["DIARY_VAULT"] = disk + "/vault"
    }

    override func tearDownWithError() throws {
        if !disk.isEmpty { _ = try? runProgram(URL(fileURLWithPath: "/bin/umount"), [disk]) }
        box = nil
    }

    /// An editor that writes `text`, then fills the vault's disk to the last block.
    private func fillingEditor(_ text: String) throws -> String {
        try box.script(
            """
            printf '\(text)\\n' > "$1"
            dd if=/dev/zero of='\(disk)/filler' bs=4k 2>/dev/null
            exit 0
            """, name: "filling-\(UUID().uuidString.prefix(6)).sh")
    }

    private func freeTheDisk() throws {
        try FileManager.default.removeItem(atPath: disk + "/filler")
    }

    private func assertKept(_ result: DiaryResult, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNotEqual(result.status, 0, result.stderr, file: file, line: line)
        XCTAssertTrue(
            result.stderr.lowercased().contains("no space left on device"), result.stderr, file: file, line: line)
        let leftovers = try box.editorLeftovers()
        XCTAssertEqual(leftovers.count, 1, file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains("your text is kept in \(leftovers.first ?? "?")"), result.stderr, file: file,
            line: line)
        XCTAssertTrue(result.stderr.contains("`diary recover` stores it"), result.stderr, file: file, line: line)
    }

    func testANewEntryThatCannotBeSavedIsKeptThenRecoveredWithItsDateTagsAndStar() throws {
        _ = try box.initVault(store: "sqlite")
        let editor = try fillingEditor("Heron by the canal\\nseen from the #home window")
        let failed = try box.run(
            ["new", "--edit", "--date", "2024-11-24T21:00", "--tag", "walks", "--star"], env: ["EDITOR": editor])
        try assertKept(failed)
        try freeTheDisk()

        let recovered = try box.ok(["recover"])
        let entries = try box.listJSON()
        XCTAssertEqual(entries.count, 1)
        let entry = try XCTUnwrap(entries.first)
        XCTAssertEqual(entry["id"] as? String, recovered.out)
        XCTAssertEqual(entry["title"] as? String, "Heron by the canal")
        XCTAssertEqual(entry["date"] as? String, "2024-11-24T21:00:00Z")
        XCTAssertEqual(entry["tags"] as? [String], ["home", "walks"])
        XCTAssertEqual(entry["starred"] as? Bool, true)
        XCTAssertEqual(try box.editorLeftovers(), [], "recover wipes the directory")
    }

    func testAnEditThatCannotBeSavedIsKeptThenRecovered() throws {
        _ = try box.initVault(store: "files")
        let id = try box.ok(["new", "Canal notes\nfirst paragraph"]).out
        let editor = try fillingEditor("Canal notes\\nfirst paragraph\\n\\nan added paragraph")
        let failed = try box.run(["edit", String(id.prefix(8))], env: ["EDITOR": editor])
        try assertKept(failed)
        XCTAssertFalse(try box.ok(["show", id]).stdout.contains("added paragraph"), "the save failed")
        try freeTheDisk()

        XCTAssertEqual(try box.ok(["recover"]).out, id)
        XCTAssertTrue(try box.ok(["show", id]).stdout.contains("an added paragraph"))
        XCTAssertEqual(try box.editorLeftovers(), [])
    }
}
