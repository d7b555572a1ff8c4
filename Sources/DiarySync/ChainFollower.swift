import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Reads the membership chain at every sync and makes the local vault follow it
/// (docs/FORMAT.md §12): a new key another member set is adopted once the passphrase opens
/// the header published with it; a new passphrase over the same key once the user proves it.
final class ChainFollower {
    let vault: Vault
    let tree: RemoteTree
    let store: StateStore
    let passphrase: SyncPassphrase
    /// A synced folder, not a git tree (`ChainWalk.inFolder`).
    let inFolder: Bool
    /// The tips of a fork no settle ended, as the last read found them (empty: no fork).
    private(set) var fork: [AcceptedStatement] = []
    /// False when statements were left unread (a key not at hand yet): what looks like a fork
    /// may be settled by one of them, so this machine states nothing until it reads them all.
    private(set) var readAll = true
    /// Headers opened in this sync, by the hash of the statement that published them.
    private var openedHeaders: [[UInt8]: [UInt8]] = [:]

    init(vault: Vault, tree: RemoteTree, store: StateStore, passphrase: SyncPassphrase, inFolder: Bool) {
        self.vault = vault
        self.inFolder = inFolder
        self.tree = tree
        self.store = store
        self.passphrase = passphrase
    }

    static func digest(ofHeader header: [UInt8]) -> [UInt8] { BLAKE2b.hash(header, outputCount: 16) }

    /// Accepts the statements that follow the chain this machine holds, then follows the key and
    /// header they put in force. A fork stops the sync unless this machine has a key change
    /// waiting, which will settle it.
    func read(main: inout SyncMain, ring: inout SyncKeyRing, report: inout SyncReport) throws {
        let reader = ChainReader(tree: tree, vaultID: vault.id, store: vault.store, inFolder: inFolder)
        let names = main.chain.statements.last?.members ?? []
        let outcome = try reader.read(main.chain, ring: &ring) { author, seq, keyID in
            try self.keyFromHeader(author: author, seq: seq, keyID: keyID, names: names)
        }
        let findings = outcome.findings + stillThere(main.chain) + cutsDisagree(outcome.accepted, logs: main.logs)
        guard findings.isEmpty else { throw SyncError.untrustedRemote(findings) }
        openedHeaders.merge(outcome.headers) { a, _ in a }
        let before = main.chain
        main.chain.statements += outcome.accepted
        if let off = outcome.offMainLine {
            for i in main.chain.statements.indices {
                main.chain.statements[i].superseded = off.contains(main.chain.statements[i].hash)
            }
        }
        for key in ring.all where !main.recordKeys.contains(where: { $0.keyID == key.id }) {
            main.recordKeys.append(RetiredKey(generation: key.generation, keyID: key.id, recordKey: key.recordKey))
        }
        // A machine reading the chain for the first time (joining) has nothing to be told of.
        if !before.statements.isEmpty {
            report.notes += ChainNotes.notes(for: outcome.accepted, before: before, me: main.machine)
        }
        readAll = outcome.waiting.isEmpty
        fork = readAll ? outcome.fork : []
        main.forkGeneration = fork.map(\.generation).max() ?? 0
        if !fork.isEmpty, main.pendingChange?.kind.changesKey != true {
            throw SyncError.chainForked(machines: fork.map { main.chain.member($0.author)?.name ?? "?" })
        }
        if !outcome.waiting.isEmpty { report.notes.append(.statementsWaiting(count: outcome.waiting.count)) }
        // A machine taking the chain in for the first time adopts its header as a matter of
        // course: nothing there to tell.
        var followed = report
        try follow(main: &main, ring: &ring, report: &followed)
        if before.statements.isEmpty { followed.notes = report.notes }
        report = followed
    }

    /// Every statement accepted before is still there, byte for byte: otherwise the remote was
    /// rolled back or rewritten (a git remote's history checks say so too; a folder's only this).
    private func stillThere(_ chain: ChainState) -> [RemoteFinding] {
        var findings: [RemoteFinding] = chain.statements.compactMap { statement in
            let path = RemoteLayout.statementPath(seq: statement.seq, author: statement.author)
            let bytes = tree.readIfPossible(path, limit: ChainReader.fileLimit)
            return bytes.map(StatementCodec.hash) == statement.hash ? nil : .statementGone(path: path)
        }
        // The headers in force are what joining machines open: each must be the one stated.
        if let inForce = chain.headerStatement {
            for (store, hash) in inForce.headerHashes {
                let path = RemoteLayout.headerPath(chainSeq: inForce.seq, author: inForce.author, store: store)
                if let bytes = tree.readIfPossible(path, limit: RemoteTree.headerLimit), BLAKE2b.hash(bytes) != hash {
                    findings.append(.headerNotAuthentic(path: path))
                }
            }
        }
        return findings
    }

    /// What a new statement says its author had read of each log must match what this machine
    /// read, as a record's version vector must.
    private func cutsDisagree(_ accepted: [AcceptedStatement], logs: [UUID: LogState]) -> [RemoteFinding] {
        var findings: [RemoteFinding] = []
        for statement in accepted {
            for cut in statement.cuts where cut.seq > 0 {
                guard let log = logs[cut.machine], log.seen >= cut.seq else { continue }
                if log.records[Int(cut.seq - 1)].hash != cut.hash {
                    findings.append(
                        .logsDisagree(
                            path: RemoteLayout.statementPath(seq: statement.seq, author: statement.author),
                            machine: log.name, seq: cut.seq))
                }
            }
        }
        return findings
    }

    /// The key a statement is sealed under, from the header published with it: read without
    /// following links, checked to name this vault and cost no less than the local header, and
    /// opened with the passphrase.
    private func keyFromHeader(author: UUID, seq: UInt64, keyID: [UInt8], names: [Member]) throws -> (
        SyncKey, [UInt8]
    )? {
        let path = RemoteLayout.headerPath(chainSeq: seq, author: author, store: vault.store)
        guard let header = tree.readIfPossible(path, limit: RemoteTree.headerLimit) else { return nil }
        guard let described = try? Vault.describeHeader(header), described.vaultID == vault.id,
            described.store == vault.store
        else {
            throw SyncError.untrustedRemote([.headerNotAuthentic(path: path)])
        }
        guard vault.costsNoLess(header) else { throw SyncError.untrustedRemote([.headerCheaper(path: path)]) }
        let name = names.first { $0.machine == author }?.name ?? RemoteLayout.placeholderName(author)
        let unwrapped = try passphrase.use(
            .followRotation(machine: name, attempt: 1),
            onWrong: .passphraseChangedElsewhere(machine: name, ownChangeLost: false)
        ) { try Vault.unwrapHeader(header, passphrase: $0) }
        return (try SyncKey(vaultKey: unwrapped.key, generation: unwrapped.generation, vaultID: vault.id), header)
    }

    /// The header the chain puts in force for this machine's store: from this sync's openings,
    /// or read from the remote; its hash must be the one the statement names.
    func header(of statement: AcceptedStatement) throws -> [UInt8]? {
        let path = RemoteLayout.headerPath(chainSeq: statement.seq, author: statement.author, store: vault.store)
        guard let bytes = openedHeaders[statement.hash] ?? tree.readIfPossible(path, limit: RemoteTree.headerLimit)
        else { return nil }
        guard BLAKE2b.hash(bytes) == statement.headerHashes[vault.store] else {
            throw SyncError.untrustedRemote([.headerNotAuthentic(path: path)])
        }
        return bytes
    }
}
