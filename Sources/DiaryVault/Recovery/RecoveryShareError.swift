import Foundation

/// Why a share cannot be read, or shares cannot rebuild a recovery key. Each case names what
/// is wrong so the command line can say it of the file it came from.
public enum RecoveryShareError: Error, Equatable, Sendable {
    /// No share text at all (an empty file, only comments, not text, or far too long).
    case notAShareFile
    /// The text does not decode: a character that is no digit, the wrong number of
    /// characters, or check characters that do not match (a typo).
    case mistyped(CheckedBase32.Error)
    /// The text is a whole recovery key, not a share of one.
    case recoveryKeyNotShare
    /// A share of a format this build does not know.
    case unknownVersion(UInt8)
    /// The checks match but the fields cannot be: K, N or x out of range (not made by diary).
    case invalidFields
    /// A share of another vault.
    case otherVault(UUID)
    /// A share of another split of this vault's key (an older one, or another set).
    case otherShareSet
    /// Two shares with the same x: the same share given twice.
    case duplicateShare(x: Int)
    /// Shares of one set that disagree on how many are needed (or made): one is forged.
    case thresholdsDisagree
    /// Fewer shares than the threshold the shares name.
    case tooFew(needed: Int, have: Int)
    /// Not 2 ≤ K ≤ N ≤ 16 (when splitting).
    case invalidParameters(threshold: Int, count: Int)
}
