import DiaryCrypto
import Foundation

/// Places the opened statements on the chain as docs/FORMAT.md §12.7 defines it: a statement is
/// accepted once the statement it follows (and, for a settle, every tip it supersedes) is, and
/// it keeps the rules of its kind with it. A **tip** is an accepted statement that none names as
/// `previous` and no settle names as superseded; exactly one tip is the head, more are a fork.
///
/// Tips are found over the whole graph, not by walking forward from the head: two machines that
/// settled one fork at once made two settles, each superseding the other's branch; only the
/// graph shows that the fork goes on (and which tips a new settle must name).
struct ChainWalk {
    var chain: ChainState
    let opened: [ChainReader.Read]
    /// A synced folder delivers files in any order: a statement that follows nothing accepted
    /// may be waiting for its predecessor. In git, whose trees arrive whole, it is forged.
    let inFolder: Bool

    /// Sets `outcome.accepted` (and the main line), or the fork's tips, or a finding.
    func run(into outcome: inout ChainReader.Outcome) {
        var graph = chain
        var placed: [AcceptedStatement] = []
        // Named as superseded: by a settle read now, or (accepted before) off the main line.
        var superseded = Set(chain.statements.filter(\.superseded).map(\.hash))
        var left = opened.sorted { ($0.statement.seq, $0.path) < ($1.statement.seq, $1.path) }
        var progress = true
        while progress, outcome.findings.isEmpty {
            progress = false
            for read in left where isPlaceable(read, in: graph) {
                guard let accepted = check(read, in: graph, into: &outcome) else { return }
                graph.statements.append(accepted)
                placed.append(accepted)
                superseded.formUnion(read.statement.superseded)
                left.removeAll { $0.hash == read.hash }
                progress = true
            }
        }
        guard outcome.findings.isEmpty else { return }
        let tips = Self.tips(of: graph, superseded: superseded)
        if tips.count == 1 {
            let off = Self.offMainLine(of: graph, tip: tips[0])
            outcome.accepted = placed.map { statement in
                var statement = statement
                statement.superseded = off.contains(statement.hash)
                return statement
            }
            outcome.offMainLine = off
        } else if tips.count > 1 {
            outcome.fork = tips
            outcome.accepted = linearlyAfterHead(placed, tips: tips, graph: graph)
        }
        // What is left hangs off no accepted statement: an old fork's, or forged.
        guard let stray = left.first, outcome.fork.isEmpty else { return }
        if inFolder {
            outcome.waiting += left.map(\.path)
        } else {
            outcome.findings.append(.statementOffTheChain(path: stray.path))
        }
    }

    /// The statement it follows is accepted (none for the genesis of an empty chain), and so
    /// is every tip a settle supersedes.
    private func isPlaceable(_ read: ChainReader.Read, in graph: ChainState) -> Bool {
        if read.statement.previous == StatementRules.zeros { return graph.statements.isEmpty }
        return graph.statement(hash: read.statement.previous) != nil
            && read.statement.superseded.allSatisfy { graph.statement(hash: $0) != nil }
    }

    /// `read` checked against the statement it follows: its kind's rules, a machine admitted
    /// once, and a signature by a member of that statement (the genesis: by its only member).
    private func check(_ read: ChainReader.Read, in graph: ChainState, into outcome: inout ChainReader.Outcome)
        -> AcceptedStatement?
    {
        let parent = graph.statement(hash: read.statement.previous)
        let superseded = read.statement.superseded.compactMap { graph.statement(hash: $0) }
        let used = Set(graph.statements.map(\.keyID))
        if let fault = StatementRules.fault(
            of: read.statement, parent: parent, superseded: superseded, usedKeyIDs: used)
        {
            outcome.findings.append(.statementBreaksChain(path: read.path, fault: fault))
            return nil
        }
        if read.statement.kind == .admit,
            let added = read.statement.members.first(where: { parent?.member($0.machine) == nil }),
            graph.member(added.machine) != nil
        {
            outcome.findings.append(.statementBreaksChain(path: read.path, fault: .breaksItsKind("admits again")))
            return nil
        }
        guard let signer = parent?.member(read.statement.author) ?? read.statement.members.first,
            StatementCodec.signatureIsValid(read.bytes, publicKey: signer.publicKey)
        else {
            outcome.findings.append(.statementNotAuthentic(path: read.path, fault: .badSignature))
            return nil
        }
        return AcceptedStatement(read.statement, hash: read.hash)
    }

    /// The accepted statements none names as `previous` and no settle names as superseded.
    static func tips(of graph: ChainState, superseded: Set<[UInt8]>) -> [AcceptedStatement] {
        let named = Set(graph.statements.map(\.previous)).union(superseded)
        return graph.statements.filter { !named.contains($0.hash) }
    }

    /// Every statement not on the line of `previous` links from `tip` to the genesis: the
    /// branches of settled forks (their records stay readable; the chain goes on from the
    /// settle).
    static func offMainLine(of graph: ChainState, tip: AcceptedStatement) -> Set<[UInt8]> {
        var main = Set<[UInt8]>()
        var at: AcceptedStatement? = tip
        while let statement = at, main.insert(statement.hash).inserted {
            at = graph.statement(hash: statement.previous)
        }
        return Set(graph.statements.map(\.hash)).subtracting(main)
    }

    /// On a fork, the new statements that follow the head one after another before it (a
    /// machine reading the chain for the first time learns the members and keys up to the
    /// fork); the rest waits for the settle.
    private func linearlyAfterHead(_ placed: [AcceptedStatement], tips: [AcceptedStatement], graph: ChainState)
        -> [AcceptedStatement]
    {
        let tipHashes = Set(tips.map(\.hash))
        var accepted: [AcceptedStatement] = []
        var head = chain.head?.hash ?? StatementRules.zeros
        while true {
            let next = graph.statements.filter { $0.previous == head }
            guard next.count == 1, let only = next.first, !tipHashes.contains(only.hash),
                placed.contains(where: { $0.hash == only.hash })
            else { return accepted }
            accepted.append(only)
            head = only.hash
        }
    }
}
