import DiaryCrypto
import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// One run of the `diary-vault-stress` child (Tests/VaultStressChild): started with `Process`,
/// its stdout going to a file so that every line it wrote survives a SIGKILL.
final class StressChild {
    let process = Process()
    let outputURL: URL
    private let errorURL: URL

    /// The child binary: built by SwiftPM into the same products directory as the test bundle.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        let bundle = Bundle(for: StressChild.self).bundleURL
        candidates.append(bundle.deletingLastPathComponent())
        candidates.append(bundle)
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        for directory in candidates {
            let url = directory.appendingPathComponent("diary-vault-stress")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw XCTSkip("diary-vault-stress is not built next to the tests (run `swift build` first)")
    }

    /// Starts the child with `arguments`; its output goes to `<logs>/<name>.out` and `.err`.
    init(_ arguments: [String], logs: URL, name: String) throws {
        outputURL = logs.appendingPathComponent(name + ".out")
        errorURL = logs.appendingPathComponent(name + ".err")
        for url in [outputURL, errorURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        process.executableURL = try Self.executable()
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
    }

    /// Complete lines written so far; a torn last line (no newline yet) is left out.
    func lines() -> [String] {
        guard let data = FileManager.default.contents(atPath: outputURL.path) else { return [] }
        var text = String(decoding: data, as: UTF8.self)
        if let lastNewline = text.lastIndex(of: "\n") {
            text = String(text[...lastNewline])
        } else {
            return []
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until a line equal to `line` appears or the child exits; returns whether it appeared.
    func waitFor(line: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if lines().contains(line) { return true }
            if !process.isRunning { return lines().contains(line) }
            usleep(500)
        }
        return false
    }

    /// SIGKILL: no handler runs, no buffer is flushed, as in a crash or power cut of the process.
    func killNow() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Waits for the child to exit by itself, or kills it after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(1000) }
        if process.isRunning {
            killNow()
            return false
        }
        process.waitUntilExit()
        return true
    }

    var wasKilled: Bool { process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL }
    var exitedCleanly: Bool { process.terminationReason == .exit && process.terminationStatus == 0 }

    /// What the child wrote to stderr (for failure messages).
    var errorOutput: String {
        String(decoding: FileManager.default.contents(atPath: errorURL.path) ?? Data(), as: UTF8.self)
    }
}

/// Writes a passphrase file (0600) for a child; passphrases never go on a command line.
func writePassphraseFile(_ passphrase: String, to url: URL) throws {
    try Data(passphrase.utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
}
