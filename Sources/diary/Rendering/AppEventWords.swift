import DiaryApp
import Foundation

/// The words for what DiaryApp reports (`AppEvent`), on stderr: warnings, notes and hints, as
/// diary has always worded them.
enum AppEventWords {
    /// Warns when the header holds two key generations (a `rekey` cut short): an unlocked
    /// session's key is one of them, so until the rotation is finished every command asks for
    /// the passphrase. Read from the header alone, so `status` can say it without a key.
    static func warnIfRotationUnfinished(_ info: VaultInfo) {
        guard info.keyGenerations.count > 1 else { return }
        Output.warning(
            "a key rotation was interrupted: until `diary rekey` finishes it, commands ask for the passphrase")
    }

    static func say(_ event: AppEvent) {
        switch event {
        case .agentBusyUsingPassphrase:
            Output.warning("the unlock agent is busy; using the passphrase instead")
        case .agentKeyRefused:
            Output.warning(
                "the unlock agent's key does not open this vault's index (another key, or a damaged index); asking for the passphrase"
            )
        case .rotationInterrupted:
            Output.warning("a key rotation was interrupted; run `diary rekey` to finish it")
        case .finishingInterruptedRotation:
            Output.note("finishing an interrupted key rotation")
        case .continuingAttachmentReseal:
            Output.note("the key was rotated by an earlier run; re-encrypting the attachments it left")
        case .weakKeyDerivation(let kdf):
            Output.warning(AuditFindings.kdfWarning(kdf))
        case .vaultFileTooOpen(let file, let vault):
            Output.warning(AuditFindings.modeWarning(file, in: vault))
        case .passphraseFileTooOpen(let path, let mode):
            Output.warning("passphrase file \(path) is open to group or others (mode 0\(String(mode, radix: 8)))")
            Output.hint("chmod 600 \(path)")
        case .weakPassphraseAllowed(let weakness):
            Output.warning(
                "the new passphrase is weak: \(PassphraseWords.weakness(weakness)); used because of --allow-weak-passphrase"
            )
        // Listed, not `default`: a new kind of event must be given words here to compile.
        case .recordUnreadable, .indexDamaged, .entriesLost, .restoredOlderThanSeen, .recordNotStarted,
            .recordNotUpdated:
            sayEntrySet(event)
        case .capturesTakenIn, .captureMovedAside, .captureInboxWaiting, .capturesWaiting:
            CaptureWords.say(event)
        }
    }

    /// This machine's record of the vault (`EntrySetGuard`).
    private static func sayEntrySet(_ event: AppEvent) {
        switch event {
        case .recordUnreadable(let vault):
            Output.warning("this machine's record of \(vault.path) could not be read; it was started again")
        case .indexDamaged(let vault, let noRecord):
            Output.warning(
                "the index of \(vault.path) is missing or damaged; "
                    + "only `diary reindex` can write until it is repaired")
            if noRecord {
                Output.warning(
                    "this machine has no earlier record of this vault: "
                        + "entries deleted or rolled back before now cannot be detected")
            }
        case .entriesLost(let report, let vault):
            for line in EntrySetWords.describe(report, vault: vault) {
                Output.talk("diary: \(Printable.escaped(line))")
            }
        case .restoredOlderThanSeen(let report, let vault):
            for line in EntrySetWords.describe(report, vault: vault) {
                let warning = line.replacingOccurrences(of: "error: ", with: "warning: ")
                Output.talk("diary: \(Printable.escaped(warning))")
            }
            Output.note("a restore is your choice: this machine's record of \(vault.path) now starts from it")
        case .recordNotStarted(let vault, let reason):
            Output.warning("could not start this machine's record of \(vault.path): \(reason)")
        case .recordNotUpdated(let vault, let reason):
            Output.warning("could not update this machine's record of \(vault.path): \(reason)")
        default:
            break  // `say` hands only the cases above to this function
        }
    }
}

/// Why a new passphrase is weak, in words (`PassphraseStrength`).
enum PassphraseWords {
    static func weakness(_ weakness: PassphraseWeakness) -> String {
        switch weakness {
        case .common: return "it is one of the most common passphrases"
        case .repeatedUnit(let bits): return "a short sequence repeated (\(estimate(bits)))"
        case .mostlyPredictable(let characters, let bits):
            return "\(count(characters)), mostly repeated or in sequence (\(estimate(bits)))"
        case .tooShort(let characters, let bits): return "only \(count(characters)) (\(estimate(bits)))"
        }
    }

    private static func count(_ characters: Int) -> String {
        "\(characters) character\(characters == 1 ? "" : "s")"
    }

    /// `estimated strength 1 bit, at least 50 needed`: a simple estimate, so never "exactly".
    static func estimate(_ bits: Int) -> String {
        "estimated strength \(bits) bit\(bits == 1 ? "" : "s"), at least \(Int(PassphraseStrength.minimumBits)) needed"
    }
}
