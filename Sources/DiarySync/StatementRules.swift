import DiaryStore
import Foundation

/// Why a statement that authenticates does not follow from the one before it.
public enum StatementFault: Equatable, Sendable {
    /// Its author is not a member of the statement it follows.
    case authorNotMember
    case wrongSeq
    /// A genesis where the chain already has one, or one that is not a genesis.
    case badGenesis
    /// Its kind changes what that kind must not change (key, members, headers), or fails to
    /// change what it must.
    case breaksItsKind(String)
    /// A new key without the record key of every epoch it replaces.
    case doesNotRetire
}

/// The rules one statement must keep with the statement it follows (docs/FORMAT.md §12):
/// checked for every statement read and every statement written.
enum StatementRules {
    /// Nil when `statement` may follow `parent` (and end the fork tips `superseded`, for a settle).
    static func fault(
        of statement: Statement, parent: AcceptedStatement?, superseded: [AcceptedStatement] = [],
        usedKeyIDs: Set<[UInt8]>
    ) -> StatementFault? {
        guard let parent else { return genesisFault(statement) }
        guard statement.kind != .genesis else { return .badGenesis }
        guard parent.member(statement.author) != nil else { return .authorNotMember }
        let tips = [parent] + superseded
        guard statement.seq == 1 + tips.map(\.seq).max()! else { return .wrongSeq }
        guard statement.kind == .settle || superseded.isEmpty else { return .breaksItsKind("supersedes") }
        if statement.kind.changesKey {
            return keyChangeFault(statement, tips: tips, usedKeyIDs: usedKeyIDs) ?? membersFault(statement, parent)
        }
        guard statement.keyID == parent.keyID, statement.generation == parent.generation, statement.retired.isEmpty
        else { return .breaksItsKind("key") }
        switch statement.kind {
        case .passphrase:
            guard statement.headerHashes.count == 2, statement.headerHashes != parent.headerHashes else {
                return .breaksItsKind("headers")
            }
        case .admit:
            guard statement.headerHashes == parent.headerHashes else { return .breaksItsKind("headers") }
        default: break
        }
        return membersFault(statement, parent)
    }

    private static func genesisFault(_ statement: Statement) -> StatementFault? {
        guard statement.kind == .genesis, statement.seq == 0, statement.previous == zeros,
            statement.members.map(\.machine) == [statement.author], statement.retired.isEmpty,
            statement.headerHashes.count == 2
        else { return .badGenesis }
        return nil
    }

    private static func keyChangeFault(_ statement: Statement, tips: [AcceptedStatement], usedKeyIDs: Set<[UInt8]>)
        -> StatementFault?
    {
        guard !usedKeyIDs.contains(statement.keyID) else { return .breaksItsKind("key reused") }
        guard statement.generation > tips.map(\.generation).max()! else { return .breaksItsKind("generation") }
        guard statement.headerHashes.count == 2 else { return .breaksItsKind("headers") }
        let retired = Set(statement.retired.map(\.keyID))
        guard tips.allSatisfy({ retired.contains($0.keyID) }) else { return .doesNotRetire }
        return nil
    }

    /// Members change only by an admit (one more, new) or a removal (one fewer, not the author,
    /// with a cut).
    private static func membersFault(_ statement: Statement, _ parent: AcceptedStatement) -> StatementFault? {
        let before = Set(parent.members.map(\.machine))
        let after = Set(statement.members.map(\.machine))
        switch statement.kind {
        case .admit:
            let added = after.subtracting(before)
            guard after.isSuperset(of: before), added.count == 1 else { return .breaksItsKind("members") }
            for m in parent.members where statement.members.first(where: { $0.machine == m.machine }) != m {
                return .breaksItsKind("members")
            }
        case .remove:
            let gone = before.subtracting(after)
            guard before.isSuperset(of: after), gone.count == 1, let removed = gone.first,
                removed != statement.author, statement.cuts.contains(where: { $0.machine == removed })
            else { return .breaksItsKind("members") }
        default:
            guard statement.members == parent.members else { return .breaksItsKind("members") }
        }
        return nil
    }

    static let zeros = [UInt8](repeating: 0, count: 32)
}
