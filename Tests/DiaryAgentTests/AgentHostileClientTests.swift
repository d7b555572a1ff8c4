import DiaryCrypto
import Foundation
import Glibc
import XCTest

@testable import DiaryAgent

/// Same-uid clients that misbehave: pipelining requests to outlive the timers, and holding
/// connection slots to lock everyone else out.
final class AgentHostileClientTests: AgentSocketTestCase {
    func testPipelinedRequestsAreNotAnsweredAfterTheMaximumLifetime() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 60, maximum: 1, key: try makeKey(1))
        defer { agent.stop() }
        // The agent started before this moment, so its maximum is over by `started + 1`.
        let started = Clock.now()
        let replies = try flood(#"{"v":1,"op":"get"}"#, for: 4)
        XCTAssertGreaterThan(replies.count, 0, "the agent answered nothing before its maximum")
        // Allow for a reply sent just before the deadline and read a moment later, nothing more.
        let late = replies.filter { $0 > started + 1.25 }
        XCTAssertEqual(late.count, 0, "\(late.count) keys handed out after the maximum lifetime")
        guard case .success(.maximumLifetime)? = agent.waitForExit(timeout: 5) else { return XCTFail("wrong exit") }
    }

    func testPipelinedStatusRequestsAreNotAnsweredAfterTheIdleTimeout() throws {
        let agent = try RunningAgent(socketURL: socketURL, idle: 1, maximum: 60, key: try makeKey(1))
        defer { agent.stop() }
        // `status` does not count as use, so the idle timer runs out under the flood.
        let started = Clock.now()
        let replies = try flood(#"{"v":1,"op":"status"}"#, for: 4)
        XCTAssertGreaterThan(replies.count, 0)
        let late = replies.filter { $0 > started + 1.25 }
        XCTAssertEqual(late.count, 0, "\(late.count) requests answered after the idle timeout")
        guard case .success(.idleTimeout)? = agent.waitForExit(timeout: 5) else { return XCTFail("wrong exit") }
    }

    func testSilentConnectionsCannotHoldEverySlotForLong() throws {
        let agent = try RunningAgent(socketURL: socketURL, key: try makeKey(1))
        defer { agent.stop() }
        let hogs = try (0..<AgentServer.maximumConnections).map { _ in try RawConnection(path: socketURL.path) }
        // Every slot is taken by a client that sends nothing; they are dropped at the request
        // deadline, and a real client retries until then instead of giving up.
        XCTAssertLessThan(AgentConfig.defaultRequestTimeout, 2)
        let status = try AgentClient(socketURL: socketURL, timeout: 4).status()
        XCTAssertEqual(status?.vaultID, agent.vaultID)
        withExtendedLifetime(hogs) {}
    }

    func testConnectionsThatKeepTalkingAreStillClosedAtTheRequestDeadline() throws {
        var config = AgentConfig(idleTimeout: 60, maximumLifetime: 60, socketURL: socketURL)
        config.requestTimeout = 0.3
        let agent = try RunningAgent(config: config, key: try makeKey(1))
        defer { agent.stop() }
        let connection = try RawConnection(path: socketURL.path)
        var closed = false
        for _ in 0..<40 where !closed {
            try? connection.send(#"{"v":1,"op":"status"}"# + "\n")
            closed = (try? connection.readLine()) == nil
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertTrue(closed, "a talkative connection kept its slot past the request deadline")
    }

    func testAFullAgentSaysItIsBusy() throws {
        var config = AgentConfig(idleTimeout: 60, maximumLifetime: 60, socketURL: socketURL)
        config.requestTimeout = 30
        let agent = try RunningAgent(config: config, key: try makeKey(1))
        defer { agent.stop() }
        let hogs = try (0..<AgentServer.maximumConnections).map { _ in try RawConnection(path: socketURL.path) }
        XCTAssertThrowsError(try AgentClient(socketURL: socketURL, timeout: 0.3).fetchKey()) { error in
            XCTAssertEqual(error as? AgentError, .busy)
        }
        withExtendedLifetime(hogs) {}
    }

    /// Pipelines `request` on one connection as fast as the agent takes it, for at most
    /// `seconds`, and returns when (`Clock.now()`) each successful reply arrived.
    private func flood(_ request: String, for seconds: TimeInterval) throws -> [Double] {
        let connection = try RawConnection(path: socketURL.path)
        let stop = Locked(false)
        let batch = Array(String(repeating: request + "\n", count: 200).utf8)
        let fd = connection.fd
        let writer = Thread {
            let end = Clock.now() + seconds
            while !stop.value, Clock.now() < end {
                do { try UnixSocket.sendAll(fd, batch, deadline: Clock.now() + 1) } catch { break }
            }
        }
        writer.start()
        defer { stop.value = true }
        var arrivals: [Double] = []
        let reader = LineReader()
        let end = Clock.now() + seconds + 1
        reading: while Clock.now() < end {
            while let reply = reader.withNextLine({ try? AgentReply.parse($0) }) {
                if reply?.status != nil { arrivals.append(Clock.now()) }
            }
            let fill: LineReader.Fill
            do { fill = try reader.fill(from: connection.fd) } catch { break }
            switch fill {
            case .data: continue
            case .endOfFile: break reading
            case .wouldBlock: try? UnixSocket.wait(connection.fd, for: Int16(POLLIN), deadline: Clock.now() + 0.5)
            }
        }
        stop.value = true
        withExtendedLifetime(connection) {}
        return arrivals
    }
}
