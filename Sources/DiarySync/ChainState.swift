import DiaryStore
import Foundation

/// A statement this machine accepted, with what later checks need of it.
struct AcceptedStatement: Equatable {
    var seq: UInt64
    var hash: [UInt8]
    var author: UUID
    var kind: StatementKind
    var keyID: [UInt8]
    var generation: UInt32
    var previous: [UInt8]
    var members: [Member]
    var headerHashes: [StoreKind: [UInt8]]
    /// Where each log stood for its author: checked against what this machine read, and for a
    /// removal, where the removed machine's log ends.
    var cuts: [LogMark]
    /// On a branch of a fork that a settle ended: its records stay readable, the chain goes on
    /// from the settle.
    var superseded = false

    init(_ statement: Statement, hash: [UInt8]) {
        seq = statement.seq
        self.hash = hash
        author = statement.author
        kind = statement.kind
        keyID = statement.keyID
        generation = statement.generation
        previous = statement.previous
        members = statement.members
        headerHashes = statement.headerHashes
        cuts = statement.cuts
    }

    func member(_ machine: UUID) -> Member? { members.first { $0.machine == machine } }
}

/// The membership chain as this machine accepted it (docs/FORMAT.md §12): who may write, which
/// key is current, which header is in force.
struct ChainState: Equatable {
    /// In the order accepted: the main line, with the branches of settled forks among it.
    var statements: [AcceptedStatement] = []

    /// The newest statement of the main line: what a new statement follows.
    var head: AcceptedStatement? { statements.last { !$0.superseded } }

    var members: [Member] { head?.members ?? [] }

    func statement(hash: [UInt8]) -> AcceptedStatement? { statements.first { $0.hash == hash } }

    func contains(seq: UInt64, author: UUID) -> Bool {
        statements.contains { $0.seq == seq && $0.author == author }
    }

    /// The signing key of `machine` if it was ever admitted (its newest entry).
    func member(_ machine: UUID) -> Member? {
        for statement in statements.reversed() { if let m = statement.member(machine) { return m } }
        return nil
    }

    /// Where the log of a removed machine ends: the cut of the statement that removed it.
    func removal(of machine: UUID) -> LogMark? {
        for statement in statements where statement.kind == .remove && statement.member(machine) == nil {
            if let cut = statement.cuts.first(where: { $0.machine == machine }) { return cut }
        }
        return nil
    }

    /// The newest main-line statement that set the header in force (every kind but admit).
    var headerStatement: AcceptedStatement? { statements.last { !$0.superseded && $0.kind != .admit } }

    /// The newest main-line statement that set the key in force.
    var keyStatement: AcceptedStatement? {
        statements.last { !$0.superseded && ($0.kind.changesKey || $0.kind == .genesis) }
    }
}
