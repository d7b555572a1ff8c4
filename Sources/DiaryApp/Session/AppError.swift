import Foundation

/// Why the application layer stopped a command, as a value; the CLI words it and picks its
/// hint and exit status (Sources/diary/Errors/).
public enum AppError: Error, Equatable, Sendable {
    /// No agent holds the key, no passphrase file was given and there is no one to ask.
    case locked(vault: String)
    /// The agent holds the key but did not hand it over, and there is nothing to fall back on.
    case agentBusy(vault: String)
    /// The agent holds the key, but a key rotation was interrupted: opening needs every key
    /// generation, which only the passphrase gives, and there is nothing to ask it with.
    case lockedMidRotation(vault: String)
    /// A new passphrase is needed and there is neither a file nor a terminal.
    case noTerminalForNewPassphrase
    /// The passphrase file could not be read, or its first line is empty.
    case passphraseFile(path: String, detail: String)
    /// The new passphrase failed the strength check and weak ones were not allowed.
    case weakPassphrase(PassphraseWeakness)
    /// Entries this machine saw are gone, or older copies were put back (already reported as
    /// `AppEvent.entriesLost`).
    case entriesLost(vault: String)
    /// No passphrase given opened the backup at this path (it opens with the passphrase in
    /// force when it was made).
    case wrongBackupPassphrase(backup: String)
}
