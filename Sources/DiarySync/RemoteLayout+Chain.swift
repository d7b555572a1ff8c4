import DiaryStore
import Foundation

/// The membership chain's place in the remote tree: `chain/<seq>-<machine>`, one statement
/// per file, `<seq>` twelve decimal digits from 000000000000 (genesis), `<machine>` its author
/// (docs/FORMAT.md §12, Remote tree).
extension RemoteLayout {
    static let chainDirectory = "chain"

    static func statementName(seq: UInt64, author: UUID) -> String {
        "\(recordName(seq))-\(hex(author))"
    }

    static func statementPath(seq: UInt64, author: UUID) -> String {
        "\(chainDirectory)/\(statementName(seq: seq, author: author))"
    }

    /// `<seq>-<machine>` read back (the name only, no directory), or nil for any other name.
    static func statement(fromName name: String) -> (seq: UInt64, author: UUID)? {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 12, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }),
            let seq = UInt64(parts[0]), let author = machineID(fromHex: String(parts[1]))
        else { return nil }
        return (seq, author)
    }

    /// `keys/<author>-<seq>.<store>`: the header published with statement `seq` of `author`.
    static func headerPath(chainSeq: UInt64, author: UUID, store: StoreKind) -> String {
        headerPath(machine: author, seq: chainSeq, store: store)
    }
}
