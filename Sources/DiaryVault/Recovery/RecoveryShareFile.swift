import DiaryStore
import Foundation

/// A share as a file: `#` comment lines saying what it is, then the share's text
/// (docs/FORMAT.md, Recovery shares).
public enum RecoveryShareFile {
    /// A share file is a few hundred bytes; anything much larger is not one, and is refused
    /// before it is read as text.
    public static let maximumByteCount = 16 * 1024
    /// How the first line of every share file diary writes starts.
    static let firstLine = "# diary recovery share "

    /// `share-<x>-of-<N>.txt`.
    public static func fileName(for share: RecoveryShare) -> String { "share-\(share.x)-of-\(share.count).txt" }

    /// The file's contents: what the share is, then its text on one line.
    public static func contents(of share: RecoveryShare, created: Date) -> String {
        let day = ISO8601DateFormatter.string(
            from: created, timeZone: TimeZone(identifier: "UTC")!, formatOptions: .withFullDate)
        return """
            \(firstLine)\(share.x) of \(share.count): any \(share.threshold) of the \(share.count) shares rebuild the recovery key
            # vault \(share.vaultID.lowercaseString)
            # share set \(share.shareSetHex)
            # created \(day)
            \(share.text)

            """
    }

    /// The share a file holds: lines starting with `#` and blank lines are skipped, the others
    /// are the text (it may be broken over several lines). Checks the share alone. A file
    /// without diary's first line whose text is far from a share's is not a share file.
    public static func read(_ bytes: [UInt8]) throws -> RecoveryShare {
        guard bytes.count <= maximumByteCount, let text = String(validating: bytes, as: UTF8.self) else {
            throw RecoveryShareError.notAShareFile
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let body = lines.filter { line in
            !line.hasPrefix("#") && !line.allSatisfy { $0 == " " || $0 == "\t" }
        }
        guard !body.isEmpty else { throw RecoveryShareError.notAShareFile }
        do {
            return try RecoveryShare(text: body.joined(separator: "\n"))
        } catch RecoveryShareError.mistyped(let problem) where !lines.contains(where: { $0.hasPrefix(firstLine) }) {
            // Without the first line diary writes, a text no share holds (a character outside
            // the alphabet, or far from a share's length) is some other file rather than a typo.
            switch problem {
            case .badCharacter: throw RecoveryShareError.notAShareFile
            case .wrongLength(let expected, let got) where abs(expected - got) > 2:
                throw RecoveryShareError.notAShareFile
            default: throw RecoveryShareError.mistyped(problem)
            }
        }
    }
}
