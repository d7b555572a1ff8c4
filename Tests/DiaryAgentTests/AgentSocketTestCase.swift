import Foundation
import XCTest

/// Base for tests that run an agent on a real socket in a fresh private directory.
class AgentSocketTestCase: XCTestCase {
    var directory: URL!
    var socketURL: URL { directory.appendingPathComponent("agent.sock") }

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }
}
