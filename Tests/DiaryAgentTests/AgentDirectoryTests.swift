import DiaryCrypto
import Foundation
import Glibc
import XCTest

@testable import DiaryAgent

/// Finding this user's agents (`AgentDirectory`): each answering agent with the vault path it
/// was given, busy or stale sockets told apart, stale ones removed only when no agent holds
/// their lock, and files that are not agent sockets passed over.
final class AgentDirectoryTests: AgentSocketTestCase {
    private var agents: [RunningAgent] = []

    override func tearDownWithError() throws {
        for agent in agents { agent.stop() }
        try super.tearDownWithError()
    }

    private func start(_ vaultID: UUID, path: String?) throws {
        var config = AgentConfig(
            idleTimeout: 30, maximumLifetime: 60, socketURL: AgentPaths.socketURL(vaultID: vaultID, in: directory))
        config.vaultPath = path
        agents.append(try RunningAgent(config: config, key: try makeKey(UInt8(agents.count + 1)), vaultID: vaultID))
    }

    /// A socket file nothing listens on: bound, then closed, as a killed agent leaves it.
    private func makeStaleSocket(_ vaultID: UUID) throws -> URL {
        let url = AgentPaths.socketURL(vaultID: vaultID, in: directory)
        let fd = try UnixSocket.make()
        defer { close(fd) }
        XCTAssertEqual(try UnixSocket.withAddress(url.path) { bind(fd, $0, $1) }, 0)
        return url
    }

    func testEveryAgentIsListedWithItsVaultPath() throws {
        let (first, second, older) = (UUID(), UUID(), UUID())
        try start(first, path: "/home/me/diary")
        try start(second, path: "/media/stick/\"odd\"\nname ✓")
        try start(older, path: nil)  // an agent started by a diary that did not pass the path
        let listing = try AgentDirectory.list(in: directory)
        let paths = Dictionary(uniqueKeysWithValues: listing.running.map { ($0.vaultID, $0.vaultPath) })
        XCTAssertEqual(paths.count, 3)
        XCTAssertEqual(paths[first], "/home/me/diary")
        XCTAssertEqual(paths[second], "/media/stick/\"odd\"\nname ✓")
        XCTAssertEqual(paths[older], .some(nil))
        XCTAssertEqual(listing.busy, [])
        XCTAssertEqual(listing.removedStale, 0)
    }

    func testAStaleSocketIsRemovedButNotWhileItsLockIsHeld() throws {
        let live = UUID()
        try start(live, path: "/v/live")
        let stale = try makeStaleSocket(UUID())
        let starting = try makeStaleSocket(UUID())
        // An agent starting up holds the lock before it replaces the socket: hands off.
        let lock = open(starting.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }

        let listing = try AgentDirectory.list(in: directory)
        XCTAssertEqual(listing.running.map(\.vaultID), [live])
        XCTAssertEqual(listing.removedStale, 1)
        XCTAssertFalse(fileExists(stale))
        XCTAssertTrue(fileExists(starting), "its lock is held")
        XCTAssertTrue(fileExists(AgentPaths.socketURL(vaultID: live, in: directory)))
    }

    func testOnlyAgentSocketsAreConsidered() throws {
        let vaultID = UUID()
        let hex = AgentPaths.vaultIDHex(vaultID)
        // A regular file with a socket's name, and sockets with other names, are left alone.
        try Data("not a socket".utf8).write(to: directory.appendingPathComponent("\(hex).sock"))
        let other = directory.appendingPathComponent("notes.sock")
        let fd = try UnixSocket.make()
        defer { close(fd) }
        XCTAssertEqual(try UnixSocket.withAddress(other.path) { bind(fd, $0, $1) }, 0)
        let listing = try AgentDirectory.list(in: directory)
        XCTAssertTrue(listing.running.isEmpty)
        XCTAssertEqual(listing.removedStale, 0)
        XCTAssertTrue(fileExists(directory.appendingPathComponent("\(hex).sock")))
        XCTAssertTrue(fileExists(other))

        XCTAssertEqual(AgentDirectory.vaultID(hex: hex), vaultID)
        for bad in [hex.uppercased(), String(hex.dropLast()), hex + "0", String(hex.dropLast()) + "g"] {
            XCTAssertNil(AgentDirectory.vaultID(hex: bad), bad)
        }
    }

    func testADirectoryOpenToOthersIsRefused() throws {
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        XCTAssertThrowsError(try AgentDirectory.list(in: directory)) { error in
            guard case AgentError.insecureDirectory = error else { return XCTFail("\(error)") }
        }
    }
}
