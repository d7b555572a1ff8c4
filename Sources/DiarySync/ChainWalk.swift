import DiaryCrypto
import Foundation

/// Walks the opened statements from the accepted head: one successor is accepted; two
/// successors of one statement (new ones, or a new one beside one accepted before) are a fork
/// that only a settle naming every tip ends (docs/FORMAT.md §12).
struct ChainWalk {
    var chain: ChainState
    let opened: [ChainReader.Read]
    /// A synced folder delivers files in any order: a statement that follows nothing accepted
    /// may be waiting for its predecessor. In git, whose trees arrive whole, it is forged.
    let inFolder: Bool

    /// Appends what follows the head to `outcome.accepted`, or sets the fork's tips, or a finding.
    func run(into outcome: inout ChainReader.Outcome) {
        var chain = self.chain
        var used = Set(chain.statements.map(\.keyID))
        var left = opened
        while !left.isEmpty {
            let current = chain.head
            let kids = left.filter { $0.statement.previous == (current?.hash ?? StatementRules.zeros) }
            // A new statement following an accepted one that is not the head forks from it.
            let beside = left.filter { read in
                read.statement.previous != current?.hash && chain.statement(hash: read.statement.previous) != nil
            }
            if kids.isEmpty && beside.isEmpty { break }
            if kids.count == 1, beside.isEmpty, kids[0].statement.kind != .settle || current == nil {
                guard accept(kids[0], parent: current, superseded: [], chain: &chain, used: &used, into: &outcome)
                else { return }
                left.removeAll { $0.hash == kids[0].hash }
                continue
            }
            guard settle(kids + beside, left: &left, chain: &chain, used: &used, into: &outcome) else { return }
        }
        // What is left hangs off no accepted statement: an old fork's, or forged.
        guard let stray = left.first, outcome.fork.isEmpty, outcome.findings.isEmpty else { return }
        if inFolder {
            outcome.waiting += left.map(\.path)
        } else {
            outcome.findings.append(.statementOffTheChain(path: stray.path))
        }
    }

    /// Checks `read` against its parent and accepts it; false (with a finding) when it fails.
    private func accept(
        _ read: ChainReader.Read, parent: AcceptedStatement?, superseded: [AcceptedStatement],
        chain: inout ChainState, used: inout Set<[UInt8]>, into outcome: inout ChainReader.Outcome,
        onBranch: Bool = false
    ) -> Bool {
        if let fault = StatementRules.fault(
            of: read.statement, parent: parent, superseded: superseded, usedKeyIDs: used)
        {
            outcome.findings.append(.statementBreaksChain(path: read.path, fault: fault))
            return false
        }
        if read.statement.kind == .admit,
            let added = read.statement.members.first(where: { parent?.member($0.machine) == nil }),
            chain.member(added.machine) != nil
        {
            outcome.findings.append(.statementBreaksChain(path: read.path, fault: .breaksItsKind("admits again")))
            return false
        }
        // Signed by a member of the statement it follows (genesis: by its only member).
        guard let signer = parent?.member(read.statement.author) ?? read.statement.members.first,
            StatementCodec.signatureIsValid(read.bytes, publicKey: signer.publicKey)
        else {
            outcome.findings.append(.statementNotAuthentic(path: read.path, fault: .badSignature))
            return false
        }
        var accepted = AcceptedStatement(read.statement, hash: read.hash)
        accepted.superseded = onBranch
        chain.statements.append(accepted)
        outcome.accepted.append(accepted)
        used.insert(read.statement.keyID)
        return true
    }

    /// The statements forking from accepted ones (`starts`): when one settle names every tip
    /// (of the new branches, and the head when a branch forks beside it), the branches and the
    /// settle are accepted; otherwise the tips are the fork. False when the walk stops.
    private func settle(
        _ starts: [ChainReader.Read], left: inout [ChainReader.Read], chain: inout ChainState,
        used: inout Set<[UInt8]>, into outcome: inout ChainReader.Outcome
    ) -> Bool {
        let head = chain.head!
        var branches: [[ChainReader.Read]] = []
        for start in starts where start.statement.kind != .settle {
            var branch = [start]
            while case let next = left.filter({
                $0.statement.previous == branch.last!.hash && $0.statement.kind != .settle
            }),
                next.count == 1
            {
                branch.append(next[0])
            }
            branches.append(branch)
        }
        let forksBesideHead = starts.contains { $0.statement.previous != head.hash }
        var tips = branches.map { AcceptedStatement($0.last!.statement, hash: $0.last!.hash) }
        if forksBesideHead { tips.insert(head, at: 0) }
        let tipHashes = Set(tips.map(\.hash))
        let settles = left.filter { read in
            read.statement.kind == .settle && tipHashes.contains(read.statement.previous)
                && Set(read.statement.superseded + [read.statement.previous]) == tipHashes
        }
        guard settles.count == 1, let settle = settles.first, tips.count > 1 else {
            outcome.fork = tips
            return false
        }
        for branch in branches {
            var parent = chain.statement(hash: branch[0].statement.previous)
            for read in branch {
                guard
                    accept(
                        read, parent: parent, superseded: [], chain: &chain, used: &used, into: &outcome, onBranch: true
                    )
                else { return false }
                parent = chain.statements.last
                left.removeAll { $0.hash == read.hash }
            }
        }
        let main = chain.statement(hash: settle.statement.previous)!
        let others = settle.statement.superseded.compactMap { chain.statement(hash: $0) }
        guard accept(settle, parent: main, superseded: others, chain: &chain, used: &used, into: &outcome) else {
            return false
        }
        left.removeAll { $0.hash == settle.hash }
        return true
    }
}
