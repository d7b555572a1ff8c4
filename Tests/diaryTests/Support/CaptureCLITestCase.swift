import Foundation
import XCTest

/// A files vault with a capture device "phone" enrolled, and its capture machine: a directory
/// that holds the key and nothing else (the capture commands' binary tests share it).
class CaptureCLITestCase: XCTestCase {
    var box: DiarySandbox!
    var machine: CaptureMachine!
    var device: URL { machine.directory }
    var key: String { machine.key }
    var inbox: URL { box.vault.appendingPathComponent("inbox") }

    override func setUpWithError() throws {
        box = try DiarySandbox(name: "capture")
        _ = try box.initVault(store: "files")
        machine = try CaptureMachine(at: box.root.appendingPathComponent("device"), enrolledBy: box)
    }

    override func tearDown() { box = nil }

    /// `capture` as the capture machine runs it: no passphrase, no agent, no vault of its own;
    /// by default with its own key, into the vault directory.
    @discardableResult
    func capture(_ args: [String], stdin: Data? = nil, key: String? = nil, to: String? = nil) throws -> DiaryResult {
        try box.run(
            ["capture", "--key", key ?? self.key, "--to", to ?? box.vault.path] + args, stdin: stdin,
            env: machine.environment)
    }
}
