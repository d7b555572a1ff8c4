import DiaryCrypto
import Foundation
import Glibc
import XCTest

@testable import DiaryAgent

/// Who may reach the agent, and what the agent refuses to start on.
final class AgentSecurityTests: AgentSocketTestCase {
    // MARK: other users

    /// Runs `script` with /usr/bin/python3 as `nobody`; returns its stdout.
    private func runAsNobody(_ script: String, wait: Bool = true) throws -> (Process, Pipe) {
        guard geteuid() == 0 else { throw XCTSkip("needs root to switch to another uid") }
        let setpriv = "/usr/bin/setpriv", python = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: setpriv),
            FileManager.default.isExecutableFile(atPath: python)
        else { throw XCTSkip("needs \(setpriv) and \(python)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", python, "-c", script]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        if wait { process.waitUntilExit() }
        return (process, output)
    }

    private func output(of pipe: Pipe) -> String {
        String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    private func getScript(_ path: String) -> String {
        """
        import socket
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        try:
            s.connect("\(path)")
        except PermissionError:
            print("denied"); raise SystemExit
        try:
            s.sendall(b'{"v":1,"op":"get"}\\n')
        except (BrokenPipeError, ConnectionResetError):
            pass  # The agent may refuse and close before our request is even sent.
        data = b""
        while True:
            try:
                chunk = s.recv(4096)
            except ConnectionResetError:
                break  # The agent closed without reading our request: fine, it said no.
            if not chunk: break
            data += chunk
        print("reply:" + data.decode())
        """
    }

    func testPeerOfAnotherUserIsRefusedBySOPeerCred() throws {
        // Open the directory and socket to everyone, so only SO_PEERCRED stands in the way.
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        let key = try makeKey(42)
        let agent = try RunningAgent(socketURL: socketURL, key: key, insecureTestPermissions: true)
        defer { agent.stop() }
        let (_, pipe) = try runAsNobody(getScript(socketURL.path))
        let text = output(of: pipe)
        XCTAssertTrue(text.hasPrefix("reply:"), "nobody could not connect: \(text)")  // It did connect…
        XCTAssertTrue(text.contains(#""ok":false"#), text)  // …and was told no…
        XCTAssertFalse(text.contains("key"), text)  // …without any key material.
        XCTAssertFalse(text.contains(hex(of: key)), text)
        // The agent still serves its own user.
        XCTAssertEqual(try AgentClient(socketURL: socketURL).fetchKey()?.key, key)
    }

    func testAnotherUserCannotEvenConnectWithNormalPermissions() throws {
        // A traversable parent, so it is the agent's own 0700 directory and 0600 socket that stop nobody.
        let runtime = directory.appendingPathComponent("rt")
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        try AgentPaths.ensurePrivateDirectory(runtime)
        let socket = runtime.appendingPathComponent("agent.sock")
        let agent = try RunningAgent(socketURL: socket, key: try makeKey(1))
        defer { agent.stop() }
        let (_, pipe) = try runAsNobody(getScript(socket.path))
        XCTAssertEqual(output(of: pipe), "denied\n")
    }

    func testClientRefusesAnAgentRunByAnotherUser() throws {
        // Someone else's listener where ours should be: the client must not send or trust anything.
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        let script = """
            import socket, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind("\(socketURL.path)"); s.listen(4)
            print("ready", flush=True)
            time.sleep(10)
            """
        let (process, pipe) = try runAsNobody(script, wait: false)
        defer { process.terminate(); process.waitUntilExit() }
        XCTAssertEqual(String(decoding: pipe.fileHandleForReading.readData(ofLength: 6), as: UTF8.self), "ready\n")
        XCTAssertThrowsError(try AgentClient(socketURL: socketURL).setKey(try makeKey(1), generation: 1)) { error in
            XCTAssertEqual(error as? AgentError, .peerNotOwner(uid: 65534))
        }
    }

    // MARK: starting up

    func testStaleSocketFileIsReplaced() throws {
        // A socket file whose listener is gone: connecting to it is refused.
        let fd = try UnixSocket.make()
        XCTAssertEqual(try UnixSocket.withAddress(socketURL.path) { bind(fd, $0, $1) }, 0)
        close(fd)
        XCTAssertTrue(fileExists(socketURL))
        let key = try makeKey(8)
        let agent = try RunningAgent(socketURL: socketURL, key: key)
        defer { agent.stop() }
        XCTAssertEqual(try AgentClient(socketURL: socketURL).fetchKey()?.key, key)
    }

    func testSecondAgentForTheSameVaultIsRefused() throws {
        let key = try makeKey(8)
        let first = try RunningAgent(socketURL: socketURL, key: key)
        defer { first.stop() }
        XCTAssertThrowsError(try RunningAgent(socketURL: socketURL, key: try makeKey(9))) { error in
            XCTAssertEqual(error as? AgentError, .alreadyRunning(path: socketURL.path))
        }
        XCTAssertEqual(try AgentClient(socketURL: socketURL).fetchKey()?.key, key)
    }

    func testLiveListenerWithoutTheLockIsNotReplaced() throws {
        let fd = try UnixSocket.make()
        defer { close(fd) }
        XCTAssertEqual(try UnixSocket.withAddress(socketURL.path) { bind(fd, $0, $1) }, 0)
        XCTAssertEqual(listen(fd, 4), 0)
        XCTAssertThrowsError(try RunningAgent(socketURL: socketURL, key: try makeKey(9))) { error in
            XCTAssertEqual(error as? AgentError, .alreadyRunning(path: socketURL.path))
        }
        XCTAssertTrue(fileExists(socketURL))
    }

    func testFileThatIsNotASocketIsLeftAlone() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: socketURL.path, contents: Data("mine".utf8)))
        XCTAssertThrowsError(try RunningAgent(socketURL: socketURL, key: try makeKey(9))) { error in
            XCTAssertEqual(error as? AgentError, .notASocket(path: socketURL.path))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: socketURL.path), Data("mine".utf8))
    }

    func testAgentRefusesASocketDirectoryOthersCanEnter() throws {
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        XCTAssertThrowsError(try RunningAgent(socketURL: socketURL, key: try makeKey(9))) { error in
            guard case AgentError.insecureDirectory(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, directory.path)
        }
        XCTAssertFalse(fileExists(socketURL))
    }

    // MARK: the runtime directory

    func testRuntimeDirectoryIsCreatedPrivateUnderXDGRuntimeDir() throws {
        let runtime = try AgentPaths.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": directory.path])
        XCTAssertEqual(runtime.path, directory.appendingPathComponent("diary").path)
        var info = stat()
        XCTAssertEqual(lstat(runtime.path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        let vault = UUID(uuidString: "0A1B2C3D-4E5F-6071-8293-A4B5C6D7E8F9")!
        XCTAssertEqual(
            AgentPaths.socketURL(vaultID: vault, in: runtime).lastPathComponent,
            "0a1b2c3d4e5f60718293a4b5c6d7e8f9.sock")
    }

    func testRuntimeDirectoryFallsBackToTmpWithoutXDG() throws {
        let runtime = try AgentPaths.runtimeDirectory(environment: [:])
        XCTAssertEqual(runtime.path, "/tmp/diary-\(geteuid())")
    }

    func testRuntimeDirectoryWithGroupOrWorldAccessIsRefused() throws {
        let runtime = directory.appendingPathComponent("diary")
        XCTAssertEqual(mkdir(runtime.path, 0o700), 0)
        XCTAssertEqual(chmod(runtime.path, 0o750), 0)
        XCTAssertThrowsError(try AgentPaths.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": directory.path])) {
            error in
            guard case AgentError.insecureDirectory(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("750"), reason)
        }
    }

    func testRuntimeDirectoryOwnedByAnotherUserIsRefused() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to chown") }
        let runtime = directory.appendingPathComponent("diary")
        XCTAssertEqual(mkdir(runtime.path, 0o700), 0)
        XCTAssertEqual(chown(runtime.path, 65534, 65534), 0)
        XCTAssertThrowsError(try AgentPaths.ensurePrivateDirectory(runtime)) { error in
            guard case AgentError.insecureDirectory(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("owned by uid 65534"), reason)
        }
    }

    func testRuntimeDirectoryThatIsASymlinkIsRefused() throws {
        let target = directory.appendingPathComponent("elsewhere")
        XCTAssertEqual(mkdir(target.path, 0o700), 0)
        XCTAssertEqual(symlink(target.path, directory.appendingPathComponent("diary").path), 0)
        XCTAssertThrowsError(try AgentPaths.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": directory.path])) {
            error in
            XCTAssertEqual(
                error as? AgentError,
                .insecureDirectory(
                    path: directory.appendingPathComponent("diary").path,
                    reason: "it is a symbolic link"))
        }
    }
}
