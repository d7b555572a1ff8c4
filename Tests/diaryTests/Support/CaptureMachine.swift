import Foundation

/// A directory standing for a capture machine: it holds one capture key (a device called
/// "phone") and nothing else, and runs `diary capture` with no passphrase, no agent and no vault
/// of its own (docs/GUIDE.md "Write-only capture").
struct CaptureMachine {
    let directory: URL
    var key: String { directory.appendingPathComponent("phone.key").path }

    /// Makes `directory` and enrols "phone" there through `sandbox`, which holds the vault.
    init(at directory: URL, enrolledBy sandbox: DiarySandbox) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        try sandbox.ok(["capture-key", "create", "phone", "--output", key])
    }

    /// The environment of a machine that holds only the key: no passphrase file, and a vault
    /// path where there is none.
    var environment: [String: String] {
        ["DIARY_PASSPHRASE_FILE": "", "DIARY_VAULT": directory.appendingPathComponent("none").path]
    }
}
