import DiaryCrypto
import DiaryStore
import Foundation

/// Reads the statements of the membership chain this machine has not accepted yet and decides
/// which follow (docs/FORMAT.md §12): each one signed by a member of the statement before it,
/// keeping its kind's rules; two successors of one statement are a fork, ended only by a settle.
struct ChainReader {
    let tree: RemoteTree
    let vaultID: UUID
    /// The store kind of the local vault: the published header a new key is read from.
    let store: StoreKind
    /// A synced folder (files arrive in any order), not a git tree.
    let inFolder: Bool

    /// The key a statement is sealed under, from the header published with it (which costs
    /// the passphrase): the key and the header, or nil when it cannot be had now.
    typealias KeyLookup = (_ author: UUID, _ seq: UInt64, _ keyID: [UInt8]) throws -> (SyncKey, [UInt8])?

    /// One statement read and opened.
    struct Read {
        var statement: Statement
        var hash: [UInt8]
        var path: String
        var bytes: [UInt8]
    }

    struct Outcome {
        /// Newly accepted, in order; superseded branches marked.
        var accepted: [AcceptedStatement] = []
        /// The headers the key lookup opened, by statement hash: a new key's header to adopt.
        var headers: [[UInt8]: [UInt8]] = [:]
        var findings: [RemoteFinding] = []
        /// Statements not readable yet (their key's header did not open, or is not there).
        var waiting: [String] = []
        /// The tips of a fork no settle ended, when there is one: the chain stops before it.
        var fork: [AcceptedStatement] = []
        /// With one tip: every accepted statement off the main line that leads to it (the
        /// branches of settled forks; one accepted before may join them when another
        /// machine's settle wins). Nil: the marks stand.
        var offMainLine: Set<[UInt8]>?
    }

    /// The largest statement file read.
    static let fileLimit = 1 << 20

    func read(_ chain: ChainState, ring: inout SyncKeyRing, lookup: KeyLookup) throws -> Outcome {
        var outcome = Outcome()
        let files = newFiles(chain, into: &outcome)
        guard outcome.findings.isEmpty else { return outcome }
        let opened = try open(files, chain: chain, ring: &ring, lookup: lookup, into: &outcome)
        guard outcome.findings.isEmpty else { return outcome }
        ChainWalk(chain: chain, opened: opened, inFolder: inFolder).run(into: &outcome)
        return outcome
    }

    /// The statement files not accepted yet, read and checked by their clear prefix.
    private func newFiles(_ chain: ChainState, into outcome: inout Outcome) -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for name in tree.list(RemoteLayout.chainDirectory) where !name.hasPrefix(".") {
            let path = "\(RemoteLayout.chainDirectory)/\(name)"
            guard let (seq, author) = RemoteLayout.statement(fromName: name) else { continue }
            if chain.contains(seq: seq, author: author) { continue }
            guard let bytes = tree.readIfPossible(path, limit: Self.fileLimit),
                let clear = try? StatementCodec.peek(bytes), clear.vaultID == vaultID, clear.seq == seq,
                clear.author == author
            else {
                outcome.findings.append(.statementNotAuthentic(path: path, fault: .notARecord))
                continue
            }
            files.append((path, bytes))
        }
        return files
    }

    /// Opens every file it can: with the keys in the ring, then with keys retired by what it
    /// opened, then with a key its published header gives (newest first, so that the retired
    /// keys it carries open the older ones). A file whose author has no signing key anywhere in
    /// the chain, or whose signature does not verify, costs no key derivation: it is forged.
    private func open(
        _ files: [(String, [UInt8])], chain: ChainState, ring: inout SyncKeyRing, lookup: KeyLookup,
        into outcome: inout Outcome
    ) throws -> [Read] {
        var left = files
        var opened: [Read] = []
        var knownKeys: [UUID: [UInt8]] = [:]
        for statement in chain.statements { for m in statement.members { knownKeys[m.machine] = m.publicKey } }
        var lookups = 0
        while !left.isEmpty {
            var progress = false
            for (index, (path, bytes)) in left.enumerated().reversed() {
                guard let clear = try? StatementCodec.peek(bytes), let key = ring[clear.keyID] else { continue }
                let statement: Statement
                do {
                    statement = try StatementCodec.open(bytes, vaultID: vaultID, key: key)
                } catch {
                    outcome.findings.append(.statementNotAuthentic(path: path, fault: LogScanner.fault(error)))
                    return []
                }
                for retired in statement.retired {
                    try ring.add(
                        try SyncKey(recordKey: retired.recordKey, generation: retired.generation, vaultID: vaultID))
                }
                for m in statement.members where knownKeys[m.machine] == nil { knownKeys[m.machine] = m.publicKey }
                opened.append(Read(statement: statement, hash: StatementCodec.hash(bytes), path: path, bytes: bytes))
                left.remove(at: index)
                progress = true
            }
            if progress { continue }
            // Nothing opens with the keys at hand: a key change's header gives its key, the
            // newest first (its retired keys open the older ones). An admit publishes none.
            guard
                let learnt = try keyFromAHeader(
                    left, knownKeys: knownKeys, lookups: &lookups, lookup: lookup, into: &outcome)
            else { break }
            try ring.add(learnt)
        }
        if outcome.waiting.isEmpty { outcome.waiting = left.map(\.0) }
        return opened
    }

    /// The key of one of `left` from the header published with it, trying the newest first;
    /// nil when none gives one now. A statement whose author has a key in the chain must be
    /// signed by it before any key derivation is spent on it (otherwise it is forged).
    ///
    /// An unknown author's statement waits for the statement that admits it, unless nothing
    /// else gives a key while a known member's statement waits too: a machine that missed a
    /// rekey, an admit and the new member's rekey finds the first rekey's header removed, and
    /// only the newest key (whose statement retires the older ones) opens the admit. The walk
    /// checks that statement's signature once the admit is open.
    private func keyFromAHeader(
        _ left: [(String, [UInt8])], knownKeys: [UUID: [UInt8]], lookups: inout Int, lookup: KeyLookup,
        into outcome: inout Outcome
    ) throws -> SyncKey? {
        let byNewest = left.compactMap { file in (try? StatementCodec.peek(file.1)).map { (file, $0) } }
            .sorted { $0.1.seq > $1.1.seq }
        var knownAuthorWaits = false
        for ((path, bytes), clear) in byNewest {
            // A machine reading the chain for the first time knows no member yet: the walk checks
            // every signature once the statements are open. Otherwise a known author's signature
            // is checked here, header or not (a forgery costs nothing).
            if let publicKey = knownKeys[clear.author] {
                guard StatementCodec.signatureIsValid(bytes, publicKey: publicKey) else {
                    outcome.findings.append(.statementNotAuthentic(path: path, fault: .badSignature))
                    return nil
                }
                knownAuthorWaits = true
            } else if !knownKeys.isEmpty {
                continue
            }
            if let key = try key(of: clear, bytes: bytes, lookups: &lookups, lookup: lookup, into: &outcome) {
                return key
            }
            if lookups >= Self.maximumLookups { return nil }
        }
        guard knownAuthorWaits, !knownKeys.isEmpty else { return nil }
        for ((_, bytes), clear) in byNewest where knownKeys[clear.author] == nil {
            if let key = try key(of: clear, bytes: bytes, lookups: &lookups, lookup: lookup, into: &outcome) {
                return key
            }
            if lookups >= Self.maximumLookups { return nil }
        }
        return nil
    }

    /// The key `clear`'s published header gives, counted against the lookups of this sync.
    private func key(
        of clear: (vaultID: UUID, seq: UInt64, author: UUID, keyID: [UInt8]), bytes: [UInt8], lookups: inout Int,
        lookup: KeyLookup,
        into outcome: inout Outcome
    ) throws -> SyncKey? {
        let header = RemoteLayout.headerPath(chainSeq: clear.seq, author: clear.author, store: store)
        guard tree.stamp(header) != nil, lookups < Self.maximumLookups else { return nil }
        lookups += 1
        guard let (key, header) = try lookup(clear.author, clear.seq, clear.keyID), key.id == clear.keyID else {
            return nil
        }
        outcome.headers[StatementCodec.hash(bytes)] = header
        return key
    }

    /// At most this many published headers are opened with the passphrase in one sync.
    static let maximumLookups = 4
}
