import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Starting to sync, joining from another machine, and telling sync about key changes made
/// here (a passphrase change, a key rotation).
public enum SyncLifecycle {
    /// Makes `vault` sync with `remote`: an empty remote (or folder) becomes this vault's; a
    /// remote of this vault is joined with the entries this machine already has. Publishes the
    /// header for every store kind (proven by `passphrase`) so another machine can join, then
    /// runs a first sync.
    /// `checked`: what `checkBeforeStart` fetched for this remote (a git clone), taken instead
    /// of cloning again.
    public static func initialize(
        vault: Vault, remote: RemoteLocation, machineName: String, passphrase: SecretBytes, stateDirectory: URL,
        invite: InviteCode? = nil, checked: StartCheck? = nil, progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws -> SyncReport {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        if let existing = try setup.remote() { throw SyncError.alreadySetUp(remote: existing.description) }
        return try start(
            vault: vault, remote: remote, machineName: machineName, passphrase: passphrase,
            stateDirectory: stateDirectory, invite: invite, clone: checked?.clone, progress: progress)
    }

    /// `initialize` once it is known that the vault may start syncing here (also the last step
    /// of an upgrade, which replaces a format-1 state).
    static func start(
        vault: Vault, remote: RemoteLocation, machineName: String, passphrase: SecretBytes, stateDirectory: URL,
        invite: InviteCode?, clone: URL? = nil, progress: @escaping (SyncProgress) -> Void
    ) throws -> SyncReport {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        // Mid-rotation the header holds two keys: nothing fit to publish until a rekey ends.
        guard !vault.rotationInterrupted else { throw VaultError.rotationInterrupted }
        let published = try Vault.publishableHeaders(at: vault.directory, passphrase: passphrase)
        // A failed start leaves nothing on this machine (no clone, no state) for the next try
        // to trip over. An upgrade keeps the remote's address, so that it can be run again.
        try? setup.clear(keepingConfig: true)
        // Once this machine's chain is on the remote, its state must stay: it alone can sign
        // there, and the next sync takes the start up again.
        var stateWritten = false
        do {
            try setup.makeDirectories()
            let tree = setup.tree(for: remote)
            switch remote {
            case .git(let url):
                if let clone, FileManager.default.fileExists(atPath: clone.path) {
                    try? FileManager.default.removeItem(at: setup.gitTree)
                    try FileManager.default.moveItem(at: clone, to: setup.gitTree)
                } else {
                    try GitRemote(url: url, tree: setup.gitTree).cloneIfNeeded()
                }
            case .folder:
                try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
            }
            let remoteTree = RemoteTree(root: tree)
            let fresh = try checkUsable(remoteTree, vaultID: vault.id)
            if !fresh, invite == nil { throw SyncError.inviteNeeded }
            let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
            let main = SyncMain(
                machine: SecureRandom.uuid(), machineName: machineName,
                signingKey: try SigningKeyPair.generate().secretKey)
            if fresh { try writeGenesis(remoteTree, main: main, key: key, vault: vault, headers: published.headers) }
            try SyncFaults.point("start.genesisWritten")
            try StateStore(directory: setup.directory, vaultID: vault.id, key: key).writeMain(main)
            try setup.writeConfig(remote)
            stateWritten = fresh
            // The remote may hold this vault's records under keys this vault has since
            // retired or not yet followed: the passphrase given opens their headers.
            let engine = try SyncEngine(
                vault: vault, stateDirectory: stateDirectory, passphrase: { $0.attempt == 1 ? passphrase : nil },
                progress: progress)
            engine.invite = invite
            return try engine.sync()
        } catch SyncFaults.Crash.crashed {
            throw SyncFaults.Crash.crashed  // a crash cleans nothing up
        } catch  where stateWritten {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: setup.directory)
            // The vault's directory above it, when nothing else syncs there.
            _ = rmdir(setup.directory.deletingLastPathComponent().path)
            throw error
        }
    }

    /// A remote tree can be taken: empty (true: this machine starts its chain), or already a
    /// remote of this vault in format 2 (false).
    static func checkUsable(_ tree: RemoteTree, vaultID: UUID) throws -> Bool {
        // Hidden names are the sync tool's own (.git, .stfolder, .stignore, .dropbox, ...).
        let names = tree.list().filter { !$0.hasPrefix(".") }
        guard !names.isEmpty else { return true }
        // No marker yet, only the folders a start writes before its first sync wrote the
        // marker: a start (or an upgrade) cut short. Nobody ever synced there; start afresh.
        let started: Set = [RemoteLayout.chainDirectory, RemoteLayout.keysDirectory, RemoteLayout.logDirectory]
        if try tree.marker() == .absent, Set(names).isSubset(of: started) {
            for name in names { try tree.removeAll(name) }
            return true
        }
        switch try tree.marker() {
        case .absent: throw SyncError.remoteUnusable(.notEmptyAndNoMarker(path: tree.root.path))
        case .unreadable: throw SyncError.remoteUnusable(.notAMarker(path: tree.url(RemoteLayout.marker).path))
        case .format1: throw SyncError.remoteOfFormat1
        case .vault(let id): guard id == vaultID else { throw SyncError.otherVault(id) }
        }
        return false
    }

    /// The first statement of a new chain: this machine its only member, the vault's header
    /// for each store, the key in force.
    static func writeGenesis(
        _ tree: RemoteTree, main: SyncMain, key: SyncKey, vault: Vault, headers: [StoreKind: [UInt8]]
    ) throws {
        let signing = try SigningKeyPair(secretKey: main.signingKey)
        let genesis = Statement(
            seq: 0, author: main.machine, keyID: key.id, previous: StatementRules.zeros, kind: .genesis,
            generation: vault.keyGeneration,
            members: [Member(machine: main.machine, publicKey: signing.publicKey, name: main.machineName)],
            headerHashes: headers.mapValues { BLAKE2b.hash($0) })
        try tree.makeFolder(RemoteLayout.chainDirectory)
        try tree.makeFolder(RemoteLayout.keysDirectory)
        for (kind, header) in headers {
            try tree.write(header, to: RemoteLayout.headerPath(chainSeq: 0, author: main.machine, store: kind))
        }
        let sealed = try StatementCodec.seal(genesis, vaultID: vault.id, key: key, signingKey: main.signingKey)
        try tree.write(sealed, to: RemoteLayout.statementPath(seq: 0, author: main.machine))
    }

    /// Builds a new local vault at `directory` from a remote: the passphrase opens a header
    /// the remote published, the records fill the vault. The directory must not exist or be
    /// empty; on failure nothing is left behind.
    public static func join(
        remote: RemoteLocation, to directory: URL, store: StoreKind, machineName: String, passphrase: SecretBytes,
        invite: InviteCode, stateDirectory: URL, progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws -> (Vault, SyncReport) {
        try join(
            remote: remote, to: directory, store: store, machineName: machineName, invite: invite,
            stateDirectory: stateDirectory, progress: progress,
            openingHeader: { open in (try open(passphrase), passphrase) })
    }

    /// Opens a published header with a passphrase: `open` is given each passphrase to try and
    /// throws `VaultError.wrongPassphrase` for one that opens none; the header it returned and
    /// the passphrase that opened it come back.
    public typealias HeaderOpening = (_ open: (SecretBytes) throws -> [UInt8]) throws -> (
        header: [UInt8], passphrase: SecretBytes
    )

    /// `join`, asking for the passphrase only once the remote was fetched and found to hold a
    /// vault (`openingHeader`): a missing or empty remote is said before any question, and no
    /// key derivation is spent on it.
    public static func join(
        remote: RemoteLocation, to directory: URL, store: StoreKind, machineName: String, invite: InviteCode,
        stateDirectory: URL, progress: @escaping (SyncProgress) -> Void = { _ in }, openingHeader: HeaderOpening
    ) throws -> (Vault, SyncReport) {
        let fm = FileManager.default
        if let names = try? fm.contentsOfDirectory(atPath: directory.path), !names.isEmpty {
            throw SyncError.targetNotEmpty(path: directory.path)
        }
        // Fetch into a scratch place first: the vault id, which names the state directory,
        // is only known from the remote.
        let scratch = stateDirectory.appendingPathComponent("sync", isDirectory: true)
            .appendingPathComponent(".join-\(UUID().uuidString.lowercased())", isDirectory: true)
        try SyncSetup.makeDirectories(scratch)
        defer { try? fm.removeItem(at: scratch) }
        let (tree, vaultID) = try fetchForJoin(remote, into: scratch)
        let (header, passphrase) = try openingHeader { passphrase in
            try openablePublishedHeader(
                in: RemoteTree(root: tree), vaultID: vaultID, store: store, passphrase: passphrase)
        }
        let createdDirectory = !fm.fileExists(atPath: directory.path)
        let vault: Vault
        do {
            vault = try Vault.create(at: directory, adopting: header, passphrase: passphrase)
        } catch {
            if createdDirectory { try? fm.removeItem(at: directory) }
            throw error
        }
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vault.directory)
        do {
            try? fm.removeItem(at: setup.directory)
            try setup.makeDirectories()
            if case .git = remote { try fm.moveItem(at: tree, to: setup.gitTree) }
            let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vaultID)
            let main = SyncMain(
                machine: SecureRandom.uuid(), machineName: machineName,
                signingKey: try SigningKeyPair.generate().secretKey)
            try StateStore(directory: setup.directory, vaultID: vaultID, key: key).writeMain(main)
            try setup.writeConfig(remote)
            let engine = try SyncEngine(
                vault: vault, stateDirectory: stateDirectory, passphrase: { $0.attempt == 1 ? passphrase : nil },
                progress: progress)
            engine.invite = invite
            return (vault, try engine.sync())
        } catch {
            try? fm.removeItem(at: setup.directory)
            if createdDirectory { try? fm.removeItem(at: directory) } else { try? removeContents(of: directory) }
            throw error
        }
    }

    /// The remote's tree (a clone in `scratch`, or the folder itself) and the id of the vault
    /// it holds; a remote that holds none is refused.
    private static func fetchForJoin(_ remote: RemoteLocation, into scratch: URL) throws -> (URL, UUID) {
        let tree: URL
        switch remote {
        case .git(let url):
            tree = scratch.appendingPathComponent("git", isDirectory: true)
            try GitRemote(url: url, tree: tree).cloneIfNeeded()
        case .folder(let path):
            tree = URL(fileURLWithPath: path, isDirectory: true)
        }
        switch try RemoteTree(root: tree).marker() {
        case .absent: throw SyncError.remoteUnusable(.nothingToJoin(markerFile: RemoteLayout.marker))
        case .unreadable: throw SyncError.remoteUnusable(.unreadableMarker(markerFile: RemoteLayout.marker))
        case .format1: throw SyncError.remoteOfFormat1
        case .vault(let id): return (tree, id)
        }
    }

    private static func removeContents(of directory: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// The newest published header for `store` that `passphrase` opens (newest first by the
    /// sequence number in its name; each distinct salt costs one key derivation).
    static func openablePublishedHeader(in tree: RemoteTree, vaultID: UUID, store: StoreKind, passphrase: SecretBytes)
        throws -> [UInt8]
    {
        // Only headers published with a statement the remote holds: a host's junk headers do not
        // spend the few key derivations a join allows.
        let stated = Set(
            tree.list(RemoteLayout.chainDirectory).compactMap(RemoteLayout.statement(fromName:)).map {
                "\($0.seq)-\($0.author)"
            })
        let candidates = tree.publishedHeaders().filter {
            $0.store == store && stated.contains("\($0.seq)-\($0.machine)")
        }
        guard !candidates.isEmpty else { throw SyncError.remoteUnusable(.noPublishedHeader) }
        var tried = Set<[UInt8]>()
        // Each header tried costs a key derivation; the host chooses what is there.
        for candidate in candidates where tried.count < maximumHeadersTried {
            guard let bytes = try tree.read(candidate.path, limit: RemoteTree.headerLimit),
                let described = try? Vault.describeHeader(bytes), described.vaultID == vaultID,
                tried.insert(bytes).inserted
            else { continue }
            if (try? Vault.unwrapHeader(bytes, passphrase: passphrase)) != nil { return bytes }
        }
        throw VaultError.wrongPassphrase
    }

    /// The remote the vault `vaultID` at `vaultDirectory` syncs with on this machine, nil when
    /// it does not sync here. Reads only the state directory's clear `config`: no key is needed,
    /// so a command can say "does not sync" before it asks for a passphrase.
    public static func remote(vaultID: UUID, vaultDirectory: URL, stateDirectory: URL) throws -> RemoteLocation? {
        try SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory).remote()
    }

    /// True when the vault `vaultID` at `vaultDirectory` syncs on this machine.
    public static func syncs(vaultID: UUID, vaultDirectory: URL, stateDirectory: URL) -> Bool {
        ((try? SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory).remote())
            ?? nil) != nil
    }

    /// The highest key generation stated on the chain as this machine accepted it (and of the
    /// fork tips it last met), nil when the vault does not sync here: a rotation here must go
    /// above it, or the other machines could not take its key in.
    public static func highestStatedGeneration(vault: Vault, stateDirectory: URL) throws -> UInt32? {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard try setup.remote() != nil, !vault.rotationInterrupted else { return nil }
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
        let main = try setup.lock.withLock(exclusive: true) {
            try StateStore(directory: setup.directory, vaultID: vault.id, key: key).readMain()
        }
        return max(main.chain.statements.map(\.generation).max() ?? 0, main.forkGeneration)
    }

    /// At most this many published headers are tried with the passphrase when joining.
    static let maximumHeadersTried = 4

    /// After a passphrase change: the next sync publishes the new header.
    public static func notePassphraseChange(
        _ change: PassphraseChange, vaultDirectory: URL, stateDirectory: URL
    ) throws {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: change.vaultID, vaultDirectory: vaultDirectory)
        guard try setup.remote() != nil else { return }
        try setup.lock.withLock(exclusive: true) {
            let key = try SyncKey(vaultKey: change.vaultKey, generation: change.generation, vaultID: change.vaultID)
            let store = StateStore(directory: setup.directory, vaultID: change.vaultID, key: key)
            var main = try store.readMain()
            var pending = main.pendingChange ?? PendingChange(kind: .passphrase, headers: [:])
            pending.headers = change.headers
            pending.newPassphrase = true
            main.pendingChange = pending
            try store.writeMain(main)
        }
    }

    /// During a key rotation, before the old key is dropped: the state is sealed again under
    /// the new key, and the next sync publishes the new header with the retired key sealed
    /// under the new one. Idempotent: a rekey interrupted after this runs it again, and the
    /// state is then already under the new key.
    ///
    /// `finishing`: the rotation was found interrupted, so it may be one this machine was
    /// following; only then are other machines' records looked at (a key just drawn is never
    /// on the remote).
    public static func noteKeyRotation(
        vault: Vault, headers: PublishableHeaders, retiredKey: SecretBytes, retiredGeneration: UInt32,
        stateDirectory: URL, finishing: Bool = true
    ) throws {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { return }
        try setup.lock.withLock(exclusive: true) {
            let old = try SyncKey(vaultKey: retiredKey, generation: retiredGeneration, vaultID: vault.id)
            let new = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id)
            let store = StateStore(directory: setup.directory, vaultID: vault.id, key: old)
            guard let sealedUnder = try store.keyInUse(among: [old, new]) else {
                throw SyncError.stateUnreadable(path: store.mainURL.path)
            }
            store.key = sealedUnder
            store.alsoOpensWith = [old, new]
            var main = try store.readMain()
            for key in [old, new] where !main.recordKeys.contains(where: { $0.keyID == key.id }) {
                main.recordKeys.append(RetiredKey(generation: key.generation, keyID: key.id, recordKey: key.recordKey))
            }
            // A rotation this machine was following when it was cut short (finished now by a
            // rekey) is another machine's key change: stating it again would present it as this
            // machine's.
            let tree = RemoteTree(root: setup.tree(for: remote))
            if !finishing || !statementNames(new.id, in: tree) {
                var pending = main.pendingChange ?? PendingChange(kind: .rekey, headers: [:])
                if pending.kind == .passphrase { pending.kind = .rekey }
                pending.headers = headers.byStore
                pending.retired.removeAll { $0.keyID == old.id || $0.keyID == new.id }
                pending.retired.append(RetiredKey(generation: old.generation, keyID: old.id, recordKey: old.recordKey))
                main.pendingChange = pending
            }
            // Files first, `state` last: cut short, a second call opens either key (above).
            try store.resealOnDisk(under: new)
            try SyncFaults.point("rekey.resealed")
            try store.writeMain(main)
        }
    }

    /// True when a statement on the remote is sealed under the key `keyID` names (only each
    /// statement's clear prefix is read). A key this machine just drew never is.
    static func statementNames(_ keyID: [UInt8], in tree: RemoteTree) -> Bool {
        for name in tree.list(RemoteLayout.chainDirectory) where RemoteLayout.statement(fromName: name) != nil {
            let path = "\(RemoteLayout.chainDirectory)/\(name)"
            if let prefix = tree.readPrefix(path, count: StatementCodec.prefixLength),
                let clear = try? StatementCodec.peek(prefix), clear.keyID == keyID
            {
                return true
            }
        }
        return false
    }
}

extension SyncSetup {
    static func makeDirectories(_ directory: URL) throws {
        var url = directory
        var missing: [URL] = []
        while !FileManager.default.fileExists(atPath: url.path) {
            missing.append(url)
            url = url.deletingLastPathComponent()
        }
        for dir in missing.reversed() { try DurableFile.makeDirectory(dir) }
    }
}

extension SyncLifecycle {
    /// Stops syncing on this machine: its sync state (the remote's address, what it saw, its
    /// git clone) is removed; the local vault and the remote are left as they are. Returns the
    /// remote it synced with, or nil when it did not sync.
    @discardableResult
    public static func stop(vaultID: UUID, vaultDirectory: URL, stateDirectory: URL) throws -> RemoteLocation? {
        let setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vaultID, vaultDirectory: vaultDirectory)
        guard let remote = try setup.remote() else { return nil }
        try setup.lock.withLock(exclusive: true) {
            for name in try FileManager.default.contentsOfDirectory(atPath: setup.directory.path) where name != "lock" {
                try FileManager.default.removeItem(at: setup.directory.appendingPathComponent(name))
            }
        }
        try? FileManager.default.removeItem(at: setup.directory)
        return remote
    }
}
