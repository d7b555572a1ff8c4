import DiaryVault
import Foundation

extension FuzzEntryPoints {
    /// `RecoveryShareFile.read`, then the same file with its text's two check characters
    /// recomputed: a mutated text almost never keeps its checks, and without the repair the
    /// fuzzer would never get past them to the fields. An accepted share must read back as
    /// itself from the text diary would write for it.
    @discardableResult
    public static func share(_ bytes: [UInt8]) -> Bool {
        let accepted = readShare(bytes)
        if let repaired = withChecksRepaired(bytes) { readShare(repaired) }
        return accepted
    }

    @discardableResult
    private static func readShare(_ bytes: [UInt8]) -> Bool {
        guard let share = try? RecoveryShareFile.read(bytes) else { return false }
        let written = RecoveryShareFile.contents(of: share, created: Date(timeIntervalSince1970: 0))
        guard let again = try? RecoveryShareFile.read(Array(written.utf8)), again.text == share.text,
            again.x == share.x, again.threshold == share.threshold, again.vaultID == share.vaultID
        else { fatalError("a share that does not read back as itself") }
        // One share is never enough: combining it alone must refuse, not trap.
        if (try? RecoveryShares.combine([share], vaultID: share.vaultID)) != nil {
            fatalError("one share rebuilt a key")
        }
        return true
    }

    /// The file with the last two digits of its text replaced by the right checks; nil when
    /// the text has a character that is no digit or fewer than two digits.
    private static func withChecksRepaired(_ bytes: [UInt8]) -> [UInt8]? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let comments = lines.filter { $0.hasPrefix("#") }.map(String.init)
        var values: [UInt8] = []
        for line in lines where !line.hasPrefix("#") {
            for scalar in line.unicodeScalars where !CheckedBase32.isSeparator(scalar) {
                guard let value = CheckedBase32.value(of: scalar) else { return nil }
                values.append(value)
            }
        }
        guard values.count >= CheckedBase32.checkCount else { return nil }
        let data = Array(values.dropLast(CheckedBase32.checkCount))
        let digits = (data + CheckedBase32.checks(data)).map(CheckedBase32.digit(of:))
        return Array((comments + [String(decoding: digits, as: UTF8.self)]).joined(separator: "\n").utf8)
    }
}
