import DiaryAgent
import DiaryCrypto
import Foundation

/// What the unlock agent said when asked for a vault's key.
public enum AgentKeyAnswer {
    /// The key it holds, of this generation, for this vault.
    case key(SecretBytes, generation: UInt32, vaultID: UUID)
    /// An agent listens but every slot stayed taken (or it did not answer in time).
    case busy
    /// No agent, or one that could not be asked.
    case unavailable
}

/// The session's line to the unlock agent of a vault (a fake one in tests).
public protocol UnlockAgentLink {
    /// The key the agent of `vaultID` holds, if one runs.
    func fetchKey(vaultID: UUID) -> AgentKeyAnswer

    /// Gives a running agent of `vaultID` a new key (after a key rotation); false when no agent
    /// of this vault runs.
    func handOver(_ key: SecretBytes, generation: UInt32, vaultID: UUID) throws -> Bool
}

/// The real agent, reached on its socket in the user's runtime directory.
public struct UnlockAgent: UnlockAgentLink {
    let environment: DiaryEnvironment

    public init(environment: DiaryEnvironment) { self.environment = environment }

    /// The client of `vaultID`'s agent (whether or not one runs); throws when the runtime
    /// directory cannot be used.
    public func client(for vaultID: UUID) throws -> AgentClient {
        AgentClient(socketURL: try socketURL(for: vaultID))
    }

    /// The socket of `vaultID`'s agent, in the user's private runtime directory (created 0700
    /// if missing; `AgentPaths` checks it).
    public func socketURL(for vaultID: UUID) throws -> URL {
        let directory = try AgentPaths.runtimeDirectory(environment: environment.variables)
        return AgentPaths.socketURL(vaultID: vaultID, in: directory)
    }

    public func fetchKey(vaultID: UUID) -> AgentKeyAnswer {
        guard let client = try? client(for: vaultID) else { return .unavailable }
        do {
            guard let held = try client.fetchKey() else { return .unavailable }
            return .key(held.key, generation: held.generation, vaultID: held.vaultID)
        } catch AgentError.busy, AgentError.timedOut {
            return .busy
        } catch {
            return .unavailable
        }
    }

    public func handOver(_ key: SecretBytes, generation: UInt32, vaultID: UUID) throws -> Bool {
        let client = try client(for: vaultID)
        guard let status = try? client.status(), status.vaultID == vaultID else { return false }
        try client.setKey(key, generation: generation)
        return true
    }
}
