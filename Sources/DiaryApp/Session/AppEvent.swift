import DiaryCrypto
import DiaryVault
import Foundation

/// Something a command should tell the user that is not its result: a warning or a note, as a
/// value. The CLI words each one (Sources/diary/Rendering/AppEventWords.swift); DiaryApp never
/// writes to a stream.
public enum AppEvent: Equatable, Sendable {
    /// The agent holds the key but did not hand it over in time; the passphrase is used instead.
    case agentBusyUsingPassphrase
    /// The agent's key did not open this vault's index (another key, or a damaged index).
    case agentKeyRefused
    /// The header holds two key generations: `rekey` should be run again.
    case rotationInterrupted
    /// `rekey` found a rotation interrupted and finishes it.
    case finishingInterruptedRotation
    /// `rekey --attachments` goes on sealing attachments again where a run before it stopped
    /// (the key was rotated then, and is not rotated again).
    case continuingAttachmentReseal
    /// The vault's key derivation cost is below the default.
    case weakKeyDerivation(KDFParameters)
    /// A file or directory of the vault is open to group or others.
    case vaultFileTooOpen(VaultExposure.FileFacts, vault: URL)
    /// A regular file holding a passphrase can be read or written by group or others.
    case passphraseFileTooOpen(path: String, mode: UInt32)
    /// A weak new passphrase was used because the user allowed it.
    case weakPassphraseAllowed(PassphraseWeakness)
    /// This machine's record of the vault could not be read; it was started again.
    case recordUnreadable(vault: URL)
    /// The vault's index is missing or damaged (only `reindex` may write until it is repaired).
    case indexDamaged(vault: URL, noRecord: Bool)
    /// Entries this machine saw are gone or older: the command stops (`AppError.entriesLost`).
    case entriesLost(EntrySetReport, vault: URL)
    /// A vault created or restored here is older than a copy this machine saw before.
    case restoredOlderThanSeen(EntrySetReport, vault: URL)
    /// This machine's record of a new vault could not be started.
    case recordNotStarted(vault: URL, reason: String)
    /// A write stood, but this machine's record of the vault could not follow it.
    case recordNotUpdated(vault: URL, reason: String)
    /// Entries captured by a device (`diary capture`) were taken in from an inbox.
    case capturesTakenIn(device: String, count: Int)
    /// A captured item was refused and moved aside (said once: it is not looked at again).
    case captureMovedAside(CaptureRejection)
    /// An inbox could not be taken in now: the file it stumbled on (when it is one) and why;
    /// its items wait for the next command.
    case captureInboxWaiting(path: String?, detail: String)
    /// Captured items wait in the vault's inbox for a device this vault does not know yet
    /// (its enrolment may arrive by sync): left there, said once per command.
    case capturesWaiting(count: Int)
}

/// Where a session's events go. The CLI prints them on stderr; tests collect them.
public typealias AppEventSink = (AppEvent) -> Void
