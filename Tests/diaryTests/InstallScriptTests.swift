import Foundation
import XCTest

/// `Scripts/install` puts each file where its consumer looks under the prefix, and
/// `--uninstall` takes back exactly what it recorded. The test installs the debug build it
/// already has (`DIARY_INSTALL_SKIP_BUILD`), since a release build takes minutes.
final class InstallScriptTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every file an install writes, relative to the prefix, with its mode.
    static let installed: [(path: String, mode: Int)] = [
        ("bin/diary", 0o755),
        ("share/man/man1/diary.1", 0o644),
        ("share/bash-completion/completions/diary", 0o644),
        ("share/zsh/site-functions/_diary", 0o644),
        ("share/fish/vendor_completions.d/diary.fish", 0o644),
        ("share/diary/install-manifest", 0o644),
    ]

    var prefix: URL!

    override func setUpWithError() throws {
        prefix = FileManager.default.temporaryDirectory.appendingPathComponent(
            "diary-install-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Runs `Scripts/install args…` with the debug binary in place of a release build.
    @discardableResult
    func install(_ args: [String]) throws -> DiaryResult {
        try runProgram(
            Self.repository.appendingPathComponent("Scripts/install"), args,
            env: [
                "DIARY_INSTALL_SKIP_BUILD": DiarySandbox.binary.path,
                "PATH": "/usr/bin:/bin",  // the prefix's bin is not on it: the script says so
            ])
    }

    /// Every regular file under the prefix, relative to it.
    func filesUnderPrefix() throws -> Set<String> {
        var files = Set<String>()
        let base = prefix.resolvingSymlinksInPath().path + "/"
        let walker = FileManager.default.enumerator(at: prefix, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files.insert(String(url.resolvingSymlinksInPath().path.dropFirst(base.count)))
        }
        return files
    }

    /// An unknown option is a usage error on stderr that installs nothing, and `--help` names
    /// the options; then an install puts every file in place and `--uninstall` removes exactly
    /// those.
    func testInstallPutsEveryFileInPlaceAndUninstallRemovesExactlyThose() throws {
        let result = try install(["--prefix", prefix.path, "--bogus"])
        XCTAssertEqual(result.status, 64)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("unknown option: --bogus"), result.stderr)
        XCTAssertEqual(try filesUnderPrefix(), [], "nothing installed")
        let help = try install(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(
            help.stdout.contains("--uninstall") && help.stdout.lowercased().contains("test only"), help.stdout)

        let unrelated = prefix.appendingPathComponent("share/man/man1/other.1")
        try FileManager.default.createDirectory(
            at: unrelated.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not diary's\n".utf8).write(to: unrelated)

        let first = try install(["--prefix", prefix.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "", "the script talks on stderr only")
        XCTAssertTrue(first.stderr.contains("is not on your PATH"), first.stderr)
        let again = try install(["--prefix", prefix.path])  // idempotent
        XCTAssertEqual(again.status, 0, again.stderr)

        XCTAssertEqual(try filesUnderPrefix(), Set(Self.installed.map(\.path) + ["share/man/man1/other.1"]))
        for (path, mode) in Self.installed {
            let attributes = try FileManager.default.attributesOfItem(atPath: prefix.appendingPathComponent(path).path)
            XCTAssertEqual((attributes[.posixPermissions] as? Int).map { $0 & 0o7777 }, mode, path)
        }
        let manifest = try String(
            contentsOf: prefix.appendingPathComponent("share/diary/install-manifest"), encoding: .utf8)
        for (path, _) in Self.installed.dropLast() {
            XCTAssertTrue(manifest.contains(prefix.appendingPathComponent(path).path + "\n"), path)
        }
        let version = try runProgram(prefix.appendingPathComponent("bin/diary"), ["--version"])
        XCTAssertEqual(version.status, 0)

        let removed = try install(["--uninstall", "--prefix", prefix.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try filesUnderPrefix(), ["share/man/man1/other.1"], "only the unrelated file is left")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin").path),
            "an empty directory the install created is removed")
        XCTAssertEqual(
            try install(["--uninstall", "--prefix", prefix.path]).status, 0, "nothing left to remove is fine")
    }

    /// The installed man page renders without a warning, and its EXIT STATUS names every code.
    func testInstalledManPageRendersCleanly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            throw XCTSkip("man is not installed")
        }
        XCTAssertEqual(try install(["--prefix", prefix.path]).status, 0)
        let page = prefix.appendingPathComponent("share/man/man1/diary.1")
        let rendered = try runProgram(
            URL(fileURLWithPath: "/usr/bin/man"), ["-l", page.path],
            env: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LC_ALL": "C.UTF-8"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertEqual(rendered.stderr, "", "man -l warns about nothing")
        XCTAssertFalse(rendered.stdout.contains("DIARY_INSECURE_TEST_KDF"))
        let source = try String(contentsOf: page, encoding: .utf8)
        for code in ["0", "1", "64", "65", "66", "67", "73", "75", "77"] {
            XCTAssertTrue(source.contains("\n.It \(code)\n"), "EXIT STATUS lists \(code)")
        }
        XCTAssertFalse(source.contains(".Ex -std"), "not just \"exits >0 if an error occurs\"")
        XCTAssertTrue(source.contains("(default 15m)") && source.contains("(default 8h)"), "unlock's defaults")
        // A command `--help` hides (the internal `agent`) is not in the page either.
        XCTAssertFalse(source.contains(".It Em agent") || source.contains("Not for direct use"), "no hidden command")
    }
}
