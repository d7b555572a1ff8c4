import DiaryCrypto
import Foundation

/// Why a passphrase is asked for; the asker words the prompt from it.
public enum PassphraseReason: Equatable, Sendable {
    /// To open the vault at this path.
    case unlock(path: String)
    /// To open the backup file at this path: the passphrase in force when it was made.
    case backup(path: String)
    /// To open the vault being joined from a sync remote.
    case syncedVault
    /// To follow the key rotated on another machine (named as that machine calls itself).
    case followRotation(machine: String)
    /// To publish the passphrase changed on this machine.
    case publishOwnChange
}

/// Someone to ask for a passphrase: the CLI's terminal, a test's script. The session decides
/// when to ask and how often (`DiarySession.passphraseTries`); the asker only asks.
public protocol PassphraseAsker {
    /// Whether there is anyone to ask (the CLI: a controlling terminal).
    var canAsk: Bool { get }

    /// The current passphrase, normalised (NFC); nil when there is no one to ask. `attempt`
    /// counts from 1: a later attempt follows a passphrase that did not open what it was for.
    func ask(_ reason: PassphraseReason, attempt: Int) throws -> SecretBytes?

    /// A new passphrase, typed twice (two that differ asked again, up to `triesOnMismatch`
    /// pairs); one that `weakness` finds weak is refused at once and asked again, up to
    /// `weakTries`. Nil when there is no one to ask.
    func askNew(
        triesOnMismatch: Int, weakTries: Int, weakness: (SecretBytes) -> PassphraseWeakness?
    ) throws -> SecretBytes?
}
