import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

/// docs/GUIDE.md's bad-input table: each case gets a clear message, its documented exit code, and
/// leaves the vault exactly as it was (same listing, same texts).
final class BadInputTests: XCTestCase {
    private var box: DiarySandbox!
    private var entryID = ""

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "bad")
        _ = try box.initVault()
        entryID = try box.ok(["new", "First entry\nwith a body", "--tag", "keep"]).out
    }

    override func tearDown() { box = nil }

    /// A snapshot that changes if any entry, flag, tag or text changes.
    private func snapshot() throws -> String {
        let list = try box.ok(["list", "--json"]).stdout
        // Texts too, except for the hundreds of entries of the ambiguous-prefix case, where the
        // listing (with modified dates, stars and tags) already shows any write.
        let ids = try box.listJSON().compactMap { $0["id"] as? String }
        let texts = ids.count > 20 ? [] : try ids.map { try box.ok(["show", $0, "--json"]).stdout }
        return list + texts.joined()
    }

    private func assertRefused(
        _ args: [String], stdin: Data? = nil, env: [String: String] = [:], status: Int32, message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = try snapshot()
        let result = try box.run(args, stdin: stdin, env: env)
        XCTAssertEqual(result.status, status, "status of diary \(args): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains("diary: error: "), "error prefix: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(
            result.stderr.contains(message), "message '\(message)' in: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", "nothing on stdout", file: file, line: line)
        XCTAssertEqual(try snapshot(), before, "the vault is unchanged", file: file, line: line)
    }

    /// Keys: a wrong passphrase is 77; no terminal and no passphrase source is 75, with a hint.
    func testWrongPassphraseExits77AndLockedWithoutASourceExits75() throws {
        let wrong = try box.passphraseFile("not it")
        try assertRefused(["list", "--passphrase-file", wrong], status: 77, message: "wrong passphrase")
        let result = try box.run(["list"], env: ["DIARY_PASSPHRASE_FILE": ""])
        XCTAssertEqual(result.status, 75)
        XCTAssertTrue(result.stderr.contains("the vault is locked"))
        XCTAssertTrue(result.stderr.contains("diary: hint: run `diary unlock`, or pass --passphrase-file"))
        try assertRefused(["new", "text"], env: ["DIARY_PASSPHRASE_FILE": ""], status: 75, message: "locked")
    }

    /// Ids: an unknown one is 1, one that is not hex a usage error (64), an ambiguous prefix 1
    /// naming each match once.
    func testUnknownNonHexAndAmbiguousIds() throws {
        try assertRefused(["show", "00000000-0000-4000-8000-000000000000"], status: 1, message: "no entry matches")
        try assertRefused(["delete", "0000dead", "--yes"], status: 1, message: "no entry matches")
        try assertRefused(["show", "zz"], status: 64, message: "is not an entry id")
        let (prefix, matches) = try addEntriesUntilTwoSharePrefix()
        try assertRefused(["star", prefix], status: 1, message: "matches 2 entries")
        let result = try box.run(["show", prefix])
        for id in matches { XCTAssertTrue(result.stderr.contains(id), "names \(id): \(result.stderr)") }
        for id in matches {
            XCTAssertEqual(result.stderr.components(separatedBy: id).count - 1, 1, "names \(id) once: \(result.stderr)")
        }
    }

    /// No vault, a directory that is not one, and a vault of a newer format: 66, each with its
    /// message, and nothing created or rewritten.
    func testMissingForeignOrNewerVaultExits66AndIsLeftAlone() throws {
        let missing = box.root.appendingPathComponent("nowhere").path
        let result = try box.run(["list", "--vault", missing])
        XCTAssertEqual(result.status, 66)
        XCTAssertTrue(result.stderr.contains("no vault at \(missing)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: hint: create one with `diary init`"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "nothing was created")

        let foreign = box.root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: foreign, withIntermediateDirectories: true)
        try Data("jpeg".utf8).write(to: foreign.appendingPathComponent("cat.jpg"))
        let foreignResult = try box.run(["list", "--vault", foreign.path])
        XCTAssertEqual(foreignResult.status, 66)
        XCTAssertTrue(foreignResult.stderr.contains("is not a diary vault"), foreignResult.stderr)
        let initResult = try box.run([
            "init", "--vault", foreign.path, "--new-passphrase-file", try box.passphraseFile("x"),
        ])
        XCTAssertNotEqual(initResult.status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: foreign.path), ["cat.jpg"])

        let newer = box.root.appendingPathComponent("newer")
        let pass = try box.passphraseFile("a vault from the future")
        try box.ok(["init", "--store", "files", "--vault", newer.path, "--new-passphrase-file", pass])
        let headerURL = newer.appendingPathComponent("vault.header")
        var header = [UInt8](try Data(contentsOf: headerURL))
        // docs/FORMAT.md §3: u16 big-endian version at offset 8; checksum = BLAKE2b-256 of all
        // preceding bytes in the last 32. A valid checksum makes it "newer", not "damaged".
        header[8] = 0; header[9] = 3
        let body = Array(header[..<(header.count - 32)])
        header = body + BLAKE2b.hash(body)
        try Data(header).write(to: headerURL)
        let newerResult = try box.run(["list", "--vault", newer.path, "--passphrase-file", pass])
        XCTAssertEqual(newerResult.status, 66, newerResult.stderr)
        XCTAssertTrue(newerResult.stderr.contains("format version 3"), newerResult.stderr)
        XCTAssertTrue(newerResult.stderr.contains("upgrade diary"), newerResult.stderr)
        XCTAssertEqual([UInt8](try Data(contentsOf: headerURL)), header, "the header is not rewritten")
    }

    /// Text on stdin that is not UTF-8, or over the 8 MiB limit, is 67; empty text stores nothing (1).
    func testInvalidOversizedOrEmptyTextIsRefused() throws {
        try assertRefused(["new"], stdin: Data([0x48, 0x69, 0xFF, 0xFE, 0x0A]), status: 67, message: "not valid UTF-8")
        let big = Data(repeating: UInt8(ascii: "a"), count: 20 * 1024 * 1024)
        try assertRefused(["new"], stdin: big, status: 67, message: "limit of \(Vault.maximumTextBytes) bytes")
        try assertRefused(
            ["new"], stdin: Data(" \n\n".utf8), status: 1, message: "the text is empty; nothing was stored")
        try assertRefused(["new", ""], status: 1, message: "nothing was stored")
    }

    /// A failing editor changes nothing and leaves no file (1); `delete` without --yes and
    /// without a terminal is refused (64) with a hint.
    func testFailingEditorAndUnconfirmedDeleteChangeNothing() throws {
        let editor = try box.script("printf 'half-written secret\\n' > \"$1\"; exit 3", name: "fail.sh")
        try assertRefused(
            ["edit", String(entryID.prefix(8))], env: ["EDITOR": editor], status: 1, message: "failed (status 3)")
        XCTAssertEqual(try box.editorLeftovers(), [])
        try assertRefused(["delete", String(entryID.prefix(8))], status: 64, message: "needs confirmation")
        let result = try box.run(["delete", String(entryID.prefix(8))])
        XCTAssertTrue(result.stderr.contains("diary: hint: pass --yes"), result.stderr)
    }

    /// `init` over a vault, `restore` onto a vault or into a directory that is not empty: 73,
    /// nothing touched; an empty directory is used.
    func testInitAndRestoreNeverOverwrite() throws {
        try assertRefused(
            ["init", "--new-passphrase-file", try box.passphraseFile("other")], status: 73, message: "already exists")
        let backup = box.root.appendingPathComponent("b.diarybak").path
        try box.ok(["backup", backup])
        try assertRefused(["restore", backup, "--to", box.vault.path], status: 73, message: "already exists")
        let busy = box.root.appendingPathComponent("busy")
        try FileManager.default.createDirectory(at: busy, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: busy.appendingPathComponent("notes.txt"))
        try assertRefused(["restore", backup, "--to", busy.path], status: 73, message: "exists and is not empty")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: busy.path), ["notes.txt"])
        let empty = box.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try box.ok(["restore", backup, "--to", empty.path])
        XCTAssertEqual(try box.listJSON(["--vault", empty.path]).count, 1)
    }

    /// The forms refused are DiaryAppTests' (`DateInputTests`); here, the usage error: two
    /// lines naming the option and the value, a suggestion when the value looks like a typo,
    /// where the accepted forms are listed, and nothing written.
    func testBadDateIsAUsageError() throws {
        let before = try box.ok(["list", "--json"]).stdout
        let result = try box.run(["new", "text", "--date", "2024-02-30"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("--date"), result.stderr)
        XCTAssertEqual(try box.run(["list", "--from", "next tuesday"]).status, 64)
        // Every date option answers a date it does not understand the same way.
        for args in [
            ["new", "text", "--date", "garbage"], ["list", "--on", "garbage"], ["list", "--from", "garbage"],
            ["search", "x", "--to", "garbage"], ["edit", "0000", "--date", "garbage"], ["export", "--on", "garbage"],
        ] {
            let refused = try box.run(args)
            XCTAssertEqual(refused.status, 64, "\(args): \(refused.stderr)")
            XCTAssertEqual(
                refused.stderr,
                "diary: error: \(args[args.count - 2]) 'garbage' is not a date diary understands\n"
                    + "diary: hint: `diary help new` lists the dates diary accepts (so does docs/GUIDE.md)\n",
                "\(args)")
        }
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "nothing was written")
    }

    /// A mistyped date phrase (issue 22: nine wrapped lines and no suggestion) is two lines with
    /// a "did you mean", also inside a longer phrase.
    func testAMistypedDateGetsASuggestion() throws {
        for (args, meant) in [
            (["new", "x", "--date", "yesterdy"], "yesterday"), (["list", "--from", "last fridy"], "last friday"),
            (["list", "--on", "2 dys ago"], "2 days ago"), (["export", "--to", "todya"], "today"),
        ] {
            let refused = try box.run(args)
            XCTAssertEqual(refused.status, 64, "\(args): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("Did you mean '\(meant)'?"), "\(args): \(refused.stderr)")
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 2, refused.stderr)
            XCTAssertEqual(refused.stdout, "")
        }
    }

    /// An option another command has, or a filter diary spells otherwise, is pointed to where it
    /// belongs, not to ArgumentParser's nearest spelling (`show --year` suggested `--raw`).
    func testAnOptionOfAnotherCommandSaysWhereItBelongs() throws {
        let before = try box.ok(["list", "--json"]).stdout
        let year = try box.run(["show", "--year", "2026"])
        XCTAssertEqual(year.status, 64, year.stderr)
        XCTAssertFalse(year.stderr.contains("--raw"), year.stderr)
        XCTAssertTrue(year.stderr.contains("`diary show` has no option --year"), year.stderr)
        XCTAssertTrue(year.stderr.contains("diary list --from 2026-01-01 --to 2026-12-31"), year.stderr)
        let reverse = try box.run(["new", "--reverse", "text"])
        XCTAssertEqual(reverse.status, 64, reverse.stderr)
        XCTAssertTrue(reverse.stderr.contains("`diary list --reverse`"), reverse.stderr)
        XCTAssertEqual(try box.ok(["list", "--json"]).stdout, before, "nothing was written")
    }

    /// Adds entries in-process (fast) until two ids share their first 4 hex digits.
    private func addEntriesUntilTwoSharePrefix() throws -> (String, [String]) {
        let pass = try PassphraseFile(box.environment["DIARY_PASSPHRASE_FILE"]!)
        let vault = try Vault.open(at: box.vault, passphrase: pass)
        var seen: [String: String] = [:]
        for n in 0..<5000 {
            let id = try vault.add(text: "entry \(n)").id.uuidString.lowercased()
            let prefix = String(id.prefix(4))
            if let other = seen[prefix] { return (prefix, [other, id]) }
            seen[prefix] = id
        }
        throw XCTSkip("no shared 4-digit prefix in 5000 ids")
    }
}

/// Reads a sandbox passphrase file (written by `DiarySandbox.passphraseFile`) into guarded memory.
private func PassphraseFile(_ path: String) throws -> SecretBytes {
    var bytes = Array(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .newlines).utf8)
    return try SecretBytes(consuming: &bytes)
}
