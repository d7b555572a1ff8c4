import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation

@testable import DiarySync

/// One schedule run: the host, the machines, the user and the attacker, step by step, with the
/// model's checks after each step and quiescence at the end.
final class SimRun {
    let seed: UInt64
    let options: SimOptions
    let kind: SimHost.Kind
    let root: URL
    let host: SimHost
    private(set) var machines: [SimMachine] = []
    private(set) var model = SimModel()
    /// What happened, a line per step: printed with a failure.
    private(set) var transcript: [String] = []
    /// Counts of what the steps did, for the summary.
    private(set) var counts: [String: Int] = [:]
    private var generator: SeededGenerator
    /// Every passphrase used, newest first, and the one last set on each machine.
    private var passphrases: [String] = []
    private var setOn: [String: String] = [:]
    /// Every vault key that was ever current on a machine: the attacker has them all.
    private var attackerKeys: [SimKey] = []
    private var copies: [String: [URL]] = [:]
    /// The entries the attacker's records added (it deletes real ones).
    private var planted = Set<UUID>()
    private var written = 0
    private var hostileActs = 0
    private var stepName = "start"
    /// Machines a sync told they are no longer members; the user stopped syncing them.
    private var removed = Set<String>()

    /// The passphrase the first machine creates the vault with.
    static let firstPassphrase = "sim passphrase 0"

    /// `fromCopy`: `root` holds a copy of a run that was only set up (`setUp`), taken at this
    /// very path; the run continues from it instead of setting up again (each join costs a
    /// whole first sync).
    init(seed: UInt64, kind: SimHost.Kind, options: SimOptions, root: URL, fromCopy: Bool = false) throws {
        self.seed = seed
        self.kind = kind
        self.options = options
        self.root = root
        generator = SeededGenerator(seed: seed ^ 0x5EED_0F_5_1A)
        passphrases = [Self.firstPassphrase]
        let names = (0..<SimSchedule.initialMachines).map { "m\($0)" }
        host = try SimHost(kind: kind, root: root, existing: fromCopy ? names : [])
        guard fromCopy else { return }
        machines = (0..<SimSchedule.initialMachines).map { newMachine($0) }
        for m in machines { try look(m, excused: false) }
    }

    /// Machine 0 starts the remote, the others join.
    func setUp() throws {
        let first = newMachine(0)
        machines.append(first)
        let served = try host.beforeSync(first.name)
        note(
            "m0 creates and starts syncing",
            try timed("join") { try first.create(passphrase: passphrases[0], remote: host.remote) })
        try host.afterSync(first.name, before: served)
        for _ in 1..<SimSchedule.initialMachines { try perform(.join) }
    }

    private func store(of index: Int) -> StoreKind { index % 2 == 0 ? .files : .sqlite }

    private func newMachine(_ index: Int, prefix: String = "m") -> SimMachine {
        SimMachine(name: "\(prefix)\(index)", root: root, store: store(of: index)) { [unowned self] machine in
            var list = machine.flatMap { self.setOn[$0] }.map { [$0] } ?? []
            for p in self.passphrases where !list.contains(p) { list.append(p) }
            return list
        }
    }

    // MARK: Running

    /// The steps (after setting up, unless the run continues a copy), then quiescence.
    func run(_ steps: [SimStep]) throws {
        if machines.isEmpty { try setUp() }
        try host.remember()
        for (n, step) in steps.enumerated() {
            stepName = "step \(n + 1) \(step)"
            try perform(step)
            try timed("host") { try host.remember() }
        }
        try quiesce()
    }

    /// The simulator itself failed (a git command of the host, a file it could not write).
    func recordHarnessFailure(_ why: String) {
        model.violations.append("\(stepName): the simulator failed: \(why)")
    }

    private func note(_ what: String, _ outcome: SimSyncOutcome? = nil) {
        transcript.append("\(stepName): \(what)\(outcome.map { " → \($0)" } ?? "")")
    }

    private func count(_ what: String) { counts[String(what.prefix { $0 != " " && $0 != "(" }), default: 0] += 1 }

    /// Milliseconds spent in each phase (for tuning the run's size).
    private(set) var timings: [String: Double] = [:]

    private func timed<T>(_ what: String, _ body: () throws -> T) rethrows -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { timings[what, default: 0] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
        return try body()
    }

    /// The machines still members (a settle can remove one admitted on the losing branch).
    private var members: [SimMachine] { machines.filter { !removed.contains($0.name) } }

    private func machine(_ index: Int) -> SimMachine { members[index % members.count] }

    // MARK: Steps

    private func perform(_ step: SimStep) throws {
        switch step {
        case .new(let i):
            written += 1
            let text = "entry \(seed)-\(written) \(words())"
            try local(machine(i), "new") { m in
                let id = try m.add(text: text, tags: [])
                model.texts.insert(text)
                model.unpublished[m.name, default: []].insert(id)
            }
        case .edit(let i, let pick):
            written += 1
            let text = "edited \(seed)-\(written) \(words())"
            try onEntry(machine(i), pick, "edit") { m, id in
                try m.edit(id, text: text)
                model.texts.insert(text)
            }
        case .delete(let i, let pick):
            try onEntry(machine(i), pick, "delete") { m, id in
                try m.delete(id)
                model.deleted.insert(id)
            }
        case .star(let i, let pick):
            try onEntry(machine(i), pick, "star") { m, id in try m.star(id, pick % 2 == 0) }
        case .tag(let i, let pick):
            try onEntry(machine(i), pick, "tag") { m, id in try m.tag(id, pick % 3 == 0 ? [] : ["t\(pick % 5)"]) }
        case .sync(let i):
            try sync(machine(i))
        case .passwd(let i):
            let m = machine(i)
            let new = "sim passphrase \(seed) \(passphrases.count)"
            try local(m, "passwd") { m in
                do {
                    try m.changePassphrase(to: new)
                } catch VaultError.rotationInterrupted {
                    // A crash mid-rotation left two slots: passwd says to finish it with
                    // `diary rekey` first, and the user does.
                    note("\(m.name) passwd → rekey asked")
                    count("rekey asked")
                    try m.rotateKey()
                    try m.changePassphrase(to: new)
                }
                passphrases.insert(new, at: 0)
                setOn[m.name] = new
            }
        case .rekey(let i):
            try local(machine(i), "rekey") { try $0.rotateKey() }
        case .join:
            guard machines.count < SimSchedule.maximumMachines else { return note("no room to join") }
            let m = newMachine(machines.count)
            let outcome = try timed("join") { try join(m) }
            note("\(m.name) joins", outcome)
            count("join")
            if case .synced = outcome {
                machines.append(m)
                try look(m, excused: false)
            } else {
                alarm(m, outcome)
            }
        case .copyVault(let i):
            let m = machine(i)
            copies[m.name, default: []].append(try m.copyVault(into: root))
            note("copy of \(m.name) kept")
        case .restore(let i):
            let m = machine(i)
            guard var kept = copies[m.name], !kept.isEmpty else { return note("no copy of \(m.name) to restore") }
            let copy = kept.removeFirst()
            copies[m.name] = kept
            try local(m, "restore", excused: true) { try $0.restore(copy) }
        case .crash(let i, let point):
            let m = machine(i)
            let name = SimCrashHook.points[point % SimCrashHook.points.count]
            var fired = false
            SimCrashHook.arm(name) { fired = true }
            defer { SimCrashHook.disarm() }
            try sync(m, crashing: name)
            count(fired ? "crash \(name)" : "crash \(name) not reached")
        case .host(let act):
            try hostile(act)
        }
    }

    /// A local command on one machine; a failure is an alarm (the user is told), and then the
    /// machine's view may change without a violation.
    private func local(_ m: SimMachine, _ what: String, excused: Bool = false, _ body: (SimMachine) throws -> Void)
        throws
    {
        count(what)
        do {
            try body(m)
            note("\(m.name) \(what)")
            try look(m, excused: excused)
        } catch SyncFaults.Crash.crashed {
            // The crash a crash step armed: the machine stops there, as killed; no alarm is due.
            note("\(m.name) \(what) crashed")
            try look(m, excused: true)
        } catch {
            note("\(m.name) \(what) failed: \(error)")
            alarm(m, .refused("\(what): \(error)"))
            try look(m, excused: true)
        }
    }

    private func onEntry(_ m: SimMachine, _ pick: Int, _ what: String, _ body: (SimMachine, UUID) throws -> Void)
        throws
    {
        let ids = (model.shown[m.name] ?? [:]).keys.sorted { $0.uuidString < $1.uuidString }
        guard !ids.isEmpty else { return note("\(m.name) has nothing to \(what)") }
        let id = ids[pick % ids.count]
        try local(m, "\(what) \(short(id))") { try body($0, id) }
    }

    /// `diary sync` on `m`, served by the host as the host chooses. A sync told to rekey (two
    /// rotations met) is followed as the hint says: rekey, then sync again.
    @discardableResult
    private func sync(_ m: SimMachine, crashing: String? = nil) throws -> SimSyncOutcome {
        count("sync")
        var served: (served: SimTree, truth: SimTree, truthCommit: String?)? = try host.beforeSync(m.name)
        var outcome = timed("sync") { m.sync() }
        // The user does as each refusal says (rekey; passwd to the passphrase set elsewhere),
        // then syncs again: a few times at most.
        for _ in 0..<3 {
            try host.afterSync(m.name, before: served!)
            served = nil
            // The user sets the passphrase the machine named uses now (which it may have taken
            // from another machine's `passwd`).
            if case .passwdAsked(let other) = outcome,
                let theirs = setOn[other]
                    ?? machines.first(where: { $0.name == other }).flatMap({
                        try? $0.currentPassphrase()
                    })
            {
                note("\(m.name) sync", outcome)
                count("passwd asked")
                try local(m, "passwd (as told)") { machine in
                    try machine.changePassphrase(to: theirs)
                    setOn[machine.name] = theirs
                }
            } else if outcome == .rekeyAsked {
                note("\(m.name) sync", outcome)
                count("rekey asked")
                try local(m, "rekey (as told)") { try $0.rotateKey() }
            } else {
                break
            }
            served = try host.beforeSync(m.name)
            outcome = m.sync()
        }
        if let served { try host.afterSync(m.name, before: served) }
        note("\(m.name) sync", outcome)
        switch outcome {
        case .synced:
            model.acknowledged.formUnion(model.unpublished[m.name] ?? [])
            model.unpublished[m.name] = []
            model.alarms[m.name] = nil
            try look(m, excused: false)
        case .refused(let why) where crashing != nil && why.contains("crashed"):
            try look(m, excused: true)
        case .refused, .rekeyAsked, .passwdAsked:
            alarm(m, outcome)
            try look(m, excused: true)
        case .removed:
            // Told, the user stops syncing this machine; what it wrote since stays on it and is
            // not acknowledged. Its view leaves the model.
            count("removed by a settle")
            removed.insert(m.name)
            model.unpublished[m.name] = nil
            model.alarms[m.name] = nil
        }
        try timed("sealed") {
            model.checkSealed(try host.currentTree(), step: stepName)
            model.checkSealed(host.honest, step: stepName)
        }
        return outcome
    }

    private func alarm(_ m: SimMachine, _ outcome: SimSyncOutcome) {
        model.alarms[m.name] = "\(outcome)"
        count("alarm")
        if !options.hostile && !options.restores {
            model.violations.append("\(stepName): \(m.name) raised an alarm in an honest run: \(outcome)")
        }
    }

    /// The entries of `m` (the only machine a step changes), checked against the model; the
    /// attacker takes its key.
    private func look(_ m: SimMachine, excused: Bool) throws {
        let seen: (entries: [UUID: SimEntry], key: SimKey)
        do {
            seen = try timed("look") { try m.look() }
        } catch {
            model.violations.append("\(stepName): \(m.name)'s vault does not open: \(error)")
            return
        }
        if !attackerKeys.contains(seen.key) { attackerKeys.append(seen.key) }
        model.check(m.name, now: seen.entries, excused: excused, step: stepName)
    }

    private func words() -> String {
        let pool = ["heron", "lake", "frost", "ember", "quill", "meadow", "tide", "lantern", "orchard", "cinder"]
        return (0..<4).map { _ in pool[Int.random(in: 0..<pool.count, using: &generator)] }.joined(separator: " ")
    }

    // MARK: The host's acts

    private func hostile(_ act: SimHostile) throws {
        hostileActs += 1
        count("host-" + String("\(act)".prefix { $0 != "(" }))
        let logs = try host.currentTree().keys.compactMap { path -> String? in
            let parts = path.split(separator: "/")
            return parts.count == 3 && parts[0] == SimForger.logDirectory ? String(parts[1]) : nil
        }
        let logNames = Array(Set(logs)).sorted()
        func log(_ n: Int) -> String? { logNames.isEmpty ? nil : logNames[n % logNames.count] }
        func records(of log: String, in tree: SimTree) -> [(seq: UInt64, path: String)] {
            tree.keys.compactMap { path in
                let parts = path.split(separator: "/")
                guard parts.count == 3, parts[1] == log, let seq = SimForger.seq(ofRecordName: String(parts[2])) else {
                    return nil
                }
                return (seq, path)
            }.sorted { $0.seq < $1.seq }
        }
        switch act {
        case .rewind(let back):
            note("host rewinds \(back) steps: \(try host.rewind(back: back))")
        case .fork(let i):
            host.setView(.fork(try host.currentTree()), for: machine(i).name)
            note("host forks \(machine(i).name)")
        case .withhold(let i, let n):
            guard let l = log(n), let newest = records(of: l, in: try host.currentTree()).last else { return }
            host.setView(.withhold(newest.path), for: machine(i).name)
            note("host withholds \(newest.path) from \(machine(i).name)")
        case .drop(let n), .truncate(let n):
            guard let l = log(n) else { return }
            try host.alter { tree in
                guard let newest = records(of: l, in: tree).last, case .bytes(let bytes) = tree[newest.path] else {
                    return
                }
                if case .drop = act {
                    tree[newest.path] = nil
                } else {
                    tree[newest.path] = .bytes(Array(bytes.prefix(bytes.count / 2)))
                }
                note("host \(act) \(newest.path)")
            }
        case .replay(let n):
            guard let l = log(n) else { return }
            try host.alter { tree in
                let all = records(of: l, in: tree)
                guard let first = all.first, let last = all.last,
                    let next = SimForger.recordPath(log: l, seq: last.seq + 1)
                else { return }
                tree[next] = tree[first.path]
                note("host replays \(first.path) as \(next)")
            }
        case .forge(let n, let retired, let deleting):
            try forge(log(n), retired: retired, deleting: deleting, lamport: nil)
        case .hugeLamport(let n):
            try forge(log(n), retired: false, deleting: false, lamport: UInt64.max)
        case .plantLink(let n, let inKeys):
            guard let l = log(n) else { return }
            try host.alter { tree in
                let path =
                    inKeys
                    ? "\(SimForger.keysDirectory)/\(l)-000000009999.files"
                    : SimForger.recordPath(log: l, seq: (records(of: l, in: tree).last?.seq ?? 0) + 1) ?? ""
                tree[path] = .link(host.outsideFile)
                note("host plants a link at \(path)")
            }
        case .heal:
            try host.heal()
            note("host heals")
        }
    }

    /// The attacker crafts a record with a key it holds and pushes it.
    private func forge(_ log: String?, retired: Bool, deleting: Bool, lamport: UInt64?) throws {
        guard let log, let vaultID = try? machines[0].vaultID() else { return }
        let current = Set(machines.compactMap { try? $0.look().key })
        let candidates = retired ? attackerKeys.filter { !current.contains($0) } : Array(current)
        guard let key = candidates.min(by: { $0.generation < $1.generation }) else {
            return note("the attacker has no \(retired ? "retired" : "current") key yet")
        }
        written += 1
        let text = "FORGED \(seed)-\(written) \(words())"
        let scratch = try host.materialize()
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard
            let forged = try SimForger.forge(
                tree: scratch, vaultID: vaultID, log: log, keys: attackerKeys, key: key, text: text, lamport: lamport,
                deleting: deleting, sparing: planted)
        else { return note("the attacker cannot extend \(log)") }
        model.forgedTexts.insert(text)
        planted.insert(forged.planted)
        if let victim = forged.deleted { model.forgedDeletions.insert(victim) }
        try host.alter { $0[forged.path] = .bytes(forged.bytes) }
        note(
            "attacker forges \(forged.path) with generation \(key.generation) (\(retired ? "retired" : "current"))"
                + (forged.deleted.map { ", deleting \(short($0))" } ?? ""))
    }

    // MARK: Quiescence

    /// The host turns honest; every machine syncs until a whole round changes nothing (at most
    /// `rounds`); then (3): they and a fresh joiner show the same entries.
    func quiesce(rounds: Int = 6) throws {
        stepName = "quiescence"
        try host.heal()
        var stuck = Set<String>()
        for _ in 0..<rounds {
            var moved = false
            for m in members where !stuck.contains(m.name) {
                switch try sync(m) {
                case .synced(let changed): moved = moved || changed
                case .refused, .rekeyAsked, .passwdAsked: stuck.insert(m.name)
                case .removed: moved = true
                }
            }
            if !moved { break }
        }
        let fresh = newMachine(machines.count, prefix: "fresh")
        let joined = try timed("join") { try join(fresh) }
        note("a fresh machine joins", joined)
        var views = members.filter { !stuck.contains($0.name) }.compactMap { m in
            (try? m.look()).map { (name: m.name, entries: $0.entries) }
        }
        if case .synced = joined, let entries = try? fresh.look().entries {
            views.append((fresh.name, entries))
        } else {
            model.violations.append("quiescence: a fresh machine could not join: \(joined)")
        }
        if !stuck.isEmpty { transcript.append("quiescence: stuck (alarmed) machines: \(stuck.sorted())") }
        model.checkConverged(views, hostile: hostileActs > 0)
    }

    /// `diary sync join --invite` on `m` with a code from the first machine that can invite,
    /// then a sync on the inviter (which admits it) and on `m`.
    private func join(_ m: SimMachine) throws -> SimSyncOutcome {
        var invitation: (SimMachine, String)?
        // A machine whose last sync was refused holds a view the remote may not show (a fork
        // the host served it): the user asks one that syncs for the invite.
        let inviters =
            members.filter { model.alarms[$0.name] == nil } + members.filter { model.alarms[$0.name] != nil }
        for candidate in inviters where invitation == nil {
            if let code = try? candidate.invite(for: m.name) { invitation = (candidate, code) }
        }
        guard let (inviter, code) = invitation else { return .refused("no member can invite") }
        let served = try host.beforeSync(m.name)
        let outcome = m.join(remote: host.remote, invite: code)
        try host.afterSync(m.name, before: served)
        guard case .synced = outcome else { return outcome }
        try sync(inviter)
        return try sync(m)
    }
}
