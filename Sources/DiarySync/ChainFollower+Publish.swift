import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

extension ChainFollower {
    /// Admits the machines whose join record answers an invite this machine issued, each by an
    /// admit statement. A join naming one of its invites with a wrong proof is forged.
    func admit(_ joins: [LogScanner.Join], main: inout SyncMain, ring: inout SyncKeyRing, report: inout SyncReport)
        throws
    {
        for join in joins {
            guard let index = main.invites.firstIndex(where: { $0.id == join.request.inviteID }) else { continue }
            let invite = main.invites[index]
            let proof = try InviteCode.proof(
                secret: invite.secret, vaultID: vault.id, machine: join.machine, publicKey: join.request.publicKey,
                name: join.name, head: invite.head)
            guard proof == join.request.proof else {
                throw SyncError.untrustedRemote([.joinNotAuthentic(path: join.path)])
            }
            guard let head = main.chain.head, main.chain.member(join.machine) == nil else { continue }
            var members =
                head.members + [Member(machine: join.machine, publicKey: join.request.publicKey, name: join.name)]
            members.sort { $0.machine.bytes.lexicographicallyPrecedes($1.machine.bytes) }
            let statement = Statement(
                seq: head.seq + 1, author: main.machine, keyID: head.keyID, previous: head.hash, kind: .admit,
                generation: head.generation, members: members, headerHashes: head.headerHashes,
                cuts: main.marks())
            try write(statement, headers: [:], main: &main, ring: &ring, report: &report)
            main.invites.remove(at: index)
        }
    }

    /// States the key change this machine made (a passphrase, a rotation, a removal) on top of
    /// the chain; on a fork, a rotation becomes the settle that ends it.
    func publishPendingChange(main: inout SyncMain, ring: inout SyncKeyRing, report: inout SyncReport) throws {
        guard var change = main.pendingChange, let head = main.chain.head, readAll else { return }
        // Stated already by a sync cut short before it saved that it had: nothing to state again.
        let stated = change.headers.mapValues { BLAKE2b.hash($0) }
        if main.chain.statements.contains(where: { $0.author == main.machine && $0.headerHashes == stated }) {
            main.pendingChange = nil
            return
        }
        try checkKeepsThePassphrase(change, main: main)
        if try takeTheNewerRecoveryKey(&change, main: main) { main.pendingChange = change }
        let tips = fork
        let parent = tips.first { $0.author == main.machine } ?? tips.first ?? head
        let others = tips.filter { $0.hash != parent.hash }
        if change.kind.changesKey, let newest = ([parent] + others).max(by: { $0.generation < $1.generation }),
            vault.keyGeneration <= newest.generation
        {
            // Another machine stated a key as new as the one rotated here: a rotation here
            // again (above every generation stated, which this sync saves) goes on top.
            throw SyncError.concurrentRotation(machine: main.chain.member(newest.author)?.name ?? "?")
        }
        var members = parent.members
        if let removing = change.removing { members.removeAll { $0.machine == removing } }
        var statement = Statement(
            seq: 1 + (tips.map(\.seq) + [head.seq]).max()!, author: main.machine, keyID: ring.current.id,
            previous: parent.hash, kind: others.isEmpty ? change.kind : .settle, generation: vault.keyGeneration,
            superseded: others.map(\.hash), members: members,
            headerHashes: change.headers.mapValues { BLAKE2b.hash($0) }, cuts: main.marks())
        if change.kind == .passphrase {
            guard others.isEmpty else { throw SyncError.chainForked(machines: []) }
            guard head.keyID == ring.current.id else {
                main.pendingChange = nil
                return
            }
        } else {
            var retired = change.retired
            for tip in [parent] + others where tip.keyID != ring.current.id {
                guard let key = ring[tip.keyID] else { throw SyncError.concurrentRotation(machine: "?") }
                retired.append(RetiredKey(generation: key.generation, keyID: key.id, recordKey: key.recordKey))
            }
            var seen = Set<[UInt8]>()
            statement.retired = retired.filter { $0.keyID != ring.current.id && seen.insert($0.keyID).inserted }
        }
        if change.removing != nil, !statement.cuts.contains(where: { $0.machine == change.removing }) {
            statement.cuts.append(LogMark(machine: change.removing!, seq: 0, hash: StatementRules.zeros))
            statement.cuts.sort { $0.machine.bytes.lexicographicallyPrecedes($1.machine.bytes) }
        }
        try write(statement, headers: change.headers, main: &main, ring: &ring, report: &report)
        try SyncFaults.point("sync.stated")
        main.pendingChange = nil
        report.keyChangePublished = true
    }

    /// Checks `statement` by the rules every reader applies, writes its headers and then the
    /// statement, and reads the chain again so that it is accepted like any other.
    private func write(
        _ statement: Statement, headers: [StoreKind: [UInt8]], main: inout SyncMain, ring: inout SyncKeyRing,
        report: inout SyncReport
    ) throws {
        let parent = main.chain.statement(hash: statement.previous) ?? fork.first { $0.hash == statement.previous }
        let superseded = fork.filter { statement.superseded.contains($0.hash) }
        let used = Set(main.chain.statements.map(\.keyID) + fork.map(\.keyID))
        if let fault = StatementRules.fault(of: statement, parent: parent, superseded: superseded, usedKeyIDs: used) {
            throw SyncError.cannotState(fault)
        }
        try tree.makeFolder(RemoteLayout.chainDirectory)
        try tree.makeFolder(RemoteLayout.keysDirectory)
        for (kind, header) in headers {
            try tree.write(
                header, to: RemoteLayout.headerPath(chainSeq: statement.seq, author: statement.author, store: kind))
        }
        let sealed = try StatementCodec.seal(
            statement, vaultID: vault.id, key: ring.current, signingKey: main.signingKey)
        try tree.write(sealed, to: RemoteLayout.statementPath(seq: statement.seq, author: statement.author))
        try read(main: &main, ring: &ring, report: &report)
    }
}

extension ChainFollower {
    /// A passphrase change made here that a cut-short `passwd` never told sync about: the
    /// header's digest differs from the one kept at the last sync, no change waits, and the
    /// chain's header is not it. Queues it (its other store's variant needs the passphrase,
    /// which also proves the header).
    func noteUnannouncedPassphraseChange(main: inout SyncMain) throws -> SyncNote? {
        let local = vault.encodedHeader
        // Already waiting to be stated (a `passwd` or a rotation that told sync).
        if let waiting = main.pendingChange?.headers[vault.store], Vault.wrapAlike(waiting, local) { return nil }
        guard !main.headerDigest.isEmpty, main.headerDigest != Self.digest(ofHeader: local),
            main.chain.headerStatement?.headerHashes[vault.store] != BLAKE2b.hash(local)
        else { return nil }
        // A header some machine published: taken in by a sync (or a rekey finishing one) that
        // was cut short before it saved what it did. A `passwd` here draws a salt of its own.
        let published = tree.publishedHeaders().filter { $0.store == vault.store }
            .compactMap { tree.readIfPossible($0.path, limit: RemoteTree.headerLimit) }
        if published.contains(where: { Vault.wrapAlike($0, local) }) { return nil }
        let change = try passphrase.use(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) {
            try Vault.publishableHeaders(at: vault.directory, passphrase: $0)
        }
        guard change.generation == vault.keyGeneration else { return nil }
        var pending = main.pendingChange ?? PendingChange(kind: .passphrase, headers: [:])
        pending.headers = change.headers
        pending.newPassphrase = true
        main.pendingChange = pending
        return .unannouncedPassphraseChangePublished
    }

    /// A rotation made here without a new passphrase must not bring back a passphrase the chain
    /// has since replaced: its headers wrap under this machine's passphrase, which another
    /// machine's `passwd` may have retired (this machine not having taken the new one yet).
    private func checkKeepsThePassphrase(_ change: PendingChange, main: SyncMain) throws {
        guard change.kind.changesKey, !change.newPassphrase, let ours = change.headers[vault.store] else { return }
        let stated = (main.chain.headerStatement.map { [$0] } ?? []) + fork
        for statement in stated where statement.author != main.machine {
            guard let theirs = try header(of: statement), !Vault.wrapAlike(ours, theirs) else { continue }
            let name = main.chain.member(statement.author)?.name ?? RemoteLayout.placeholderName(statement.author)
            throw SyncError.keyChangeUnderOldPassphrase(machine: name)
        }
    }

    /// A change made here must not publish an older recovery key than the header in force:
    /// its machine replaced or removed the key while this one changed the vault key or the
    /// passphrase before taking that in, and the header made here would seal the vault key to
    /// the key the user retired. The newer block is taken first (its tag checked with the key
    /// it wraps; the passphrase is needed to seal the slot again) and the headers made anew:
    /// true when `change` was so changed. An equal epoch naming another key (a recovery change
    /// made here too) cannot be merged: refused by name, nothing written.
    private func takeTheNewerRecoveryKey(_ change: inout PendingChange, main: SyncMain) throws -> Bool {
        guard let ours = change.headers[vault.store].flatMap(Vault.recoveryStatus(ofHeader:)),
            let inForce = main.chain.headerStatement, inForce.author != main.machine,
            let bytes = try header(of: inForce), let theirs = Vault.recoveryStatus(ofHeader: bytes),
            theirs.epoch > ours.epoch || (theirs.epoch == ours.epoch && theirs != ours)
        else { return false }
        let name = main.chain.member(inForce.author)?.name ?? RemoteLayout.placeholderName(inForce.author)
        guard theirs.epoch > ours.epoch else { throw SyncError.recoveryKeyReplacedElsewhere(machine: name) }
        let taken = try passphrase.use(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) { given in
            // Taken already by a sync cut short before it published: only the headers again.
            if vault.recoveryStatus == theirs {
                return try Vault.publishableHeaders(at: vault.directory, passphrase: given)
            }
            do {
                return try vault.takeRecoveryBlock(of: bytes, passphrase: given)
            } catch VaultError.recoveryKeyMismatch {
                throw SyncError.recoveryKeyReplacedElsewhere(machine: name)
            }
        }
        change.headers = taken.headers
        return true
    }
}
