import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary reset-passphrase`: a new passphrase, set with the recovery key.
struct ResetPassphrase: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-passphrase",
        abstract: "Set a new passphrase with the recovery key (the old one forgotten).",
        discussion: """
            Reads the recovery key from --recovery-key-file, else asks for it on the terminal \
            without echo (spaces, dashes and letter case do not matter). The key is checked \
            against the vault before anything else; then the new passphrase is asked for twice \
            (or read from --new-passphrase-file), the vault is opened with the key, and the \
            header gets the new passphrase. The old passphrase no longer opens the vault. The \
            vault key stays the same, so entries are not re-encrypted and an unlocked session \
            keeps going. Works with the vault locked.

            With recovery shares (`diary recovery-key create --shares`), give each share file \
            with --share-file: each is checked alone first (a mistyped share or one of another \
            vault is named), then any K of them rebuild the key, which must be the vault's.

            On a vault that syncs, the next `diary sync` publishes the new passphrase; the other \
            machines then need it.

            Like every command, it refuses a vault that lacks entries this machine saw (put \
            back from an older copy, or lost to damage), naming them. --accept-older resets the \
            passphrase all the same (only the header changes); `diary reindex --accept-older`, \
            with the new passphrase, then accepts the loss.

            EXAMPLE
              diary reset-passphrase
              diary reset-passphrase --recovery-key-file key.txt --new-passphrase-file new.txt
              diary reset-passphrase --share-file ann.txt --share-file bob.txt
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var newPassphrase: NewPassphraseOptions

    @Option(
        help: ArgumentHelp("Read the recovery key from this file.", valueName: "file"), completion: .file())
    var recoveryKeyFile: String?

    @Option(
        help: ArgumentHelp(
            "Rebuild the recovery key from this share file (repeat it for each share).", valueName: "file"),
        completion: .file())
    var shareFile: [String] = []

    @Option(help: "Also change the Argon2id cost: interactive, moderate or sensitive.")
    var kdf: KDFPreset?

    @Flag(
        help: ArgumentHelp(
            "Reset even when entries this machine saw are missing or older (then accept the loss with "
                + "`diary reindex --accept-older` and the new passphrase)."))
    var acceptOlder = false

    func validate() throws {
        if recoveryKeyFile != nil && !shareFile.isEmpty {
            throw ValidationError("give either --recovery-key-file or --share-file, not both")
        }
        if global.passphraseFile != nil {
            throw ValidationError(
                "reset-passphrase takes no current passphrase (--passphrase-file): the recovery key stands for it; "
                    + "give the new one with --new-passphrase-file")
        }
    }

    func run() throws {
        let session = global.session()
        _ = try session.inspect()  // a missing vault fails before any question
        let outcome: PassphraseResetOutcome
        do {
            outcome = try reset(session)
        } catch AppError.entriesLost(let vault) {
            throw ResetRefusedForLoss(vault: vault)
        }
        if let loss = outcome.loss {
            Output.warning("reset the passphrase of a vault that lacks what this machine saw:")
            for line in EntrySetWords.describe(loss, vault: outcome.vault) where line.hasPrefix("  ") {
                Output.talk(Printable.escaped(line))
            }
        }
        Output.note("passphrase reset for \(Printable.escaped(outcome.vault.path)); the old one no longer opens it")
        if outcome.loss != nil {
            Output.note(
                "`diary reindex --accept-older` with the new passphrase accepts the loss; "
                    + "or restore the newer copy from a backup (`diary restore`)")
        }
        if let error = outcome.syncNotTold { throw error }
    }

    private func reset(_ session: DiarySession) throws -> PassphraseResetOutcome {
        if !shareFile.isEmpty {
            return try RecoveryKeys(session)
                .reset(
                    withShareFiles: shareFile.map { URL(fileURLWithPath: $0) }, newPassphrase: newPassphrase.source,
                    kdf: kdf?.parameters, acceptOlder: acceptOlder)
        }
        let key = try recoveryKeyFile.map { try RecoveryKeyFile.read(at: $0) } ?? RecoveryKeyDisplay.askForKey()
        do {
            return try RecoveryKeys(session)
                .reset(with: key, newPassphrase: newPassphrase.source, kdf: kdf?.parameters, acceptOlder: acceptOlder)
        } catch VaultError.wrongRecoveryKey {
            // Both fingerprints are public (the vault's is in its header): no passphrase needed.
            throw NotTheVaultsRecoveryKey(
                given: RecoveryKey.fingerprint(ofPublicKey: try key.publicKey), vault: try session.inspect().recovery)
        }
    }
}

/// The vault lacks entries this machine saw (listed before): the reset is refused unless
/// --accept-older, as every command refuses; the repair that accepts the loss needs the
/// passphrase this command sets.
struct ResetRefusedForLoss: Error {
    let vault: String

    var report: ErrorReport {
        ErrorReport(
            message: "refusing to reset the passphrase of \(vault): entries this machine saw are missing or older",
            hint: "pass --accept-older to reset it anyway; then `diary reindex --accept-older` with the new "
                + "passphrase accepts the loss (or restore the newer copy from a backup: `diary restore`)",
            code: .damaged)
    }
}

/// The recovery key given is not the vault's: both fingerprints, to find the right key.
struct NotTheVaultsRecoveryKey: Error {
    let given: String
    let vault: RecoveryStatus

    var report: ErrorReport {
        let vaults: String
        switch vault {
        case .active(_, let fingerprint): vaults = "the vault's recovery key has fingerprint \(fingerprint)"
        case .removed: vaults = "the vault's recovery key was removed"
        case .none: vaults = "the vault has no recovery key"
        }
        return ErrorReport(
            message: "the recovery key does not open this vault: it has fingerprint \(given); \(vaults)",
            hint: "a key replaced since (`recovery-key create --replace`) or another vault's no longer opens it",
            code: .wrongPassphrase)
    }
}
