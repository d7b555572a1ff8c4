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
            result.stderr.contains("your text was not stored, and is kept in \(leftovers.first ?? "?")"), result.stderr,
            file: file,
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
    /// The adversarial review's case: an edit fails and is kept, the disk is freed, the entry is
    /// edited and tagged again; `recover` must not put the older text back over the later edit.
    func testRecoverNeverReplacesAnEntryChangedSinceTheEditBegan() throws {
        _ = try box.initVault(store: "files")
        let id = try box.ok(["new", "Canal notes\nfirst paragraph"]).out
        let short = String(id.prefix(8))
        let failing = try fillingEditor("Canal notes\\nfirst paragraph\\n\\nthe failed paragraph")
        try assertKept(try box.run(["edit", short], env: ["EDITOR": failing]))
        try freeTheDisk()
        let appending = try box.script("printf 'the later paragraph\\n' >> \"$1\"\nexit 0", name: "append.sh")
        try box.ok(["edit", short], env: ["EDITOR": appending])
        try box.ok(["tag", short, "+later"])

        let recovered = try box.ok(["recover"])
        let added = recovered.out
        XCTAssertNotEqual(added, id, "the kept text becomes an entry of its own")
        XCTAssertTrue(recovered.stderr.contains("changed since the edit began"), recovered.stderr)
        XCTAssertTrue(recovered.stderr.contains("as new entry \(added.prefix(8))"), recovered.stderr)
        let original = try box.ok(["show", id]).stdout
        XCTAssertTrue(original.contains("the later paragraph"), original)
        XCTAssertFalse(original.contains("the failed paragraph"), original)
        XCTAssertTrue(try box.ok(["show", added]).stdout.contains("the failed paragraph"))
        XCTAssertEqual(try box.editorLeftovers(), [])
    }

    /// Text piped to `new` (or given as words) that cannot be stored is kept like an editor's.
    func testPipedAndTypedTextThatCannotBeSavedIsKeptThenRecovered() throws {
        // A files vault opens on a full disk and fails as it writes (sqlite fails already to open).
        _ = try box.initVault(store: "files")
        _ = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "dd if=/dev/zero of='\(disk)/filler' bs=4k"])
        let piped = try box.run(["new", "--tag", "p"], stdin: Data("piped precious\n".utf8))
        try assertKept(piped)
        try freeTheDisk()
        let recovered = try box.ok(["recover"])
        let entry = try XCTUnwrap(try box.listJSON().first)
        XCTAssertEqual(entry["id"] as? String, recovered.out)
        XCTAssertEqual(entry["title"] as? String, "piped precious")
        XCTAssertEqual(entry["tags"] as? [String], ["p"])

        _ = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "dd if=/dev/zero of='\(disk)/filler' bs=4k"])
        let typed = try box.run(["new", "typed", "words"])
        try assertKept(typed)
        XCTAssertTrue(typed.stderr.contains("was not stored"), typed.stderr)
    }

    /// Both stores word a full disk alike, also where SQLite fails to open on it.
    func testAFullDiskReadsTheSameInBothStores() throws {
        _ = try box.initVault(store: "sqlite")
        _ = try runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", "dd if=/dev/zero of='\(disk)/filler' bs=4k"])
        let full = try box.run(["new", "words"])
        XCTAssertNotEqual(full.status, 0)
        XCTAssertTrue(full.stderr.contains("No space left on device"), full.stderr)
    }

    /// `recover` on a disk still full says the text is still kept, and where.
    func testRecoverOnAFullDiskSaysTheTextIsStillKept() throws {
        _ = try box.initVault(store: "files")
        let failed = try box.run(["new", "--edit"], env: ["EDITOR": try fillingEditor("Still here")])
        try assertKept(failed)
        let again = try box.run(["recover"])
        try assertKept(again)
        XCTAssertEqual(try box.editorLeftovers().count, 1)
    }
}
