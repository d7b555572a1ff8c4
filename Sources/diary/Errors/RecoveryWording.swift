import DiaryApp
import DiaryVault
import Foundation

/// The key was written or shown, but setting it failed: the file was removed.
struct RecoveryKeyOutputTakenBack: Error {
    let path: String?
    let underlying: Error
}

/// Setting the key reported an error, but the vault is (or may be) sealed to it: `holder`
/// (the file, the shares, the key shown) was kept and must be.
struct RecoveryKeyKeptDespiteError: Error {
    let holder: String
    let error: RecoveryKeySetDespiteError
}

/// The words of the recovery key's outcomes and errors.
enum RecoveryWording {
    static func status(_ status: RecoveryStatus) -> String {
        switch status {
        case .none: return "none"
        case .active(let epoch, let fingerprint): return "active (epoch \(epoch), fingerprint \(fingerprint))"
        case .removed(let epoch): return "removed (epoch \(epoch))"
        }
    }

    static func created(_ status: RecoveryStatus, replaced: Bool) -> String {
        let what = replaced ? "made a new recovery key; the old one no longer works" : "made a recovery key"
        guard case .active(_, let fingerprint) = status else { return what }
        return "\(what) (fingerprint \(fingerprint))"
    }

    static func report(_ error: RecoveryKeyFileError) -> ErrorReport {
        switch error {
        case .exists(let path):
            return ErrorReport(
                message: "\(path) already exists; a recovery key is never written over a file",
                hint: "choose a new path", code: .alreadyExists)
        case .cannotWrite(let path, let code):
            return ErrorReport(
                message: "cannot write \(path): \(String(cString: strerror(code))); nothing was changed", hint: nil,
                code: .failure)
        case .cannotRead(let path, let code):
            return ErrorReport(
                message: "cannot read \(path): \(String(cString: strerror(code)))", hint: nil, code: .failure)
        case .tooLarge(let path, let limit):
            return ErrorReport(
                message: "\(path) is larger than \(limit) bytes: not a recovery key file", hint: nil,
                code: .inputRefused)
        case .notAKeyFile(let path):
            return ErrorReport(
                message: "\(path) is not a recovery key file",
                hint: "it holds one line of 9 groups of 6 characters, besides # comments", code: .inputRefused)
        case .shareNotKey(let path):
            return ErrorReport(
                message: "\(path) is a recovery share, not a whole recovery key",
                hint: "use `diary reset-passphrase --share-file \(path)` with the other shares", code: .inputRefused)
        case .mistyped(let path, let problem):
            return ErrorReport(message: "\(path): \(words(problem))", hint: nil, code: .inputRefused)
        }
    }

    static func report(_ error: RecoveryKeyOutputTakenBack) -> ErrorReport {
        let words = ErrorReport(error.underlying)?.message ?? "\(error.underlying)"
        let removed = error.path.map { "; \($0) was removed" } ?? ""
        return ErrorReport(
            message: "the recovery key could not be set: \(words)\(removed)",
            hint: "the vault's recovery key is as it was; a key just shown opens nothing: destroy it",
            code: ErrorReport(error.underlying)?.code ?? .failure)
    }

    /// The filesystem under `path` keeps no modes (FAT, exFAT): "readable only by you" does not hold.
    static func openToOthers(_ path: String) -> String {
        "\(Printable.escaped(path)) is on a filesystem that keeps no permissions (such as a USB stick's FAT or "
            + "exFAT): anyone who can read the medium can read it; keep the medium safe"
    }

    static func report(_ kept: RecoveryKeyKeptDespiteError) -> ErrorReport {
        let underlying = kept.error.underlying
        let words = ErrorReport(underlying)?.message ?? "\(underlying)"
        let code = ErrorReport(underlying)?.code ?? .failure
        guard kept.error.certain else {
            return ErrorReport(
                message: "\(kept.holder) may be set (the vault could not be read to tell): \(words)",
                hint: "keep it: `diary recovery-key status` says which key is in force once the vault can be read",
                code: code)
        }
        return ErrorReport(
            message: "\(kept.holder) is set, but the change did not finish cleanly: \(words)",
            hint: "keep it: it is the vault's recovery key now", code: code)
    }

    static func report(_ error: RecoveryKeyError) -> ErrorReport {
        switch error {
        case .text(let problem):
            return ErrorReport(
                message: "that is not the recovery key: \(words(problem))", hint: "type it again, group by group",
                code: .inputRefused)
        case .wrongLength, .outOfSecureMemory:
            return ErrorReport(message: "that is not a recovery key", hint: nil, code: .inputRefused)
        }
    }

    static func report(_ error: RecoveryPromptError) -> ErrorReport {
        switch error {
        case .noTerminalToShowKey:
            return ErrorReport(
                message: "a recovery key is shown on the terminal, and there is none; nothing was changed",
                hint: "pass --output FILE to write it to a new file", code: .usage)
        case .noTerminalToAskKey:
            return ErrorReport(
                message: "the recovery key is needed, and there is no terminal to ask on",
                hint: "pass --recovery-key-file FILE", code: .usage)
        }
    }

    private static func words(_ problem: CheckedBase32.Error) -> String {
        switch problem {
        case .badCharacter(let position, let character):
            return
                "character \(position) of the key (\(Printable.escaped(String(character)))) is not one a key uses "
                + "(counting its characters, not the dashes)"
        case .wrongLength(let expected, let got): return "\(got) characters where a key has \(expected)"
        case .checksumMismatch: return "a character is wrong, or two are swapped (the checksum does not match)"
        case .nonZeroPadding: return "the last group is not one a key can end with"
        }
    }
}
