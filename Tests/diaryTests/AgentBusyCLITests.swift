import Foundation
import Glibc
import XCTest

/// An agent whose every connection slot is held by another process of the same user.
final class AgentBusyCLITests: XCTestCase {
    func testAnAgentWithEverySlotTakenIsReportedAsBusyNotLocked() throws {
        let box = try DiarySandbox(name: "busy")
        let pass = try box.initVault()
        box.environment["DIARY_PASSPHRASE_FILE"] = ""
        // TEST ONLY: the agent keeps silent connections for 30 s instead of 1.5 s, so the slots
        // stay taken for the whole of the client's 2 s of retries.
        try box.ok(["unlock", "--passphrase-file", pass], env: ["DIARY_TEST_AGENT_REQUEST_TIMEOUT": "30"])
        let socket = try XCTUnwrap(Self.agentSocket(under: box.runtime.path))
        let hogs = try (0..<32).map { _ in try Self.connect(to: socket) }
        defer { hogs.forEach { close($0) } }

        let result = try box.run(["list"])
        XCTAssertEqual(result.status, 75, result.stderr)
        XCTAssertTrue(result.stderr.contains("diary: error: the unlock agent is busy"), result.stderr)
        XCTAssertFalse(result.stderr.contains("locked"), result.stderr)
        XCTAssertFalse(result.stderr.contains("permission denied"), result.stderr)

        // With a passphrase file the command goes on without the agent, and says why.
        let fallback = try box.ok(["list", "--passphrase-file", pass])
        XCTAssertTrue(fallback.stderr.contains("diary: warning: the unlock agent is busy"), fallback.stderr)
    }

    /// The agent's socket: the one socket file under the sandbox's runtime directory.
    private static func agentSocket(under root: String) -> String? {
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            var info = stat()
            let path = root + "/" + name
            if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return path }
        }
        return nil
    }

    /// A blocking connection to `path` that sends nothing.
    private static func connect(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard fd >= 0, result == 0 else { throw POSIXError(.ECONNREFUSED) }
        return fd
    }
}
