import ArgumentParser
import DiaryAgent
import DiaryApp
import DiaryVault
import Foundation

/// `diary unlock`: start (or reuse) the agent that holds the vault key for a session.
struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the vault for a while.",
        usage: "diary unlock [<options>]",
        discussion: """
            Asks for the passphrase once and starts an agent that keeps the vault key in guarded \
            memory, so later commands need no passphrase. The agent forgets the key and exits \
            after --timeout without use (default \(defaultTimeout.defaultValueDescription)), at \
            --max however busy (default \(defaultMax.defaultValueDescription)), or on `diary lock`. If an agent \
            already holds this vault's key, it is reused and nothing is asked.

            Durations: 90s, 15m, 8h, 1h30m; a bare number means minutes.

            EXAMPLE
              diary unlock --timeout 30m --max 4h
            """)

    // Named, so the discussion (which is all the man page shows) states the same defaults.
    static let defaultTimeout = TimeSpan(seconds: 15 * 60)
    static let defaultMax = TimeSpan(seconds: 8 * 3600)

    @OptionGroup var global: GlobalOptions

    // Optional, so that the config file's unlock.timeout and unlock.max apply without them.
    @Option(
        help: ArgumentHelp(
            "Lock after this long without use; else the config's unlock.timeout (default: \(defaultTimeout.defaultValueDescription)).",
            valueName: "duration"))
    var timeout: TimeSpan?

    @Option(
        help: ArgumentHelp(
            "Lock after this long in any case; else the config's unlock.max (default: \(defaultMax.defaultValueDescription)).",
            valueName: "duration"))
    var max: TimeSpan?

    func run() throws {
        // The options, else the config file's settings, else the defaults.
        let config = Settings.current
        let timeout = timeout ?? config.unlockTimeout ?? Self.defaultTimeout
        let max = max ?? config.unlockMax ?? Self.defaultMax
        let session = global.session()
        let info = try session.inspect()
        let client = try session.agentClient(for: info.id)
        if let status = try? client.status(), status.vaultID == info.id {
            Output.note(
                "already unlocked: \(session.directory.path) (locks in \(TimeSpan.describe(min(status.idleRemaining, status.maxRemaining))))"
            )
            return
        }
        let (vault, _) = try session.openWithPassphrase()
        try AgentLauncher.start(
            key: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id,
            vaultPath: session.directory.standardizedFileURL.path,
            idleTimeout: timeout.seconds, maximumLifetime: max.seconds, client: client)
        Output.note(
            "unlocked \(session.directory.path) for \(TimeSpan.describe(timeout.seconds)) without use, at most \(TimeSpan.describe(max.seconds))"
        )
        AppEventWords.warnIfRotationUnfinished(info)
    }
}
