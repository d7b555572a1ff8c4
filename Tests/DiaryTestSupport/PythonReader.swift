import Foundation
import XCTest

/// Runs `Scripts/decrypt-vault.py`, the independent reader of the format, with the system's
/// Python (the tests of attachments in backups, vaults and remotes all do).
public enum PythonReader {
    public static let python = "/usr/bin/python3"
    /// The script in this checkout.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/decrypt-vault.py")

    /// Skips the test unless Python and PyNaCl with secretstream are installed.
    public static func requireSecretstream() throws {
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("no \(python)") }
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = ["-c", "from nacl.bindings import crypto_secretstream_xchacha20poly1305_pull"]
        try check.run()
        check.waitUntilExit()
        if check.terminationStatus != 0 { throw XCTSkip("PyNaCl with secretstream is not installed") }
    }

    /// Python run with `arguments` (the script's path among them, where the caller wants it):
    /// its status, and stdout and stderr together.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Lowercase hex, as the script takes keys and hashes.
    public static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
