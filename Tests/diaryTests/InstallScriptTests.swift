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
        ("share/diary-install/manifest", 0o644),
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
            contentsOf: prefix.appendingPathComponent("share/diary-install/manifest"), encoding: .utf8)
        for (path, _) in Self.installed.dropLast() {
            XCTAssertTrue(manifest.contains(prefix.appendingPathComponent(path).path + "\n"), path)
        }
        let version = try runProgram(prefix.appendingPathComponent("bin/diary"), ["--version"])
        XCTAssertEqual(version.status, 0, "the stripped copy runs")
        try assertStripped(prefix.appendingPathComponent("bin/diary"))

        let removed = try install(["--uninstall", "--prefix", prefix.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertEqual(try filesUnderPrefix(), ["share/man/man1/other.1"], "only the unrelated file is left")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin").path),
            "an empty directory the install created is removed")
        XCTAssertEqual(
            try install(["--uninstall", "--prefix", prefix.path]).status, 0, "nothing left to remove is fine")
    }

    /// A hand-edited manifest cannot make `--uninstall` delete outside the prefix: not by a `..`
    /// component (even one that would land back inside), nor through a symbolic link to a
    /// directory elsewhere planted under the prefix, for files and directories alike.
    func testUninstallTouchesNothingOutsideThePrefix() throws {
        XCTAssertEqual(try install(["--prefix", prefix.path]).status, 0)
        let fm = FileManager.default
        let outside = prefix.deletingLastPathComponent().appendingPathComponent(prefix.lastPathComponent + "-outside")
        try fm.createDirectory(at: outside.appendingPathComponent("empty"), withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: outside) }
        let victim = outside.appendingPathComponent("victim")
        try Data("not diary's\n".utf8).write(to: victim)
        try fm.createDirectory(at: prefix.appendingPathComponent("p"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: prefix.appendingPathComponent("link"), withDestinationURL: outside)
        let inside = prefix.appendingPathComponent("inside")
        try Data("not diary's either\n".utf8).write(to: inside)

        let escapes = [
            "\(prefix.path)/../\(outside.lastPathComponent)/victim",
            "\(prefix.path)/p/../../\(outside.lastPathComponent)/victim",
            "\(prefix.path)/p/../inside",
            "\(prefix.path)/./inside",
            "\(prefix.path)/link/victim",
            "\(prefix.path)/link/empty/",
            "\(prefix.path)/../\(outside.lastPathComponent)/empty/",
        ]
        let manifest = prefix.appendingPathComponent("share/diary-install/manifest")
        let recorded = try String(contentsOf: manifest, encoding: .utf8)
        try Data((escapes.joined(separator: "\n") + "\n" + recorded).utf8).write(to: manifest)

        let removed = try install(["--uninstall", "--prefix", prefix.path])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertTrue(fm.fileExists(atPath: victim.path), "outside the prefix: \(removed.stderr)")
        XCTAssertTrue(fm.fileExists(atPath: outside.appendingPathComponent("empty").path), removed.stderr)
        XCTAssertTrue(fm.fileExists(atPath: inside.path), "a `..` is refused even when it lands inside")
        for line in escapes {
            XCTAssertTrue(removed.stderr.contains("skipped \(line): not a path under"), line + "\n" + removed.stderr)
        }
        XCTAssertFalse(fm.fileExists(atPath: prefix.appendingPathComponent("bin/diary").path), "the rest is removed")
    }

    /// The installed copy has no symbol table and no debug information, and is smaller than the
    /// build it was copied from (which has both).
    func assertStripped(_ installed: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let readelf = URL(fileURLWithPath: "/usr/bin/readelf")  // binutils, as strip
        let built = try runProgram(readelf, ["-S", "-W", DiarySandbox.binary.path])
        XCTAssertTrue(built.stdout.contains(" .symtab "), "the build has symbols", file: file, line: line)
        let sections = try runProgram(readelf, ["-S", "-W", installed.path])
        XCTAssertEqual(sections.status, 0, sections.stderr, file: file, line: line)
        for name in [" .symtab ", " .debug_info ", " .debug_line "] {
            XCTAssertFalse(sections.stdout.contains(name), "installed with\(name)", file: file, line: line)
        }
        let size = { (url: URL) in try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0 }
        XCTAssertLessThan(try size(installed), try size(DiarySandbox.binary), file: file, line: line)
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

    /// A sandbox whose vault is the default one, `HOME/.local/share/diary`, as for a new user.
    func newHome() throws -> DiarySandbox {
        let box = try DiarySandbox(name: "install-home")
        box.environment["DIARY_VAULT"] = ""  // empty values are dropped: the default applies
        box.environment["XDG_DATA_HOME"] = ""
        return box
    }

    /// Runs `Scripts/install` with no `--prefix` for the sandbox's HOME.
    func installForHome(_ box: DiarySandbox) throws -> DiaryResult {
        try runProgram(
            Self.repository.appendingPathComponent("Scripts/install"), [],
            env: [
                "HOME": box.root.appendingPathComponent("home").path,
                "DIARY_INSTALL_SKIP_BUILD": DiarySandbox.binary.path,
                "PATH": "/usr/bin:/bin",
            ])
    }

    /// The README's first command, then `diary init`, from a new HOME: the install writes nothing
    /// into the default vault directory, so `init` makes the vault there, and a files vault's
    /// `verify` finds nothing that is not its own.
    func testInitWorksAfterAnInstallIntoANewHome() throws {
        let box = try newHome()
        let installed = try installForHome(box)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        let home = box.root.appendingPathComponent("home")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/bin/diary").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/diary").path),
            "nothing of the install in the default vault directory")

        try box.initVault(store: "files")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: home.appendingPathComponent(".local/share/diary/vault.header").path),
            "the vault is the default one")
        try box.ok(["new", "After the install"])
        let verified = try box.run(["verify"])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        XCTAssertFalse(
            verified.stdout.contains("unexpected") || verified.stderr.contains("unexpected"), verified.stdout)
    }

    /// A manifest an older install left in the default vault directory (where a files vault's
    /// `verify` calls it damage) is moved out by the next install; uninstall then finds it.
    func testAnOldManifestInTheVaultDirectoryIsMovedOut() throws {
        let box = try newHome()
        let home = box.root.appendingPathComponent("home")
        let share = home.appendingPathComponent(".local/share")
        try box.initVault(store: "files")
        let bin = home.appendingPathComponent(".local/bin/diary")
        try FileManager.default.createDirectory(
            at: bin.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: DiarySandbox.binary, to: bin)
        let old = share.appendingPathComponent("diary/install-manifest")
        try Data("\(bin.path)\n\(bin.deletingLastPathComponent().path)/\n".utf8).write(to: old)
        let before = try box.run(["verify"])
        XCTAssertEqual(before.status, 65, "the old manifest is damage to verify: \(before.stdout)")

        let installed = try installForHome(box)
        XCTAssertEqual(installed.status, 0, installed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: old.path), "moved out of the vault")
        let manifest = try String(
            contentsOf: share.appendingPathComponent("diary-install/manifest"), encoding: .utf8)
        XCTAssertTrue(manifest.contains(bin.path + "\n"), manifest)
        let after = try box.run(["verify"])
        XCTAssertEqual(after.status, 0, after.stdout + after.stderr)

        let removed = try runProgram(
            Self.repository.appendingPathComponent("Scripts/install"), ["--uninstall"],
            env: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: bin.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: share.appendingPathComponent("diary-install").path))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: share.appendingPathComponent("diary/vault.header").path),
            "the vault stays")
    }
}
