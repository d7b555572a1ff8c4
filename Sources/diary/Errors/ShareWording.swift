import DiaryApp
import DiaryVault
import Foundation

/// The words of recovery-share errors: each names the share file at fault as the user gave it.
enum ShareWording {
    static func report(_ error: ShareRecoveryError) -> ErrorReport {
        switch error {
        case .file(let file, let problem): return report(problem, in: file.relativePath)
        case .unreadable(let file, let detail):
            return ErrorReport(
                message: "cannot read share file \(file.relativePath): \(detail)", hint: nil, code: .failure)
        case .otherShareSet(let file, let first):
            return ErrorReport(
                message: "\(file.relativePath) is of another share set than \(first.relativePath)",
                hint: "give shares made together: a new split makes the shares of an older one useless",
                code: .inputRefused)
        case .thresholdsDisagree(let file, let first):
            return ErrorReport(
                message: "\(file.relativePath) and \(first.relativePath) disagree on how many shares are needed",
                hint: "one of them was altered; leave it out", code: .inputRefused)
        case .countsDisagree(let file, let first):
            return ErrorReport(
                message: "\(file.relativePath) and \(first.relativePath) disagree on how many shares were made",
                hint: "one of them was altered; leave it out", code: .inputRefused)
        case .differentSharesNumberedAlike(let file, let earlier, let x):
            return ErrorReport(
                message: "\(earlier.relativePath) and \(file.relativePath) are two different shares numbered \(x)",
                hint: "one of them was altered or mistyped; leave it out", code: .inputRefused)
        case .sameShare(let file, let earlier) where file == earlier:
            return ErrorReport(
                message: "\(file.relativePath) is given twice", hint: "give each share once", code: .inputRefused)
        case .sameShare(let file, let earlier):
            return ErrorReport(
                message: "\(file.relativePath) is the same share as \(earlier.relativePath)",
                hint: "give each share once", code: .inputRefused)
        case .set(.tooFew(let needed, let have)):
            return ErrorReport(
                message: "\(needed) shares are needed to rebuild the recovery key, \(have) given; nothing was changed",
                hint: "repeat --share-file for each share", code: .inputRefused)
        case .set(let problem): return report(problem, in: "the shares")
        case .rebuiltKeyIsNotTheVaults:
            return ErrorReport(
                message: "the shares rebuild a key that is not this vault's recovery key; nothing was changed",
                hint: "a share is damaged or not genuine, or the recovery key was replaced after they were made",
                code: .wrongPassphrase)
        case .deliveredButNotSet(let underlying):
            let words = ErrorReport(underlying)?.message ?? "\(underlying)"
            return ErrorReport(
                message: "the recovery key could not be set: \(words)",
                hint: "the shares just made rebuild nothing: destroy them and try again", code: .failure)
        }
    }

    /// What is wrong with one share, said of `file`.
    private static func report(_ problem: RecoveryShareError, in file: String) -> ErrorReport {
        switch problem {
        case .notAShareFile:
            return ErrorReport(message: "\(file) is not a share file", hint: nil, code: .inputRefused)
        case .mistyped(let detail):
            return ErrorReport(
                message: "\(file) is mistyped: \(words(detail))",
                hint: "compare it with its paper copy character by character", code: .inputRefused)
        case .recoveryKeyNotShare:
            return ErrorReport(
                message: "\(file) holds a whole recovery key, not a share",
                hint: "use `diary reset-passphrase --recovery-key-file \(file)`", code: .inputRefused)
        case .unknownVersion(let version):
            return ErrorReport(
                message: "\(file) is a share of version \(version), which this diary cannot read",
                hint: "upgrade diary", code: .inputRefused)
        case .invalidFields:
            return ErrorReport(
                message: "\(file) is not a share diary makes (its numbers are out of range)", hint: nil,
                code: .inputRefused)
        case .otherVault(let id):
            return ErrorReport(
                message: "\(file) is a share of another vault (\(id.uuidString.lowercased()))",
                hint: "its first lines name the vault it belongs to", code: .inputRefused)
        case .otherShareSet:
            return ErrorReport(message: "\(file) are of different share sets", hint: nil, code: .inputRefused)
        case .duplicateShare(let x):
            return ErrorReport(message: "\(file) hold share \(x) twice", hint: nil, code: .inputRefused)
        case .thresholdsDisagree:
            return ErrorReport(
                message: "\(file) disagree on how many shares are needed", hint: nil, code: .inputRefused)
        case .tooFew(let needed, let have):
            return ErrorReport(
                message: "\(needed) shares are needed, \(have) given", hint: nil, code: .inputRefused)
        case .invalidParameters(let threshold, let count):
            return ErrorReport(
                message: "cannot make \(count) shares of which \(threshold) rebuild the key",
                hint: "2 ≤ --threshold ≤ --shares ≤ \(RecoveryShare.maximumCount)", code: .usage)
        }
    }

    private static func words(_ detail: CheckedBase32.Error) -> String {
        switch detail {
        case .badCharacter(let position, let character):
            return "its character \(position) (\(Printable.escaped(String(character)))) is not one a share uses"
        case .wrongLength(let expected, let got): return "its text has \(got) characters, a share has \(expected)"
        case .checksumMismatch: return "its check characters do not match (a character is wrong or two are swapped)"
        case .nonZeroPadding: return "its last characters are not ones diary writes"
        }
    }
}
