import Foundation
import XCTest

/// Runs the built `diary` binary with a private HOME, XDG directories and vault.
///
/// Every child runs under `setsid -w`, so it has no controlling terminal even when `swift test`
/// is started from one: "no terminal" is then a fact, not an accident of the CI machine, and a
/// prompt can never hang a test.
struct DiaryResult {
    var status: Int32
    var stdout: String
    var stderr: String
    /// stdout without the trailing newline.
    var out: String { stdout.trimmingCharacters(in: .newlines) }
}

final class DiarySandbox {
    /// A private root: HOME, data dir, passphrase files, backups.
    let root: URL
    /// `XDG_RUNTIME_DIR`, on /dev/shm (tmpfs) so the editor's temp files land where a test can look.
    let runtime: URL
    /// The default vault of this sandbox.
    let vault: URL
    /// Extra environment for every run (tests add LC_ALL, EDITOR, …).
    var environment: [String: String] = [:]

    init(name: String = "t") throws {
        let fm = FileManager.default
        root = fm.temporaryDirectory.appendingPathComponent("diary-cli-\(name)-\(UUID().uuidString.prefix(8))")
        runtime = URL(fileURLWithPath: "/dev/shm/diary-cli-run-\(UUID().uuidString.prefix(8))")
        vault = root.appendingPathComponent("vault")
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        try fm.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try fm.createDirectory(at: root.appendingPathComponent("home"), withIntermediateDirectories: true)
    }

    deinit {
        // Stop any agent this sandbox started, then remove everything. An agent listens on a
        // socket in `<runtime>/diary`: without one there is no agent, and no `lock` to run (a
        // process per sandbox saved).
        let agents =
            (try? FileManager.default.contentsOfDirectory(atPath: runtime.appendingPathComponent("diary").path)) ?? []
        if agents.contains(where: { $0.hasSuffix(".sock") }) { _ = try? run(["lock"]) }
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.removeItem(at: runtime)
    }

    /// The `diary` executable next to the test bundle (or `$DIARY_BINARY`).
    static var binary: URL {
        LaunchLog.record()  // every launch site asks for the path first
        if let path = ProcessInfo.processInfo.environment["DIARY_BINARY"] { return URL(fileURLWithPath: path) }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        // On Linux the test runner is `.build/debug/diaryPackageTests.xctest`; on macOS a bundle.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("diary")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/diary")
    }

    /// Writes `passphrase` and a newline to a file (mode 0600, as `diary` wants it) in the
    /// sandbox and returns its path.
    func passphraseFile(_ passphrase: String, name: String? = nil) throws -> String {
        let url = root.appendingPathComponent(name ?? "pass-\(UUID().uuidString.prefix(6))")
        try Data((passphrase + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    /// Writes an executable shell script (an `EDITOR`) and returns its path.
    func script(_ body: String, name: String = "editor.sh") throws -> String {
        let url = root.appendingPathComponent(name)
        try Data(("#!/bin/sh\n" + body + "\n").utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url.path
    }

    /// The environment a run sees: the minimum of the parent's, then the sandbox, then `extra`.
    func fullEnvironment(_ extra: [String: String]) -> [String: String] {
        var env: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_RUNTIME_DIR": runtime.path,
            // Where an agent goes without XDG_RUNTIME_DIR, instead of /tmp/diary-UID: `status`
            // and `lock --all` look there too, and must not see the agents of whoever runs the tests.
            "DIARY_TEST_FALLBACK_RUNTIME_DIR": runtime.appendingPathComponent("fallback").path,
            "XDG_DATA_HOME": root.appendingPathComponent("data").path,
            "DIARY_VAULT": vault.path,
            "DIARY_INSECURE_TEST_KDF": "1",
            "LC_ALL": "C",
            "TZ": "UTC",
            "EDITOR": "false",
        ]
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        return env.filter { !$0.value.isEmpty }
    }

    /// Runs `diary args…`, feeding `stdin`, and waits.
    @discardableResult
    func run(_ args: [String], stdin: Data? = nil, env: [String: String] = [:]) throws -> DiaryResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["-w", DiarySandbox.binary.path] + args
        process.environment = fullEnvironment(env)
        process.currentDirectoryURL = root
        let outPipe = Pipe(), errPipe = Pipe(), inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = stdin == nil ? FileHandle(forReadingAtPath: "/dev/null") : inPipe
        try process.run()
        let group = DispatchGroup()
        if let stdin {
            DispatchQueue.global().async(group: group) {
                inPipe.fileHandleForWriting.write(stdin)
                try? inPipe.fileHandleForWriting.close()
            }
        }
        nonisolated(unsafe) var out = Data(), err = Data()
        DispatchQueue.global().async(group: group) { out = outPipe.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = errPipe.fileHandleForReading.readDataToEndOfFile() }
        process.waitUntilExit()
        group.wait()
        return DiaryResult(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs and asserts success, returning the result.
    @discardableResult
    func ok(
        _ args: [String], stdin: Data? = nil, env: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> DiaryResult {
        let result = try run(args, stdin: stdin, env: env)
        XCTAssertEqual(
            result.status, 0, "diary \(args.joined(separator: " ")) failed: \(result.stderr)", file: file, line: line)
        return result
    }

    /// Creates the sandbox's vault with `passphrase`, and makes it the default passphrase file.
    @discardableResult
    func initVault(store: String = "sqlite", passphrase: String = "correct horse") throws -> String {
        let file = try passphraseFile(passphrase)
        try ok(["init", "--store", store, "--new-passphrase-file", file])
        environment["DIARY_PASSPHRASE_FILE"] = file
        return file
    }

    /// `list --json` as decoded objects.
    func listJSON(_ extra: [String] = [], env: [String: String] = [:]) throws -> [[String: Any]] {
        let result = try ok(["list", "--json"] + extra, env: env)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    /// Names of files left in the runtime dir's editor directories (must be none).
    func editorLeftovers() throws -> [String] {
        let fm = FileManager.default
        var found: [String] = []
        for base in [runtime.path] {
            for name in (try? fm.contentsOfDirectory(atPath: base)) ?? [] where name.hasPrefix("diary-edit-") {
                found.append("\(base)/\(name)")
            }
        }
        return found
    }
}
