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
        let paths = Dictionary(uniqueKeysWithValues: listing.running.map { ($0.vaultID, $0.status.vaultPath) })
        XCTAssertEqual(paths.count, 3)
        XCTAssertEqual(paths[first], "/home/me/diary")
        XCTAssertEqual(paths[second], "/media/stick/\"odd\"\nname ✓")
        XCTAssertEqual(paths[older], .some(String?.none))
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
        XCTAssertFalse(fileExists(URL(fileURLWithPath: stale.path + ".lock")), "removed with its socket")
        XCTAssertTrue(fileExists(URL(fileURLWithPath: starting.path + ".lock")))
    }

    /// No lock file outlives its agent: one that ends removes its own, and a lock file with no
    /// socket beside it (an agent killed before it bound) is removed unless it is held.
    func testLockFilesDoNotOutliveTheirAgents() throws {
        let vaultID = UUID()
        try start(vaultID, path: "/v/one")
        let socket = AgentPaths.socketURL(vaultID: vaultID, in: directory)
        XCTAssertTrue(fileExists(URL(fileURLWithPath: socket.path + ".lock")), "held while it runs")
        agents.removeLast().stop()
        XCTAssertFalse(fileExists(socket))
        XCTAssertFalse(fileExists(URL(fileURLWithPath: socket.path + ".lock")), "removed as it ends")

        let orphan = AgentPaths.socketURL(vaultID: UUID(), in: directory).path + ".lock"
        let held = AgentPaths.socketURL(vaultID: UUID(), in: directory).path + ".lock"
        XCTAssertTrue(FileManager.default.createFile(atPath: orphan, contents: nil))
        let lock = open(held, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        _ = try AgentDirectory.list(in: directory)
        XCTAssertFalse(fileExists(URL(fileURLWithPath: orphan)))
        XCTAssertTrue(fileExists(URL(fileURLWithPath: held)), "an agent starting up holds it")

        // An agent can start again once its lock file is gone.
        try start(vaultID, path: "/v/one")
        XCTAssertEqual(try AgentDirectory.list(in: directory).running.map(\.vaultID), [vaultID])
    }

    /// A starting agent waits out a lock taken for a moment (by a `status` removing a stale
    /// socket or lock file) rather than report an agent running.
    func testAnAgentStartsWhileItsLockIsHeldForAMoment() throws {
        let vaultID = UUID()
        let lockPath = AgentPaths.socketURL(vaultID: vaultID, in: directory).path + ".lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        let released = Thread {
            usleep(300_000)
            close(lock)
        }
        released.start()
        try start(vaultID, path: "/v/waited")
        XCTAssertEqual(try AgentDirectory.list(in: directory).running.map(\.vaultID), [vaultID])
    }

    /// A socket that accepts but never answers is unresponsive, and one that answers junk is
    /// not an agent: neither is listed as a vault, named by a vault id made up from its file
    /// name, and neither is removed (something listens on both).
    func testSocketsThatDoNotAnswerAsAgentsAreLeftAlone() throws {
        let silent = AgentPaths.socketURL(vaultID: UUID(), in: directory)
        let junk = AgentPaths.socketURL(vaultID: UUID(), in: directory)
        let silentFD = try listen(on: silent)
        defer { close(silentFD) }
        let junkFD = try listen(on: junk)
        let server = Thread {
            while true {
                let client = accept(junkFD, nil, nil)
                if client < 0 { return }
                _ = "{\"hello\": 1}\n".withCString { write(client, $0, strlen($0)) }
                close(client)
            }
        }
        server.start()
        defer { shutdown(junkFD, Int32(SHUT_RDWR)); close(junkFD) }

        let listing = try AgentDirectory.list(in: directory, timeout: 0.5)
        XCTAssertTrue(listing.running.isEmpty)
        XCTAssertEqual(listing.busy, [])
        XCTAssertEqual(listing.unresponsive, [silent])
        XCTAssertEqual(listing.notAgents, [junk])
        XCTAssertEqual(listing.removedStale, 0)
        XCTAssertTrue(fileExists(silent))
        XCTAssertTrue(fileExists(junk))
    }

    /// A listening socket at `url` that never accepts.
    private func listen(on url: URL) throws -> Int32 {
        let fd = try UnixSocket.make()
        XCTAssertEqual(try UnixSocket.withAddress(url.path) { bind(fd, $0, $1) }, 0)
        XCTAssertEqual(Glibc.listen(fd, 4), 0)
        return fd
    }

    /// Every directory is searched: a missing one is skipped, one open to others is refused
    /// (and named), and a socket reached through two directories is asked once.
    func testEveryDirectoryIsSearchedEachSocketOnce() throws {
        let here = UUID(), there = UUID()
        try start(here, path: "/v/here")
        let other = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: other) }
        var config = AgentConfig(
            idleTimeout: 30, maximumLifetime: 60, socketURL: AgentPaths.socketURL(vaultID: there, in: other))
        config.vaultPath = "/v/there"
        agents.append(try RunningAgent(config: config, key: try makeKey(9), vaultID: there))
        let hereSocket = AgentPaths.socketURL(vaultID: here, in: directory)
        XCTAssertEqual(link(hereSocket.path, AgentPaths.socketURL(vaultID: here, in: other).path), 0)
        let openToOthers = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: openToOthers) }
        XCTAssertEqual(chmod(openToOthers.path, 0o755), 0)

        let missing = directory.appendingPathComponent("missing")
        let listing = try AgentDirectory.list(in: [directory, missing, other, openToOthers])
        XCTAssertEqual(listing.running.map(\.vaultID), [here, there])
        XCTAssertEqual(listing.running.map(\.socketURL.path), [hereSocket.path, config.socketURL.path])
        XCTAssertEqual(listing.refused.count, 1)
        guard case .insecureDirectory(let path, _)? = listing.refused.first else { return XCTFail() }
        XCTAssertEqual(path, openToOthers.path)
    }

    /// Where agents are looked for: this shell's directory first, then both places one started
    /// without XDG_RUNTIME_DIR may be; the test variable stands for both.
    func testAgentDirectoriesCoverEveryPlaceAnAgentMayLive() throws {
        let uid = geteuid()
        XCTAssertEqual(
            AgentPaths.agentDirectories(environment: [:]).map(\.path), ["/run/user/\(uid)/diary", "/tmp/diary-\(uid)"])
        XCTAssertEqual(
            AgentPaths.agentDirectories(environment: ["XDG_RUNTIME_DIR": directory.path]).map(\.path),
            [directory.path + "/diary", "/run/user/\(uid)/diary", "/tmp/diary-\(uid)"])
        let test = directory.appendingPathComponent("fallback").path
        let environment = ["XDG_RUNTIME_DIR": directory.path, "DIARY_TEST_FALLBACK_RUNTIME_DIR": test]
        XCTAssertEqual(
            AgentPaths.agentDirectories(environment: environment).map(\.path), [directory.path + "/diary", test])
        XCTAssertEqual(
            try AgentPaths.searchDirectories(environment: environment).map(\.path), [directory.path + "/diary", test])
        XCTAssertEqual(
            try AgentPaths.searchDirectories(environment: ["DIARY_TEST_FALLBACK_RUNTIME_DIR": test]).map(\.path), [test]
        )
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
