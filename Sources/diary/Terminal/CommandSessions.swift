import DiaryAgent
import DiaryApp
import DiaryCrypto
import Foundation

/// The sessions this command started, so that `main.swift` finishes each one when the command
/// ends (one command runs on one thread; this is touched only from it).
enum CommandSessions {
    nonisolated(unsafe) private static var started: [DiarySession] = []

    static func start(_ session: DiarySession) -> DiarySession {
        started.append(session)
        return session
    }

    /// After a command that ran to its end: see `DiarySession.finish`.
    static func finish() throws {
        for session in started { try session.finish() }
        started.removeAll()
    }

    /// After a command that failed.
    static func finishAfterFailure() {
        for session in started { session.finishAfterFailure() }
        started.removeAll()
    }
}

extension GlobalOptions {
    /// The session of the vault this command names (`--vault`, `-j`, else the environment's or
    /// the config's), or of `directory` when a command argument names one; finished by
    /// `main.swift`.
    func session(directory: URL? = nil) -> DiarySession {
        CommandSessions.start(
            DiarySession(
                directory: directory ?? vaultURL, vaultOption: vault, passphraseFileOption: passphraseFile,
                asker: TerminalAsker(), events: AppEventWords.say))
    }

    /// A session that takes the key from the unlock agent only: no passphrase file (option or
    /// environment) and nobody to ask, so a locked vault fails at once (`pick`'s previews run
    /// unseen, many times, and must never wait for a passphrase).
    func agentOnlySession() -> DiarySession {
        var variables = ProcessInfo.processInfo.environment
        variables["DIARY_PASSPHRASE_FILE"] = nil
        return CommandSessions.start(
            DiarySession(
                vaultOption: vault, environment: DiaryEnvironment(variables), asker: NobodyToAsk(),
                events: AppEventWords.say))
    }
}

/// The asker of a session that must not ask: there is nobody.
struct NobodyToAsk: PassphraseAsker {
    var canAsk: Bool { false }
    func ask(_ reason: PassphraseReason, attempt: Int) throws -> SecretBytes? { nil }
    func askNew(
        triesOnMismatch: Int, weakTries: Int, weakness: (SecretBytes) -> PassphraseWeakness?
    ) throws -> SecretBytes? { nil }
}

extension DiarySession {
    /// `open`, then, unless `offerRecovery` is false (`diary recover` itself), editor text left
    /// by a killed `diary` is offered for recovery (`InterruptedEdits.offer`).
    @discardableResult
    func openVault(offerRecovery: Bool = true, entrySet: EntrySetGuard.Mode = .enforce) throws -> Vault {
        let vault = try open(mode: entrySet)
        if offerRecovery { InterruptedEdits.offer(vault) }
        return vault
    }

    /// The client of this vault's agent (whether or not one runs).
    func agentClient(for vaultID: UUID) throws -> AgentClient {
        try UnlockAgent(environment: environment).client(for: vaultID)
    }
}
