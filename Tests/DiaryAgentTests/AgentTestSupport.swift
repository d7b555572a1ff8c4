import DiaryCrypto
import Foundation
import Glibc
import XCTest

@testable import DiaryAgent

/// A private (0700) temporary directory with a short path, removed by `remove()`.
/// Short because a socket path must fit in 108 bytes.
func makeTemporaryDirectory() throws -> URL {
    var template = Array("/tmp/dat-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw AgentError.lastSystemError("mkdtemp") }
    return URL(fileURLWithPath: String(cString: made), isDirectory: true)
}

/// A key with distinct bytes, so a test can tell keys apart.
func makeKey(_ seed: UInt8, count: Int = 32) throws -> SecretBytes {
    try SecretBytes(count: count) { buffer in
        for index in 0..<count { buffer[index] = seed &+ UInt8(truncatingIfNeeded: index) }
    }
}

/// The lowercase hex of `key`, to look for it in raw replies.
func hex(of key: SecretBytes) -> String {
    key.withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
}

/// Thread-safe storage for a value set by the agent thread.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); defer { lock.unlock() }; stored = newValue }
    }
}

/// An agent running on a background thread of the test process.
final class RunningAgent: @unchecked Sendable {
    let socketURL: URL
    let vaultID: UUID
    private let finished = DispatchSemaphore(value: 0)
    private let outcome = Locked<Result<AgentExitReason, Error>?>(nil)

    /// Starts an agent and waits until it listens; throws what `run` threw if it failed first.
    convenience init(
        socketURL: URL, idle: TimeInterval = 30, maximum: TimeInterval = 60,
        key: SecretBytes, generation: UInt32 = 1, vaultID: UUID = UUID(),
        insecureTestPermissions: Bool = false
    ) throws {
        var config = AgentConfig(idleTimeout: idle, maximumLifetime: maximum, socketURL: socketURL)
        config.insecureTestPermissions = insecureTestPermissions
        try self.init(config: config, key: key, generation: generation, vaultID: vaultID)
    }

    /// Starts an agent with `config` (its `onReady` is replaced) and waits until it listens.
    init(config: AgentConfig, key: SecretBytes, generation: UInt32 = 1, vaultID: UUID = UUID()) throws {
        self.socketURL = config.socketURL
        self.vaultID = vaultID
        let ready = DispatchSemaphore(value: 0)
        var config = config
        config.onReady = { ready.signal() }
        let settled = config
        let outcome = self.outcome, finished = self.finished
        let thread = Thread {
            do {
                outcome.value = .success(
                    try AgentServer.run(
                        config: settled, key: key, generation: generation, vaultID: vaultID))
            } catch {
                outcome.value = .failure(error)
            }
            finished.signal()
            ready.signal()
        }
        thread.start()
        guard ready.wait(timeout: .now() + 10) == .success else { throw AgentError.timedOut }
        if case .failure(let error)? = outcome.value { throw error }
    }

    /// Waits for `run` to return; nil when it is still running after `timeout` seconds.
    func waitForExit(timeout: TimeInterval) -> Result<AgentExitReason, Error>? {
        guard finished.wait(timeout: .now() + timeout) == .success else { return nil }
        finished.signal()  // Let later callers see the outcome too.
        return outcome.value
    }

    /// Locks the agent if it still runs; for test teardown.
    func stop() {
        _ = try? AgentClient(socketURL: socketURL).lock()
        _ = waitForExit(timeout: 5)
    }
}

/// A raw connection for sending arbitrary bytes and reading reply lines.
final class RawConnection {
    let fd: Int32
    private let reader = LineReader()

    init(path: String) throws {
        guard let fd = try UnixSocket.connect(to: path, deadline: Clock.now() + 2) else {
            throw AgentError.notRunning(path: path)
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        try UnixSocket.sendAll(fd, Array(text.utf8), deadline: Clock.now() + 2)
    }

    /// The next reply line as text, or nil when the agent closed the connection.
    func readLine(timeout: TimeInterval = 2) throws -> String? {
        let deadline = Clock.now() + timeout
        while true {
            if let line = reader.withNextLine({ String(decoding: $0, as: UTF8.self) }) { return line }
            switch try reader.fill(from: fd) {
            case .data: continue
            case .endOfFile: return nil
            case .wouldBlock: try UnixSocket.wait(fd, for: Int16(POLLIN), deadline: deadline)
            }
        }
    }
}

func fileExists(_ url: URL) -> Bool {
    var info = stat()
    return lstat(url.path, &info) == 0
}
