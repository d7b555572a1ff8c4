import ArgumentParser
import DiaryAgent
import DiaryApp
import Foundation

/// `diary agent`: the unlock agent process itself. Hidden: `diary unlock` starts it.
///
/// It reads exactly `--key-bytes` raw key bytes from stdin (a pipe from `unlock`), then serves
/// the key on the vault's socket until lock, idle timeout, maximum lifetime or a signal.
struct AgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent",
        abstract: "Run the unlock agent (started by `diary unlock`; reads the key from stdin).",
        discussion: """
            Not for direct use. The key arrives as raw bytes on stdin, never as an argument.

            EXAMPLE
              (started by) diary unlock
            """,
        shouldDisplay: false)

    @Option var vaultId: String
    @Option var generation: UInt32
    @Option var keyBytes: Int = 32
    @Option var timeout: Double
    @Option var max: Double
    /// The vault's path follows the key on stdin, this many bytes of it (0: none).
    @Option var vaultPathBytes: Int = 0

    func run() throws {
        guard let vaultID = UUID(uuidString: vaultId) else { throw ValidationError("--vault-id is not a UUID") }
        // A daemon must not keep the caller's directory busy (an unmountable USB stick).
        _ = chdir("/")
        // Harden before the key enters this process: no core dump, no ptrace by the same user.
        try ProcessHardening.apply()
        var config = AgentConfig(
            idleTimeout: timeout, maximumLifetime: max,
            socketURL: try UnlockAgent(environment: DiaryEnvironment()).socketURL(for: vaultID))
        if let requestTimeout = Self.testRequestTimeout { config.requestTimeout = requestTimeout }
        // The key is passed inline so the server's reference is the only one; the path
        // follows it on stdin.
        let key = try KeyHandoff.read(from: STDIN_FILENO, byteCount: keyBytes)
        if vaultPathBytes > 0 {
            config.vaultPath = try KeyHandoff.readPath(from: STDIN_FILENO, byteCount: vaultPathBytes)
        }
        try AgentServer.run(config: config, key: key, generation: generation, vaultID: vaultID)
    }

    /// `DIARY_TEST_AGENT_REQUEST_TIMEOUT=SECONDS`: TEST ONLY (CONTRIBUTING.md, Test-only switches). How long the
    /// agent keeps a connection, so a test can hold every slot longer than a client retries.
    /// Only the same user can set it, and that user can already end their own agent.
    private static var testRequestTimeout: TimeInterval? {
        guard let text = ProcessInfo.processInfo.environment["DIARY_TEST_AGENT_REQUEST_TIMEOUT"],
            let seconds = TimeInterval(text), seconds > 0, seconds <= 60
        else { return nil }
        return seconds
    }
}
