import DiaryCrypto
import Foundation
import Glibc
import XCTest

@testable import DiaryAgent

/// The agent and its client over a real socket: round trips, timers, bad input, signals.
final class AgentServerTests: AgentSocketTestCase {
    func testGetReturnsTheKeyGenerationAndVault() throws {
        let key = try makeKey(1)
        let agent = try RunningAgent(socketURL: socketURL, key: key, generation: 4)
        defer { agent.stop() }
        let fetched = try XCTUnwrap(try AgentClient(socketURL: socketURL).fetchKey())
        XCTAssertEqual(fetched.key, key)
        XCTAssertEqual(fetched.generation, 4)
        XCTAssertEqual(fetched.vaultID, agent.vaultID)
    }

    func testSocketFileIsPrivate() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1))
        defer { agent.stop() }
        var info = stat()
        XCTAssertEqual(lstat(socketURL.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
    }

    func testStatusDoesNotRestartTheIdleTimerButGetDoes() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 5, maximum: 60, key: try makeKey(1), generation: 2)
        defer { agent.stop() }
        let client = AgentClient(socketURL: socketURL)
        Thread.sleep(forTimeInterval: 0.4)
        let before = try XCTUnwrap(try client.status())
        XCTAssertEqual(before.vaultID, agent.vaultID)
        XCTAssertEqual(before.generation, 2)
        XCTAssertLessThan(before.idleRemaining, 4.8)
        XCTAssertLessThan(before.maxRemaining, 59.8)
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertLessThan(try XCTUnwrap(try client.status()).idleRemaining, before.idleRemaining)
        _ = try client.fetchKey()
        XCTAssertGreaterThan(try XCTUnwrap(try client.status()).idleRemaining, 4.8)
    }

    func testLockEndsTheSessionAndRemovesTheSocket() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1))
        let client = AgentClient(socketURL: socketURL)
        XCTAssertTrue(try client.lock())
        guard case .success(.locked)? = agent.waitForExit(timeout: 5) else { return XCTFail("agent did not lock") }
        XCTAssertFalse(fileExists(socketURL))
        XCTAssertNil(try client.fetchKey())
        XCTAssertNil(try client.status())
        XCTAssertFalse(try client.lock())
    }

    func testClientWithoutAgentReportsNothingRunning() throws {
        let client = AgentClient(socketURL: socketURL)
        XCTAssertNil(try client.fetchKey())
        XCTAssertNil(try client.status())
        XCTAssertFalse(try client.lock())
        XCTAssertThrowsError(try client.setKey(try makeKey(1), generation: 2)) { error in
            XCTAssertEqual(error as? AgentError, .notRunning(path: socketURL.path))
        }
    }

    func testSetReplacesTheKeyAndGeneration() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1), generation: 1)
        defer { agent.stop() }
        let client = AgentClient(socketURL: socketURL)
        let rotated = try makeKey(99)
        try client.setKey(rotated, generation: 2)
        let fetched = try XCTUnwrap(try client.fetchKey())
        XCTAssertEqual(fetched.key, rotated)
        XCTAssertEqual(fetched.generation, 2)
        XCTAssertThrowsError(try client.setKey(try makeKey(5, count: 16), generation: 3)) { error in
            XCTAssertEqual(error as? AgentError, .refused("key length mismatch"))
        }
        XCTAssertEqual(try client.fetchKey()?.key, rotated)
    }

    func testBadLinesGetAnErrorReplyAndTheAgentKeepsServing() throws {
        let key = try makeKey(3)
        let agent = try RunningAgent(socketURL: socketURL, key: key)
        defer { agent.stop() }
        let connection = try RawConnection(path: socketURL.path)
        let cases = [
            #"{"v":2,"op":"get"}"#: "unsupported protocol version 2",
            "hello there": "malformed request",
            #"{"v":1,"op":"fly"}"#: "unknown op fly",
            "\u{00}\u{ff}\u{fe}": "malformed request",
        ]
        for (request, message) in cases {
            try connection.send(request + "\n")
            let reply = try XCTUnwrap(try connection.readLine(), request)
            XCTAssertEqual(reply, #"{"v":1,"ok":false,"error":"\#(message)"}"#)
            XCTAssertFalse(reply.contains(hex(of: key)))
        }
        // The same connection, and a new one, still work.
        try connection.send(#"{"v":1,"op":"get"}"# + "\n")
        XCTAssertTrue(try XCTUnwrap(try connection.readLine()).contains(#""key":"\#(hex(of: key))""#))
        XCTAssertEqual(try AgentClient(socketURL: socketURL).fetchKey()?.key, key)
    }

    func testOverlongLineIsRefusedAndTheConnectionClosed() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(3))
        defer { agent.stop() }
        let connection = try RawConnection(path: socketURL.path)
        try connection.send(String(repeating: "a", count: AgentProtocol.maximumLineLength + 10))
        XCTAssertEqual(try connection.readLine(), #"{"v":1,"ok":false,"error":"request too long"}"#)
        // Closed: end of file, or a reset because the rest of the line was never read.
        do {
            let after = try connection.readLine()
            XCTAssertNil(after)
        } catch AgentError.system(_, ECONNRESET) {}
        XCTAssertNotNil(try AgentClient(socketURL: socketURL).status())
    }

    func testIdleTimeoutEndsTheAgentAndRemovesTheSocket() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 0.5, maximum: 60, key: try makeKey(1))
        let started = Date()
        guard case .success(.idleTimeout)? = agent.waitForExit(timeout: 5) else { return XCTFail("no idle timeout") }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.45)
        XCTAssertFalse(fileExists(socketURL))
        XCTAssertNil(try AgentClient(socketURL: socketURL).fetchKey())
    }

    func testUseKeepsTheAgentAlivePastTheIdleTimeout() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 0.6, maximum: 60, key: try makeKey(1))
        let client = AgentClient(socketURL: socketURL)
        for _ in 0..<8 {
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertNotNil(try client.fetchKey())
        }
        guard case .success(.idleTimeout)? = agent.waitForExit(timeout: 5) else { return XCTFail("no idle timeout") }
    }

    func testMaximumLifetimeIsEnforcedDespiteActivity() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 0.5, maximum: 1.2, key: try makeKey(1))
        let client = AgentClient(socketURL: socketURL)
        let started = Date()
        while try client.fetchKey() != nil {
            XCTAssertLessThan(Date().timeIntervalSince(started), 3, "the agent outlived its maximum")
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1.0)
        guard case .success(.maximumLifetime)? = agent.waitForExit(timeout: 5) else { return XCTFail("wrong exit") }
        XCTAssertFalse(fileExists(socketURL))
    }

    func testTerminationSignalEndsTheSession() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1))
        XCTAssertEqual(kill(getpid(), SIGTERM), 0)
        guard case .success(.signal(SIGTERM))? = agent.waitForExit(timeout: 5) else { return XCTFail("no signal exit") }
        XCTAssertFalse(fileExists(socketURL))
    }

    func testRunningAgentDisablesCoreDumpsAndPtrace() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1))
        defer { agent.stop() }
        var limit = rlimit()
        XCTAssertEqual(getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &limit), 0)
        XCTAssertEqual(limit.rlim_cur, 0)
        XCTAssertFalse(ProcessHardening.isDumpable)
    }

    func testHungAgentTimesTheClientOut() throws {
        // A listener that never accepts: connect succeeds through the backlog, no reply comes.
        let fd = try UnixSocket.make()
        defer { close(fd) }
        XCTAssertEqual(try UnixSocket.withAddress(socketURL.path) { bind(fd, $0, $1) }, 0)
        XCTAssertEqual(listen(fd, 4), 0)
        let started = Date()
        XCTAssertThrowsError(try AgentClient(socketURL: socketURL, timeout: 0.3).fetchKey()) { error in
            XCTAssertEqual(error as? AgentError, .timedOut)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
    }
}
