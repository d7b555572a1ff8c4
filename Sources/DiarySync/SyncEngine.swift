import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// Why a sync asks for the passphrase; the CLI words the prompt. `attempt` counts from 1:
/// a later one follows a passphrase that did not open, and the CLI gives nil when it has no
/// other to offer (a passphrase file, or the terminal's tries used up).
public enum PassphraseNeed: Sendable, Equatable {
    /// Another machine rotated the vault key: the header it published opens with the
    /// passphrase set there.
    case followRotation(machine: String, attempt: Int)
    /// The passphrase was changed here without sync being told (an interrupted `passwd`).
    case publishOwnChange(attempt: Int)

    public var attempt: Int {
        switch self {
        case .followRotation(_, let n), .publishOwnChange(let n): return n
        }
    }

    var again: PassphraseNeed {
        switch self {
        case .followRotation(let machine, let n): return .followRotation(machine: machine, attempt: n + 1)
        case .publishOwnChange(let n): return .publishOwnChange(attempt: n + 1)
        }
    }
}

/// One sync of a local vault with its remote (docs/FORMAT.md §12.8):
///
/// 1. find what changed in the local vault since the last sync (index page tags, then rows);
/// 2. fetch (git) and read every machine's new records, checking them against what this
///    machine saw: any contradiction stops the sync before anything is written;
/// 3. write this machine's changes as its next record;
/// 4. follow the newest key change (a passphrase or a key another machine set);
/// 5. make the local vault show every entry's preferred head;
/// 6. save the state, then push (git); if another machine pushed first, fetch and repeat 2–5.
public final class SyncEngine {
    let vault: Vault
    let setup: SyncSetup
    let remote: RemoteLocation
    var store: StateStore
    var main: SyncMain
    var ring: SyncKeyRing
    /// Asked when the passphrase is needed (see `PassphraseNeed`); nil when none can be had.
    let passphrase: (PassphraseNeed) throws -> SecretBytes?
    private var cachedPassphrase: SecretBytes?
    let progress: (SyncProgress) -> Void
    var report = SyncReport()
    /// Entries whose heads changed in this sync, to show in the local vault.
    private var touched = Set<UUID>()
    /// Digests of entries changed locally since the last sync.
    private var localDigests: [UUID: [UInt8]] = [:]
    private var keyChanges: [(id: KeyChangeID, change: KeyChange, name: String, keyID: [UInt8])] = []
    private var pagesWritten = Set<Int>()
    private var detectedTags: [[UInt8]] = []
    /// Set by `join`: a passphrase change found while joining must open with the passphrase
    /// given, or the join stops (the user typed an old one).
    var joining = false

    public init(
        vault: Vault, stateDirectory: URL, passphrase: @escaping (PassphraseNeed) throws -> SecretBytes? = { _ in nil },
        progress: @escaping (SyncProgress) -> Void = { _ in }
    ) throws {
        self.vault = vault
        setup = SyncSetup(stateDirectory: stateDirectory, vaultID: vault.id, vaultDirectory: vault.directory)
        guard let remote = try setup.remote() else { throw SyncError.notSetUp }
        self.remote = remote
        // An unfinished rotation (local, or adopting another machine's key) is finished by
        // `diary rekey`, which also tells sync about the key; until then there is neither one
        // key to seal records under nor a header fit to publish.
        guard !vault.rotationInterrupted else { throw VaultError.rotationInterrupted }
        let key = try SyncKey(vaultKey: vault.vaultKey, generation: vault.keyGeneration)
        store = StateStore(directory: setup.directory, vaultID: vault.id, key: key)
        main = try store.readMain()
        ring = SyncKeyRing(current: key)
        for k in main.keys { ring.add(try SyncKey(vaultKey: k.key, generation: k.generation)) }
        self.passphrase = passphrase
        self.progress = progress
    }

    var tree: URL { setup.tree(for: remote) }
    var git: GitRemote? {
        if case .git(let url) = remote { return GitRemote(url: url, tree: setup.gitTree) }
        return nil
    }

    /// Runs one sync under this machine's sync lock.
    public func sync() throws -> SyncReport {
        try setup.lock.withLock(exclusive: true) {
            try git?.cloneIfNeeded()
            try noticeUnpublishedPassphraseChange()
            let local = try localChanges()
            var first = true
            for attempt in 1...5 {
                if let git {
                    let (findings, head) = try git.fetchAndMerge(last: main.remoteCommit)
                    guard findings.isEmpty else { throw SyncError.untrustedRemote(findings) }
                    // From now on the remote must contain what was fetched, pushed or not.
                    if let head { main.remoteCommit = head }
                }
                try checkMarker()
                try readRemote()
                if first {
                    try publishOwn(local)
                    first = false
                }
                try followKeyChange()
                try applyToVault()
                try saveState()
                guard let git else { break }
                progress(.publishing)
                if let pushed = try git.commitAndPush() {
                    main.remoteCommit = pushed
                    try store.writeMain(main)
                    break
                }
                if attempt == 5 {
                    throw SyncError.remoteUnusable("other machines pushed first five times in a row; this machine's changes are kept and go with the next `diary sync`")
                }
            }
            report.conflicts = main.conflicts.sorted { $0.uuidString < $1.uuidString }
            report.machines = main.logs.count
            return report
        }
    }

    // MARK: The remote

    private func checkMarker() throws {
        let url = tree.appendingPathComponent(RemoteLayout.marker)
        guard let bytes = try DurableFile.read(url, limit: 4096) else {
            if main.logs.values.contains(where: { $0.seen > 0 }) {
                throw SyncError.untrustedRemote(["the remote's '\(RemoteLayout.marker)' file is gone: not the remote this machine synced with, or emptied"])
            }
            try DurableFile.write(Array(RemoteLayout.markerText(vaultID: vault.id).utf8), to: url)
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n")
        guard lines.count == 2, lines[0] == "\(RemoteLayout.marker) \(RemoteLayout.markerVersion)",
              let id = UUID(uuidString: String(lines[1])) else {
            throw SyncError.remoteUnusable("\(url.path) is not a diary sync remote of a version this diary reads")
        }
        guard id == vault.id else { throw SyncError.otherVault(id) }
    }

    private func readRemote() throws {
        let scanner = LogScanner(tree: tree, vaultID: vault.id, me: main.machine, tidiesCopies: git == nil)
        // The scan holds `main` and `ring`: keys learnt meanwhile are added after it.
        var learnt: [SyncKey] = []
        let names = main.logs.mapValues(\.name)
        var scanned = main
        var scannedRing = ring
        let outcome = try scanner.scan(main: &scanned, ring: &scannedRing) { machine, seq, keyID in
            let key = try self.keyFromPublishedHeader(machine: machine, seq: seq, keyID: keyID, name: names[machine])
            if let key { learnt.append(key) }
            return key
        }
        main = scanned
        ring = scannedRing
        for key in learnt where !main.keys.contains(where: { $0.generation == key.generation }) {
            main.keys.append((key.generation, key.vaultKey))
        }
        guard outcome.findings.isEmpty else { throw SyncError.untrustedRemote(outcome.findings) }
        report.pending += outcome.pending
        report.notes += outcome.notes
        progress(.reading(records: outcome.records.count))
        for found in outcome.records { try ingest(found.record) }
    }

    private func ingest(_ record: SyncRecord) throws {
        main.lamport = max(main.lamport, record.lamport)
        for revision in record.revisions {
            var heads = try store.entry(revision.entry) ?? EntryHeads()
            heads.add(revision, lamport: record.lamport, machine: record.machine)
            try store.setEntry(revision.entry, heads)
            touched.insert(revision.entry)
        }
        if let change = record.keyChange {
            for retired in change.retired {
                let key = try SyncKey(vaultKey: retired.key, generation: retired.generation)
                if ring[key.id] == nil {
                    ring.add(key)
                    main.keys.append((retired.generation, retired.key))
                }
            }
            let generations = Set(change.headers.values.compactMap { try? Vault.describeHeader($0).generation })
            guard generations.count == 1, let generation = generations.first else {
                throw SyncError.untrustedRemote(["a key change of machine '\(record.machineName)' (record \(record.seq)) publishes headers that do not agree"])
            }
            keyChanges.append((KeyChangeID(generation: generation, lamport: record.lamport, machine: record.machine, seq: record.seq),
                               change, record.machineName, record.keyID.isEmpty ? ring.current.id : record.keyID))
        }
    }

    /// A record under a key this machine lacks: another machine rotated the key. Its
    /// published header, opened with the passphrase, gives the new key.
    private func keyFromPublishedHeader(machine: UUID, seq: UInt64, keyID: [UInt8], name: String?) throws -> SyncKey? {
        if let retired = try retiredKey(keyID) { return retired }
        // The header published with this very record first, then every other one, newest
        // first: a newer passphrase change may have replaced (and removed) the record's own.
        let dir = tree.appendingPathComponent(RemoteLayout.keysDirectory)
        let own = RemoteLayout.headerPath(machine: machine, seq: seq, store: vault.store)
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .compactMap { name -> (UInt64, String)? in
                guard let parsed = RemoteLayout.header(fromName: name), parsed.store == vault.store else { return nil }
                return (parsed.seq, "\(RemoteLayout.keysDirectory)/\(name)")
            }
            .sorted { $0.0 > $1.0 }.map(\.1).filter { $0 != own }
        let headers = ([own] + others).compactMap { try? DurableFile.read(tree.appendingPathComponent($0), limit: 64 << 10) }
            .compactMap { $0 }
        guard !headers.isEmpty else { return nil }
        let shownName = name ?? "machine \(RemoteLayout.hex(machine).prefix(8))"
        return try withPassphrase(.followRotation(machine: shownName, attempt: 1), onWrong: passphraseLost(to: shownName)) { passphrase in
            var opened = false
            for header in headers {
                guard let unwrapped = try? Vault.unwrapHeader(header, passphrase: passphrase) else { continue }
                opened = true
                let key = try SyncKey(vaultKey: unwrapped.key, generation: unwrapped.generation)
                if key.id == keyID { return key }
            }
            if !opened { throw VaultError.wrongPassphrase }
            return nil
        }
    }

    /// A key some later key change retired (a joining machine starts from the newest key and
    /// reads older records with the keys each rotation sealed under its successor). Opens every
    /// record it can until no new key turns up: only when a record's key is unknown.
    private func retiredKey(_ keyID: [UInt8]) throws -> SyncKey? {
        var known = ring
        var files: [[UInt8]] = []
        let logRoot = tree.appendingPathComponent(RemoteLayout.logDirectory)
        for machine in (try? FileManager.default.contentsOfDirectory(atPath: logRoot.path)) ?? [] {
            let dir = logRoot.appendingPathComponent(machine)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where RemoteLayout.seq(fromName: name) != nil {
                if let bytes = try? DurableFile.read(dir.appendingPathComponent(name), limit: RecordCodec.maximumFileBytes) {
                    files.append(bytes)
                }
            }
        }
        var learnt = true
        while learnt {
            learnt = false
            for file in files {
                guard let clear = try? RecordCodec.peek(file), known[clear.keyID] != nil,
                      let record = try? RecordCodec.open(file, vaultID: vault.id, machine: clear.machine, seq: clear.seq, keys: known),
                      let change = record.keyChange else { continue }
                for retired in change.retired {
                    let key = try SyncKey(vaultKey: retired.key, generation: retired.generation)
                    if key.id == keyID { return key }
                    if known[key.id] == nil {
                        known.add(key)
                        learnt = true
                    }
                }
            }
        }
        return nil
    }

    /// Runs `use` with the passphrase. While `use` finds it wrong (`VaultError.wrongPassphrase`)
    /// the passphrase is asked for again, as long as the CLI gives one (a terminal gives a few
    /// tries, a passphrase file one); then `onWrong` is thrown.
    private func withPassphrase<T>(
        _ need: PassphraseNeed, onWrong: @autoclosure () -> SyncError, _ use: (SecretBytes) throws -> T
    ) throws -> T {
        var need = need
        while true {
            // Past a handful of tries the answer is not coming, whatever the caller offers.
            let given = need.attempt > 8 ? nil : need.attempt == 1 ? try cachedPassphrase ?? passphrase(need) : try passphrase(need)
            guard let given else {
                if need.attempt > 1 { throw onWrong() }
                switch need {
                case .followRotation(let machine, _): throw SyncError.needsPassphrase(machine: machine)
                case .publishOwnChange: throw SyncError.needsPassphraseToPublish
                }
            }
            do {
                let result = try use(given)
                cachedPassphrase = given
                return result
            } catch VaultError.wrongPassphrase {
                need = need.again
            }
        }
    }

    /// What to say when no passphrase given opens another machine's newer key: when this
    /// machine's own passphrase change is among the changes it replaced, that change lost.
    private func passphraseLost(to machine: String) -> SyncError {
        let ownChangeLost = keyChanges.contains { $0.id.machine == main.machine }
            || main.pendingKeyChange != nil || main.adoptedKeyChange?.machine == main.machine
        return SyncError.passphraseChangedElsewhere(machine: machine, ownChangeLost: ownChangeLost)
    }

    /// `diary passwd` writes the header, then tells sync; cut short in between, the new
    /// header would never reach the other machines. The state keeps a digest of the header as
    /// of the last sync: another one, with no key change waiting, is published now. Its
    /// other-store variants need the passphrase (which also proves the header).
    private func noticeUnpublishedPassphraseChange() throws {
        guard !main.headerDigest.isEmpty, main.headerDigest != Self.headerDigest(vault.encodedHeader) else { return }
        // Changed, but known: the change waiting to be published, or a header already on the
        // remote (one a sync cut short had adopted). Same salt and cost, same passphrase.
        if let waiting = main.pendingKeyChange?.headers[vault.store], vault.wrapsLike(waiting) { return }
        if publishedHeaders().contains(where: vault.wrapsLike) { return }
        let published = try withPassphrase(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) {
            try Vault.publishableHeaders(at: vault.directory, passphrase: $0)
        }
        guard published.generation == vault.keyGeneration else { return }
        main.pendingKeyChange = KeyChange(headers: published.headers, retired: main.pendingKeyChange?.retired ?? [])
        report.notes.append("this vault's passphrase was changed here without sync being told (an interrupted `diary passwd`?); publishing it now")
    }

    /// The headers for this vault's store kind in the remote's `keys/` (a few small files).
    private func publishedHeaders() -> [[UInt8]] {
        let dir = tree.appendingPathComponent(RemoteLayout.keysDirectory)
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [])
            .filter { RemoteLayout.header(fromName: $0)?.store == vault.store }
            .compactMap { try? DurableFile.read(dir.appendingPathComponent($0), limit: 64 << 10) }
    }

    static func headerDigest(_ header: [UInt8]) -> [UInt8] { BLAKE2b.hash(header, outputCount: 16) }

    // MARK: This machine's changes

    /// Revisions for what changed in the local vault since the last sync, with their parents
    /// taken from the heads as they were then. Only index pages whose tag moved are read, and
    /// on them only rows whose seal tag moved are looked at: the cost follows the changes.
    private func localChanges() throws -> [Revision] {
        let current = vault.indexPageTags
        detectedTags = current
        let pages = (0..<current.count).filter { main.indexTags.count != current.count || main.indexTags[$0] != current[$0] }
        guard !pages.isEmpty else { return main.pendingRevisions }
        var byPage: [Int: [UUID: [UInt8]]] = [:]
        for (id, tag) in try vault.sealTags(onPages: pages) { byPage[Vault.indexPage(of: id), default: [:]][id] = tag }
        var revisions: [Revision] = []
        for number in pages {
            let now = byPage[number] ?? [:]
            let before = try store.seenRows(onIndexPage: number)
            for (id, tag) in now where before[id] != tag {
                var heads = try store.entry(id) ?? EntryHeads()
                if heads.sealTag == tag { continue }
                guard let entry = try vault.storedEntry(id) else { continue }
                let digest = Head.digest(of: entry)
                // A new seal of the same content (a key rotation) is not a change.
                if digest != heads.shownDigest || heads.heads.isEmpty {
                    let parents = heads.heads.isEmpty ? [] : heads.parentsOfLocalChange
                    revisions.append(Revision(entry: id, id: SecureRandom.uuid(), parents: parents, content: entry))
                    localDigests[id] = digest
                }
                heads.sealTag = tag
                heads.shownDigest = digest
                try store.setEntry(id, heads)
            }
            for id in before.keys where now[id] == nil {
                guard var gone = try store.entry(id), gone.sealTag != nil else { continue }
                revisions.append(Revision(entry: id, id: SecureRandom.uuid(), parents: gone.parentsOfLocalChange, content: nil))
                localDigests[id] = Head.deletedDigest
                gone.sealTag = nil
                gone.shownDigest = Head.deletedDigest
                try store.setEntry(id, gone)
            }
            store.setSeenRows(now, onIndexPage: number)
        }
        return main.pendingRevisions + revisions
    }

    /// Writes this machine's next record(s): its local changes, resolutions and any key change.
    private func publishOwn(_ revisions: [Revision]) throws {
        let keyChange = main.pendingKeyChange
        guard !revisions.isEmpty || keyChange != nil else { return }
        var batches: [[Revision]] = [[]]
        var size = 0
        for revision in revisions {
            let cost = (revision.content?.text.utf8.count ?? 0) + 200
            if size + cost > RecordCodec.batchBytes, !batches[batches.count - 1].isEmpty {
                batches.append([])
                size = 0
            }
            batches[batches.count - 1].append(revision)
            size += cost
        }
        let dir = tree.appendingPathComponent(RemoteLayout.logDirectory).appendingPathComponent(RemoteLayout.hex(main.machine))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: tree.appendingPathComponent(RemoteLayout.keysDirectory), withIntermediateDirectories: true)
        for (n, batch) in batches.enumerated() {
            var log = main.logs[main.machine] ?? LogState(name: main.machineName)
            let seq = log.seen + 1
            main.lamport += 1
            let isLast = n == batches.count - 1
            let record = SyncRecord(
                machine: main.machine, seq: seq,
                previous: log.records.last?.hash ?? [UInt8](repeating: 0, count: RecordCodec.hashLength),
                lamport: main.lamport, machineName: main.machineName, revisions: batch,
                keyChange: isLast ? keyChange : nil)
            let sealed = try RecordCodec.seal(record, vaultID: vault.id, key: ring.current)
            if isLast, let keyChange {
                for (kind, header) in keyChange.headers {
                    try DurableFile.write(header, to: tree.appendingPathComponent(
                        RemoteLayout.headerPath(machine: main.machine, seq: seq, store: kind)))
                }
            }
            let url = tree.appendingPathComponent(RemoteLayout.recordPath(machine: main.machine, seq: seq))
            try DurableFile.write(sealed, to: url)
            log.records.append(RecordSeen(hash: RecordCodec.hash(sealed), stat: LogScanner.stamp(url) ?? .none))
            log.seen = seq
            log.name = main.machineName
            main.logs[main.machine] = log
            try ingest(record)
            for revision in batch where localDigests[revision.entry] != nil || main.pendingRevisions.contains(revision) {
                var heads = try store.entry(revision.entry) ?? EntryHeads()
                heads.shown = revision.id
                try store.setEntry(revision.entry, heads)
            }
            report.sent += batch.count
        }
        if keyChange != nil { report.keyChangePublished = true }
        main.pendingRevisions = []
        main.pendingKeyChange = nil
    }

    // MARK: Keys

    /// Follows the newest key change (`KeyChangeID` order: the same on every machine, no
    /// clock): its header for this machine's store becomes the local header. When it carries a
    /// newer key, the local vault is rotated to that key, which takes the passphrase; if the
    /// passphrase only opens an intermediate rotation (the passphrase was changed after it),
    /// that one is followed first.
    private func followKeyChange() throws {
        let adopted = main.adoptedKeyChange
        let pending = keyChanges.filter { adopted == nil || $0.id > adopted! }.sorted { $0.id < $1.id }
        keyChanges = []
        guard let best = pending.last else { return }
        main.adoptedKeyChange = best.id
        defer { removeSupersededHeaders(keeping: best.id) }
        // This machine's own change is the newest: its header is already the local one. A
        // passphrase set elsewhere meanwhile, under an older key, lost to a rotation made here.
        guard best.id.machine != main.machine else {
            for lost in pending where lost.id.machine != main.machine && lost.id.generation < best.id.generation {
                report.notes.append("the passphrase change made on '\(lost.name)' lost to the key rotation made here: the vault opens with this machine's passphrase")
            }
            return
        }
        let target = try header(of: best)
        if target == vault.encodedHeader { return }
        if best.id.generation > vault.keyGeneration {
            let ownChangeLost = pending.contains { $0.id.machine == main.machine } || adopted?.machine == main.machine
            let steps = pending.filter { $0.id.generation > vault.keyGeneration && $0.id.machine != main.machine }.reversed()
            let lost = SyncError.passphraseChangedElsewhere(machine: best.name, ownChangeLost: ownChangeLost)
            try withPassphrase(.followRotation(machine: best.name, attempt: 1), onWrong: lost) { passphrase in
                for step in steps {
                    do {
                        // The state follows the key before the vault drops the old one: cut
                        // short anywhere, `diary rekey` finishes both (docs/FORMAT.md §8).
                        _ = try vault.rotateKey(adopting: try header(of: step), passphrase: passphrase, beforeRetiring: { _ in
                            let key = try SyncKey(vaultKey: self.vault.vaultKey, generation: self.vault.keyGeneration)
                            self.ring.makeCurrent(key)
                            if !self.main.keys.contains(where: { $0.generation == key.generation }) {
                                self.main.keys.append((key.generation, key.vaultKey))
                            }
                            try self.store.resealOnDisk(under: key)
                        })
                        return
                    } catch VaultError.wrongPassphrase {
                        continue
                    }
                }
                throw VaultError.wrongPassphrase
            }
            if ownChangeLost {
                report.notes.append("the passphrase change made on this machine lost to the key rotation on '\(best.name)': this vault now opens with the passphrase set there")
            }
            report.keyChanged = true
            report.notes.append("the vault key was rotated on '\(best.name)': this vault now uses the new key")
        }
        guard try header(of: best) != vault.encodedHeader else { return }
        guard Vault.describeHeaderGeneration(target) == vault.keyGeneration else {
            throw SyncError.passphraseChangedElsewhere(machine: best.name, ownChangeLost: false)
        }
        // Same generation, another key: both machines rotated before seeing each other's
        // rotation. Adopting that header would leave this vault's entries under a key its
        // header no longer wraps; a new rotation here (a higher generation) settles it.
        guard best.keyID == ring.current.id else { throw SyncError.concurrentRotation(machine: best.name) }
        if vault.wrapsLike(target) { return }
        if joining, let passphrase = cachedPassphrase ?? (try passphrase(.followRotation(machine: best.name, attempt: 1))),
           (try? Vault.unwrapHeader(target, passphrase: passphrase)) == nil {
            throw SyncError.passphraseChangedElsewhere(machine: best.name, ownChangeLost: false)
        }
        try vault.adoptHeader(target)
        report.notes.append("the passphrase was changed on '\(best.name)': from now on this vault opens with the passphrase set there")
    }

    /// Removes the published headers of key changes the newest one replaced, so that an old
    /// passphrase no longer opens anything a joining machine reads from a folder remote. (A
    /// git remote's history keeps them; docs/FORMAT.md §12.4.) Only headers of records this
    /// machine has read go: one still on its way may be a newer change.
    private func removeSupersededHeaders(keeping best: KeyChangeID) {
        let dir = tree.appendingPathComponent(RemoteLayout.keysDirectory)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] {
            guard let published = RemoteLayout.header(fromName: name),
                  published.machine != best.machine || published.seq != best.seq,
                  published.seq <= main.logs[published.machine]?.seen ?? 0 else { continue }
            try? FileManager.default.removeItem(at: dir.appendingPathComponent(name))
        }
    }

    /// The header a key change published for this machine's store, checked to name this vault.
    private func header(of change: (id: KeyChangeID, change: KeyChange, name: String, keyID: [UInt8])) throws -> [UInt8] {
        guard let header = change.change.headers[vault.store] else {
            throw SyncError.untrustedRemote(["a key change of machine '\(change.name)' has no header for a \(vault.store.rawValue) vault"])
        }
        let described = try Vault.describeHeader(header)
        guard described.vaultID == vault.id else { throw SyncError.otherVault(described.vaultID) }
        return header
    }

    // MARK: The local vault

    /// Shows each touched entry's preferred head in the local vault.
    private func applyToVault() throws {
        var puts: [Entry] = []
        var deletes: [UUID] = []
        var expected: [UUID: [UInt8]?] = [:]
        var plans: [UUID: EntryHeads] = [:]
        let ids = touched.sorted { $0.uuidString < $1.uuidString }
        touched = []
        for id in ids {
            guard var heads = try store.entry(id), let preferred = heads.preferred else { continue }
            let wasConflict = main.conflicts.contains(id)
            if heads.isConflict {
                // A conflict needs every text; the one the local vault shows is there.
                for i in heads.heads.indices where heads.heads[i].content == nil && !heads.heads[i].deleted {
                    if heads.heads[i].digest == heads.shownDigest { heads.heads[i].content = try vault.storedEntry(id) }
                }
                main.conflicts.insert(id)
                if !wasConflict { report.newConflicts.append(id) }
            } else {
                main.conflicts.remove(id)
            }
            if preferred.digest == heads.shownDigest {
                heads.shown = preferred.revision
            } else if preferred.deleted {
                deletes.append(id)
                expected[id] = .some(heads.sealTag)
                report.deleted += 1
            } else if let content = preferred.content {
                puts.append(content)
                expected[id] = .some(heads.sealTag)
                if heads.sealTag == nil { report.added += 1 } else { report.changed += 1 }
            }
            plans[id] = heads
        }
        if !puts.isEmpty || !deletes.isEmpty {
            progress(.applying(done: 0, total: puts.count + deletes.count))
            let (tags, skipped) = try vault.applySynced(puts: puts, deletes: deletes, expected: expected)
            for id in Set(puts.map(\.id)).union(deletes) where !skipped.contains(id) {
                guard var heads = plans[id], let preferred = heads.preferred else { continue }
                heads.shown = preferred.revision
                heads.shownDigest = preferred.digest
                heads.sealTag = tags[id]
                plans[id] = heads
                let page = Vault.indexPage(of: id)
                var seen = try store.seenRows(onIndexPage: page)
                seen[id] = tags[id]
                store.setSeenRows(seen, onIndexPage: page)
                pagesWritten.insert(page)
            }
            progress(.applying(done: puts.count + deletes.count, total: puts.count + deletes.count))
        }
        for (id, var heads) in plans {
            heads.compact()
            try store.setEntry(id, heads)
        }
    }

    /// Saves the state. A written page's tag is recorded only when its rows are exactly what
    /// the state says they are: a write by another command during the sync is found next time.
    private func saveState() throws {
        let now = vault.indexPageTags
        if main.indexTags.count != now.count { main.indexTags = detectedTags }
        for number in 0..<now.count {
            if pagesWritten.contains(number) {
                let rows = try vault.sealTags(onPages: [number])
                main.indexTags[number] = try rows == store.seenRows(onIndexPage: number) ? now[number] : StateCodec.unknownTag
            } else if now[number] == detectedTags[number] {
                main.indexTags[number] = now[number]
            }
        }
        pagesWritten = []
        detectedTags = now
        main.headerDigest = Self.headerDigest(vault.encodedHeader)
        try store.flushPages()
        try store.writeMain(main)
    }
}
