import DiaryApp
import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

@testable import DiarySync

// The adapter: every call the simulator makes into DiarySync, DiaryVault and DiaryApp is in this
// file, so that porting the simulator to another sync API (format 2: signed records, the
// membership chain, invites) is a change of this file alone. The other files of the target see
// only the plain values declared here (`SimEntry`, `SimRemote`, `SimSyncOutcome`, `SimKey`).

/// One entry as a machine's vault shows it.
struct SimEntry: Equatable, CustomStringConvertible {
    var text: String
    var starred: Bool
    var tags: [String]

    var description: String { "\(text.prefix(40))\(starred ? " *" : "")\(tags.isEmpty ? "" : " #\(tags)")" }
}

/// Where the machines' remote is: a folder a file-sync tool would replicate, or a bare git
/// repository.
enum SimRemote {
    case folder(URL)
    case git(URL)

    fileprivate var location: RemoteLocation {
        switch self {
        case .folder(let url): return .folder(url.path)
        case .git(let url): return .git(url.path)
        }
    }
}

/// How one sync ended.
enum SimSyncOutcome: Equatable {
    /// It ran to its end; `changed` when it wrote, took in or published anything.
    case synced(changed: Bool)
    /// It refused or failed (an alarm: the user is told), with why.
    case refused(String)
    /// It stopped to ask the user to run `rekey` (two rotations met); nothing changed.
    case rekeyAsked
    /// It stopped to ask the user to set the passphrase set on `machine` (a rotation made here
    /// would have brought an older one back); nothing changed.
    case passwdAsked(machine: String)
    /// It ran, and told this machine it is no longer a member: its admission was made on a branch
    /// of a fork that another machine's settle superseded (docs/FORMAT.md §12.4). It writes
    /// nothing more; the user stops syncing it (entries written there since stay on it).
    case removed
}

/// A vault key, as the attacker keeps it (every key that was ever current somewhere).
struct SimKey: Hashable {
    let bytes: [UInt8]
    let generation: UInt32
}

/// What a simulated crash throws at an injection point.
struct SimCrash: Error, Equatable {
    let point: String
}

/// One machine: a vault, its own state directory (its own `HOME`), a name, and the user at its
/// keyboard, who knows every passphrase ever used (`passphrases`, newest first, the one last set
/// on the machine a sync names first).
final class SimMachine {
    let name: String
    let home: URL
    let vaultDirectory: URL
    let store: StoreKind
    private let passphrases: (_ setOn: String?) -> [String]
    private var backups = 0

    init(name: String, root: URL, store: StoreKind, passphrases: @escaping (_ setOn: String?) -> [String]) {
        self.name = name
        self.store = store
        self.passphrases = passphrases
        home = root.appendingPathComponent("home-\(name)", isDirectory: true)
        vaultDirectory = root.appendingPathComponent("vault-\(name)", isDirectory: true)
    }

    private var environment: DiaryEnvironment {
        DiaryEnvironment(["HOME": home.path, "DIARY_INSECURE_TEST_KDF": "1"])
    }

    private var stateDirectory: URL { environment.stateDirectory }

    private func session(newPassphraseFile: String? = nil) throws -> DiarySession {
        let current = try currentPassphrase()
        return DiarySession(
            directory: vaultDirectory, environment: environment, asker: SimAsker(current: current),
            agent: SimNoAgent(), events: { _ in })
    }

    /// The passphrase that opens this machine's vault now (after a key followed from another
    /// machine it is the one set there).
    func currentPassphrase() throws -> String {
        for candidate in passphrases(nil)
        where (try? Vault.checkPassphrase(at: vaultDirectory, passphrase: secret(candidate))) != nil {
            return candidate
        }
        throw VaultError.wrongPassphrase
    }

    // MARK: Starting

    /// Creates this machine's vault (the test-only key derivation cost) and starts syncing it.
    func create(passphrase: String, remote: SimRemote) throws -> SimSyncOutcome {
        let vault = try Vault.create(
            at: vaultDirectory, store: store, passphrase: secret(passphrase), kdf: .insecureForTesting)
        try session().created(vault)
        return outcome {
            var report = try SyncLifecycle.initialize(
                vault: vault, remote: remote.location, machineName: name, passphrase: secret(passphrase),
                stateDirectory: stateDirectory)
            report.keyChangePublished = false
            return report
        }
    }

    /// `diary sync invite` on this machine: the code a joiner needs.
    func invite(for joiner: String) throws -> String {
        try withVault { try SyncMembership.invite(vault: $0, stateDirectory: stateDirectory, name: joiner) }
    }

    /// Builds this machine's vault from the remote, as `diary sync join --invite` (a late
    /// joiner). The user tries the passphrases they know, newest first.
    func join(remote: SimRemote, invite: String) -> SimSyncOutcome {
        var last = SimSyncOutcome.refused("no passphrase")
        for candidate in passphrases(nil) {
            do {
                let (vault, report) = try SyncLifecycle.join(
                    remote: remote.location, to: vaultDirectory, store: store, machineName: name,
                    passphrase: secret(candidate), invite: try InviteCode(text: invite), stateDirectory: stateDirectory)
                let session = DiarySession(
                    directory: vaultDirectory, environment: environment, asker: SimAsker(current: candidate),
                    agent: SimNoAgent(), events: { _ in })
                session.created(vault)
                _ = try? KeyChanges(session).afterSync(report, vault: vault)
                return .synced(changed: true)
            } catch VaultError.wrongPassphrase {
                last = .refused("\(VaultError.wrongPassphrase)")
            } catch SyncError.passphraseChangedElsewhere(let machine, let lost) {
                // An older passphrase opened an older header; the user tries the next one.
                last = .refused("\(SyncError.passphraseChangedElsewhere(machine: machine, ownChangeLost: lost))")
            } catch {
                return .refused("\(error)")
            }
        }
        return last
    }

    // MARK: Writing entries

    /// Opens the vault as every command does: with this machine's record of it enforced.
    private func withVault<T>(_ body: (Vault) throws -> T) throws -> T {
        let session = try session()
        let vault = try session.open()
        defer { try? session.finish() }
        return try body(vault)
    }

    func add(text: String, tags: [String]) throws -> UUID { try withVault { try $0.add(text: text, tags: tags).id } }

    func edit(_ id: UUID, text: String) throws { try withVault { _ = try $0.update(id, text: text) } }

    func star(_ id: UUID, _ starred: Bool) throws { try withVault { _ = try $0.update(id, starred: starred) } }

    func tag(_ id: UUID, _ tags: [String]) throws { try withVault { _ = try $0.update(id, tags: tags) } }

    /// `diary delete`: through the session, which tells sync that the deletion is meant.
    func delete(_ id: UUID) throws {
        let session = try session()
        let vault = try session.open()
        defer { try? session.finish() }
        try session.delete([id], from: vault)
    }

    // MARK: Sync and key changes

    /// `diary sync`: one sync, then the agent is told of a key followed (as the CLI does). The
    /// user answers a passphrase question with the one last set on the machine it names, then
    /// the others they know.
    func sync() -> SimSyncOutcome {
        outcome {
            let session = try session()
            let vault = try session.open()
            defer { try? session.finish() }
            let engine = try SyncEngine(
                vault: vault, stateDirectory: stateDirectory,
                passphrase: { [passphrases] need in
                    var setOn: String?
                    if case .followRotation(let machine, _) = need { setOn = machine }
                    let candidates = passphrases(setOn)
                    // Attempt 1 is often answered by the passphrase this sync already holds, without
                    // asking: then attempt 2 is the first question, and must offer the first candidate.
                    let index = max(0, need.attempt - 2)
                    return index < candidates.count ? secret(candidates[index]) : nil
                })
            let report = try engine.sync()
            try KeyChanges(session).afterSync(report, vault: vault)
            return report
        }
    }

    private func outcome(_ body: () throws -> SyncReport) -> SimSyncOutcome {
        do {
            let report = try body()
            // What a transcript line leaves out: a record or statement that waits shows here.
            if ProcessInfo.processInfo.environment["DIARY_SIM_VERBOSE"] == "1" {
                print(
                    "\(name) sync: sent \(report.sent), added \(report.added), pending \(report.pending), notes \(report.notes)"
                )
            }
            if report.notes.contains(where: { if case .thisMachineRemoved = $0 { true } else { false } }) {
                return .removed
            }
            let moved =
                report.sent + report.added + report.changed + report.deleted + report.newConflicts.count > 0
                || report.keyChangePublished || report.keyChanged
            return .synced(changed: moved)
        } catch SyncError.concurrentRotation, SyncError.chainForked, VaultError.rotationInterrupted {
            // Each says to run `diary rekey` (an interrupted rotation: to finish it).
            return .rekeyAsked
        } catch SyncError.keyChangeUnderOldPassphrase(let machine) {
            return .passwdAsked(machine: machine)
        } catch {
            return .refused("\(error)")
        }
    }

    /// `diary passwd` through the application's key-change flow.
    func changePassphrase(to new: String) throws {
        let file = home.appendingPathComponent("new-passphrase")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data((new + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try KeyChanges(session()).changePassphrase(
            kdf: nil, new: NewPassphraseSource(fileOption: file.path, allowWeak: true))
        if let error = outcome.syncNotTold { throw error }
    }

    /// `diary rekey` through the application's key-change flow.
    func rotateKey() throws {
        let outcome = try KeyChanges(session()).rotateKey()
        guard outcome.unsealable.isEmpty else { throw SimFailure("rekey left \(outcome.unsealable.count) unsealed") }
    }

    /// Resolves every conflict this machine sees with its own version (`diary resolve --mine`),
    /// else the other one. Returns how many it resolved.
    func resolveConflicts() throws -> Int {
        let session = try session()
        let vault = try session.open()
        defer { try? session.finish() }
        let engine = try SyncEngine(vault: vault, stateDirectory: stateDirectory)
        var resolved = 0
        for conflict in try engine.conflicts() {
            let mine = conflict.versions.contains { $0.isThisMachine }
            try engine.resolve(conflict.id, keeping: mine ? .mine : .both)
            resolved += 1
        }
        return resolved
    }

    // MARK: Backups

    /// A copy of the vault's directory as it is now (what a backup tool keeps), and where it is.
    func copyVault(into root: URL) throws -> URL {
        backups += 1
        let copy = root.appendingPathComponent("copy-\(name)-\(backups)", isDirectory: true)
        try FileManager.default.copyItem(at: vaultDirectory, to: copy)
        return copy
    }

    /// Puts `copy` back at the vault's path and follows the hint: `diary reindex --accept-older`.
    func restore(_ copy: URL) throws {
        try FileManager.default.removeItem(at: vaultDirectory)
        try FileManager.default.copyItem(at: copy, to: vaultDirectory)
        let session = try session()
        let vault = try session.open(mode: .report)
        defer { try? session.finish() }
        let report = try session.entrySet.report(for: vault) ?? vault.checkEntrySet()
        try session.acceptOlderState(of: vault)
        _ = try vault.reindex(minimumGeneration: report.seenGeneration ?? 0)
    }

    // MARK: Looking

    /// Every entry the vault shows and the vault key it holds (for the attacker's collection),
    /// read with the passphrase: no record of this machine is touched, looking changes nothing.
    func look() throws -> (entries: [UUID: SimEntry], key: SimKey) {
        let vault = try SealedVault(at: vaultDirectory).open(passphrase: secret(try currentPassphrase()))
        var shown: [UUID: SimEntry] = [:]
        for summary in try vault.list() {
            let entry = try vault.entry(summary.id)
            shown[summary.id] = SimEntry(text: entry.text, starred: entry.starred, tags: entry.tags)
        }
        return (shown, SimKey(bytes: vault.vaultKey.withUnsafeBytes { Array($0) }, generation: vault.keyGeneration))
    }

    /// The vault's id.
    func vaultID() throws -> UUID { try Vault.inspect(at: vaultDirectory).id }
}

// MARK: Crash injection

/// Arms the engine's crash hook (`SyncFaults`) so that the next time `point` is reached it throws
/// as a crash; a crash step whose point the work does not pass is counted as unreached.
enum SimCrashHook {
    static func arm(_ point: String, fired: @escaping () -> Void) {
        // One crash: the machine is restarted after it, and what the user then does (a rekey as
        // told) passes the same point without crashing again (soak seed 8758320180262416889).
        SyncFaults.hook = { reached in
            guard reached == point else { return }
            SyncFaults.hook = nil
            fired()
            throw SyncFaults.Crash.crashed
        }
    }

    static func disarm() { SyncFaults.hook = nil }

    /// The points the engine names.
    static var points: [String] { SyncFaults.points }
}

// MARK: The attacker's crafting

/// Records crafted as an attacker who can push: with a key it knows (a retired one, the key an
/// old passphrase opens, or the current one), it seals a record at the next place of a real log.
enum SimForger {
    /// A forged record for the log `log` (its folder name) of `tree`, sealed under `key`: it adds
    /// an entry of `text`, and with `deleting` also deletes the newest live entry it can read
    /// that it did not plant itself (naming that entry's real head as its parent, so the
    /// deletion replaces it). `lamport`
    /// nil: one more than any it read. Returns the file's path in the tree, its bytes and the
    /// entry it deletes; nil when the log cannot be extended (no record it can read).
    static func forge(
        tree: URL, vaultID: UUID, log: String, keys: [SimKey], key: SimKey, text: String, lamport: UInt64?,
        deleting: Bool, sparing planted: Set<UUID>
    ) throws -> (path: String, bytes: [UInt8], planted: UUID, deleted: UUID?)? {
        guard let machine = RemoteLayout.machineID(fromHex: log) else { return nil }
        var ring = try SyncKeyRing(current: syncKey(key, vaultID: vaultID))
        for known in keys { try? ring.add(try syncKey(known, vaultID: vaultID)) }
        let remote = RemoteTree(root: tree)
        var heads: [UUID: (revision: UUID, lamport: UInt64, live: Bool)] = [:]
        var highest: UInt64 = 0
        var last: (seq: UInt64, bytes: [UInt8], name: String)?
        for folder in remote.logFolders() {
            guard let owner = RemoteLayout.machineID(fromHex: folder) else { continue }
            for file in remote.recordFiles(inLog: folder) {
                guard let bytes = remote.readIfPossible(file.path, limit: RecordCodec.maximumFileBytes),
                    let record = try? RecordCodec.open(
                        bytes, vaultID: vaultID, machine: owner, seq: file.seq, keys: ring)
                else { continue }
                highest = max(highest, record.lamport)
                for revision in record.revisions where (heads[revision.entry]?.lamport ?? 0) <= record.lamport {
                    heads[revision.entry] = (revision.id, record.lamport, revision.content != nil)
                }
                if folder == log, file.seq > (last?.seq ?? 0) { last = (file.seq, bytes, record.machineName) }
            }
        }
        guard let last, last.seq < UInt64.max else { return nil }
        let now = Date()
        let plant = UUID()
        var revisions = [
            Revision(
                entry: plant, id: UUID(), parents: [],
                content: Entry(
                    id: plant, text: text, date: now, created: now, modified: now, starred: false, tags: []))
        ]
        var victim: UUID?
        let real = heads.filter { $0.value.live && !planted.contains($0.key) }
        if deleting, let target = real.max(by: { $0.value.lamport < $1.value.lamport }) {
            victim = target.key
            revisions.append(Revision(entry: target.key, id: UUID(), parents: [target.value.revision], content: nil))
        }
        // The attacker has no member's signing key: it signs with one of its own.
        let record = SyncRecord(
            machine: machine, seq: last.seq + 1, previous: RecordCodec.hash(last.bytes),
            lamport: min(lamport ?? highest &+ 1, RecordCodec.maximumLamport), machineName: last.name,
            revisions: revisions)
        let sealed = try RecordCodec.seal(
            record, vaultID: vaultID, key: syncKey(key, vaultID: vaultID),
            signingKey: SigningKeyPair.generate().secretKey)
        return (RemoteLayout.recordPath(machine: machine, seq: last.seq + 1), sealed, plant, victim)
    }

    private static func syncKey(_ key: SimKey, vaultID: UUID) throws -> SyncKey {
        var bytes = key.bytes
        return try SyncKey(vaultKey: SecretBytes(consuming: &bytes), generation: key.generation, vaultID: vaultID)
    }

    /// The path of record `seq` of the log `log` (its folder name).
    static func recordPath(log: String, seq: UInt64) -> String? {
        RemoteLayout.machineID(fromHex: log).map { RemoteLayout.recordPath(machine: $0, seq: seq) }
    }

    /// The remote's layout, as far as the host's tricks need it: the logs' folder and the
    /// published headers' folder.
    static let logDirectory = RemoteLayout.logDirectory
    static let keysDirectory = RemoteLayout.keysDirectory

    /// The seq a record file's name stands for.
    static func seq(ofRecordName name: String) -> UInt64? { RemoteLayout.seq(fromName: name) }
}

// MARK: The user's side

/// The user at a machine's keyboard: gives the vault's current passphrase when asked.
private struct SimAsker: PassphraseAsker {
    let current: String
    var canAsk: Bool { true }

    func ask(_ reason: PassphraseReason, attempt: Int) throws -> SecretBytes? { attempt == 1 ? secret(current) : nil }

    func askNew(
        triesOnMismatch: Int, weakTries: Int, weakness: (SecretBytes) -> PassphraseWeakness?
    ) throws -> SecretBytes? { nil }
}

/// No unlock agent runs on a simulated machine.
private struct SimNoAgent: UnlockAgentLink {
    func fetchKey(vaultID: UUID) -> AgentKeyAnswer { .unavailable }
    func handOver(_ key: SecretBytes, generation: UInt32, vaultID: UUID) throws -> Bool { false }
}

/// A failure of the simulation itself (not of sync).
struct SimFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func secret(_ text: String) -> SecretBytes {
    var bytes = Array(text.utf8)
    return try! SecretBytes(consuming: &bytes)
}
