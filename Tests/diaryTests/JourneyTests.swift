import DiaryStore
import Foundation
import XCTest

/// The whole user journey through the built binary, once per store: init → unlock → new
/// (argument, stdin, scripted editor) → list → show → edit → star → tag → search → delete →
/// passwd → backup → verify → restore → lock.
final class JourneyTests: XCTestCase {
    func testJourneyWithSQLiteStore() throws { try journey(store: "sqlite") }

    func testJourneyWithFilesStore() throws { try journey(store: "files") }

    private func journey(store: String) throws {
        let box = try DiarySandbox(name: "journey-\(store)")
        let oldPass = try box.initVault(store: store, passphrase: "old passphrase")
        // Unlock, then work without any passphrase source.
        try box.ok(["unlock", "--passphrase-file", oldPass])
        box.environment["DIARY_PASSPHRASE_FILE"] = ""

        let first = try box.ok(["new", "Lake walk\nCold water, warm sun.", "--date", "2024-02-20", "--tag", "walks"])
            .out
        XCTAssertNotNil(UUID(uuidString: first), "new prints the full UUID alone: \(first)")
        let second = try box.ok(["new", "--date", "2024-02-21"], stdin: Data("From stdin\nPiped text.\n".utf8)).out
        let editor = try box.script("printf 'Written in the editor\\nWith a body.\\n' > \"$1\"")
        // stdin is not a terminal here, so --edit is what sends `new` to the editor.
        let third = try box.ok(["new", "--edit", "--date", "2024-02-22T09:30"], env: ["EDITOR": editor]).out
        XCTAssertEqual(Set([first, second, third]).count, 3)

        // list: newest first by entry date.
        let titles = try box.listJSON().map { $0["title"] as? String }
        XCTAssertEqual(titles, ["Written in the editor", "From stdin", "Lake walk"])
        let lines = try box.ok(["list"]).out.split(separator: "\n")
        guard lines.count == 3 else { return XCTFail("three lines expected: \(lines)") }
        XCTAssertTrue(lines[2].hasPrefix(String(first.prefix(8))), "short id first: \(lines[2])")
        XCTAssertTrue(lines[2].contains("#walks"))

        // show by prefix; JSON includes the text.
        let shown = try box.ok(["show", String(first.prefix(6)), "--json"]).stdout
        let object = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
        XCTAssertEqual(object?["text"] as? String, "Lake walk\nCold water, warm sun.")
        XCTAssertEqual(object?["id"] as? String, first)
        XCTAssertTrue(try box.ok(["show", String(first.prefix(8))]).stdout.contains("Cold water, warm sun."))

        // edit through a scripted editor.
        let rewrite = try box.script("printf 'Lake walk\\nIce on the shore.\\n' > \"$1\"", name: "rewrite.sh")
        try box.ok(["edit", String(first.prefix(8))], env: ["EDITOR": rewrite])
        XCTAssertTrue(try box.ok(["show", first]).stdout.contains("Ice on the shore."))

        // star, tag, search.
        try box.ok(["star", String(second.prefix(8))])
        XCTAssertEqual(try box.listJSON(["--starred"]).map { $0["id"] as? String }, [second])
        try box.ok(["tag", String(second.prefix(8)), "+pipes", "+misc", "-misc"])
        XCTAssertEqual(try box.listJSON(["--tag", "pipes"]).first?["tags"] as? [String], ["pipes"])
        let found = try box.ok(["search", "ICE ON", "--json"]).stdout
        XCTAssertTrue(found.contains(first) && !found.contains(second), found)

        // delete (non-interactive needs --yes).
        try box.ok(["delete", String(third.prefix(8)), "--yes"])
        XCTAssertEqual(try box.listJSON().count, 2)

        // passwd always asks for the current passphrase; the session goes on.
        let newPass = try box.passphraseFile("new passphrase")
        try box.ok(["passwd", "--passphrase-file", oldPass, "--new-passphrase-file", newPass])
        XCTAssertEqual(try box.listJSON().count, 2, "the session survives passwd")

        // backup, verify the vault and the backup, restore.
        let backup = box.root.appendingPathComponent("b.diarybak").path
        XCTAssertEqual(try box.ok(["backup", backup]).out, backup)
        try box.ok(["verify"])
        try box.ok(["verify", backup, "--passphrase-file", newPass])
        let restored = box.root.appendingPathComponent("restored").path
        try box.ok(["restore", backup, "--to", restored, "--passphrase-file", newPass])

        // lock: now everything needs the passphrase again.
        let before = try box.ok(["list", "--json"]).stdout
        try box.ok(["lock"])
        let locked = try box.run(["list"])
        XCTAssertEqual(locked.status, 75, locked.stderr)
        XCTAssertTrue(locked.stderr.contains("diary: error: the vault is locked"))
        XCTAssertTrue(locked.stderr.contains("diary: hint: run `diary unlock`, or pass --passphrase-file"))
        XCTAssertEqual(try box.run(["list", "--passphrase-file", oldPass]).status, 77, "old passphrase is gone")
        XCTAssertEqual(try box.ok(["list", "--json", "--passphrase-file", newPass]).stdout, before)

        // The restored vault opens with the new passphrase and holds the same entries.
        let restoredList = try box.ok(["list", "--json", "--vault", restored, "--passphrase-file", newPass]).stdout
        XCTAssertEqual(restoredList, before)
        XCTAssertEqual(try box.run(["list", "--vault", restored, "--passphrase-file", oldPass]).status, 77)
    }
}
