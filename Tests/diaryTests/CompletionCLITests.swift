import Foundation
import XCTest

/// Shell completion of entry ids and tags: `diary ---completion ...` is how the generated
/// scripts call back into diary on TAB (swift-argument-parser's convention:
/// `---completion SUBCOMMAND -- ARGUMENT WORD-INDEX CURSOR-INDEX WORDS...`, with `SAP_SHELL`
/// naming the shell). Candidates come only from an unlocked session's agent.
final class CompletionCLITests: XCTestCase {
    private var box: DiarySandbox!
    private var pass = ""
    private var ids: [String] = []  // newest first

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "complete")
        pass = try box.initVault()
        let old = try box.ok(["new", "Oldest", "--tag", "walk", "--date", "2024-01-01"]).out
        let mid = try box.ok(["new", "Middle", "--tag", "birds", "--tag", "work", "--date", "2024-02-01"]).out
        let new = try box.ok(["new", "Newest", "--date", "2024-03-01"]).out
        ids = [new, mid, old]
    }

    override func tearDown() { box = nil }

    /// What the bash script runs for `words` with the cursor at the end of the last word.
    private func complete(
        _ command: String, _ argument: String, _ words: [String], shell: String = "bash"
    ) throws -> DiaryResult {
        let cursor = String(words.last!.count)
        let path = command.split(separator: " ").map(String.init)  // "template show": a subcommand's path
        let args = ["---completion"] + path + ["--", argument, String(words.count - 1), cursor] + words
        return try box.run(args, env: ["SAP_SHELL": shell])
    }

    private func candidates(_ command: String, _ argument: String, _ words: [String]) throws -> [String] {
        let result = try complete(command, argument, words)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "completion is quiet")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    private var short: [String] { ids.map { String($0.prefix(8)) } }

    /// A locked vault gives no candidates and asks for nothing; unlocked, the ids and tags of
    /// the vault the command line names (else the default one), for every command that takes
    /// them, in bash's and zsh's forms; locked again, none.
    func testCandidatesComeOnlyFromAnUnlockedVault() throws {
        // A passphrase file is at hand (DIARY_PASSPHRASE_FILE) and still not used: a TAB must
        // not cost a key derivation.
        XCTAssertEqual(try candidates("show", "positional@0", ["diary", "show", ""]), [])
        XCTAssertEqual(try candidates("list", "--tag", ["diary", "list", "--tag", ""]), [])
        let passArg = try candidates("show", "positional@0", ["diary", "show", "--passphrase-file", pass, ""])
        XCTAssertEqual(passArg, [], "not even one named on the command line")
        let missing = try candidates("show", "positional@0", ["diary", "--vault", "/nonexistent", "show", ""])
        XCTAssertEqual(missing, [])
        try box.ok(["unlock", "--passphrase-file", pass])
        XCTAssertEqual(try candidates("show", "positional@0", ["diary", "show", ""]).count, 3)
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
        for command in ["show", "edit", "delete", "star", "unstar", "tag"] {
            XCTAssertEqual(try candidates(command, "positional@0", ["diary", command, ""]), short, command)
        }
        let first = String(ids[1].prefix(2))
        XCTAssertEqual(
            try candidates("show", "positional@0", ["diary", "show", first]),
            short.filter { $0.hasPrefix(first) })
        XCTAssertEqual(
            try candidates("show", "positional@0", ["diary", "show", String(ids[1].prefix(10))]), [ids[1]],
            "a prefix longer than the short id completes to the full id")
        for command in ["list", "search", "new", "export"] {
            XCTAssertEqual(
                try candidates(command, "--tag", ["diary", command, "--tag", ""]), ["birds", "walk", "work"], command)
        }
        XCTAssertEqual(try candidates("list", "--tag", ["diary", "list", "--tag", "w"]), ["walk", "work"])
        XCTAssertEqual(try candidates("list", "--tag", ["diary", "list", "--tag", "#b"]), ["#birds"])
        XCTAssertEqual(try candidates("tag", "positional@1", ["diary", "tag", short[0], "+w"]), ["+walk", "+work"])
        // zsh gets the same list and a last " " that its script removes.
        let zsh = try complete("list", "--tag", ["diary", "list", "--tag", ""], shell: "zsh")
        XCTAssertEqual(zsh.stdout, "birds\nwalk\nwork\n \n")
        let other = box.root.appendingPathComponent("other vault").path
        let otherPass = try box.passphraseFile("another horse")
        try box.ok(["init", "--vault", other, "--new-passphrase-file", otherPass])
        let lone = try box.ok(["new", "Elsewhere", "--vault", other, "--passphrase-file", otherPass]).out
        try box.ok(["unlock", "--vault", other, "--passphrase-file", otherPass])
        defer { _ = try? box.run(["lock", "--vault", other]) }
        // The words come as typed: quoted or escaped paths, before or after the command.
        for words in [
            ["diary", "--vault", "'\(other)'", "show", ""],
            ["diary", "show", "--vault=\(other.replacingOccurrences(of: " ", with: "\\ "))", ""],
        ] {
            XCTAssertEqual(try candidates("show", "positional@0", words), [String(lone.prefix(8))], "\(words)")
        }
        XCTAssertEqual(try candidates("show", "positional@0", ["diary", "show", ""]), short, "the default vault")
        try box.ok(["lock"])
        XCTAssertEqual(try candidates("show", "positional@0", ["diary", "show", ""]), [], "locked again")
    }

    /// Template names complete after `new --template` and `template show|edit|remove`, from
    /// the unlocked vault only; what was typed matches in any letter case.
    func testTemplateNamesComeFromTheUnlockedVault() throws {
        for name in ["evening", "Morning", "mood"] {
            try box.ok(["template", "add", name], stdin: Data("{date}\n".utf8))
        }
        XCTAssertEqual(try candidates("new", "--template", ["diary", "new", "--template", ""]), [])
        try box.ok(["unlock", "--passphrase-file", pass])
        defer { _ = try? box.run(["lock"]) }
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
        XCTAssertEqual(
            try candidates("new", "--template", ["diary", "new", "--template", ""]), ["evening", "mood", "Morning"])
        for command in ["show", "edit", "remove"] {
            XCTAssertEqual(
                try candidates("template \(command)", "positional@0", ["diary", "template", command, "m"]),
                ["mood", "Morning"], command)
        }
        XCTAssertEqual(try candidates("show", "positional@0", ["diary", "show", ""]), short, "no template among ids")
    }

    /// The generated bash script itself, driven as bash's programmable completion does, with
    /// `--vault` before the command.
    func testTheBashScriptCompletesIdsAfterGlobalOptions() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash")
        try box.ok(["unlock", "--passphrase-file", pass])
        let script = box.root.appendingPathComponent("diary.bash")
        try Data(try box.ok(["--generate-completion-script", "bash"]).stdout.utf8).write(to: script)
        let driver = """
            source "$1"; shift
            COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            _diary diary "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        func tab(_ line: String) throws -> [String] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", driver, "driver", script.path, line]
            let bin = DiarySandbox.binary.deletingLastPathComponent().path
            process.environment = box.fullEnvironment(["PATH": bin + ":/usr/bin:/bin", "DIARY_PASSPHRASE_FILE": ""])
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try tab("diary --vault \(box.vault.path) show "), short)
        let typed = String(short[2].prefix(3))
        XCTAssertEqual(try tab("diary show \(typed)"), short.filter { $0.hasPrefix(typed) })
        XCTAssertEqual(try tab("diary --vault \(box.vault.path) list --tag w"), ["walk", "work"])
    }
}
