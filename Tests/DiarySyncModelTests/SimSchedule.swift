import DiaryTestSupport
import Foundation

/// What a run of the simulator may do. Hostile host acts and restores are off until the engine
/// that withstands them (format 2) lands; the environment turns them on to gather evidence.
struct SimOptions: CustomStringConvertible {
    /// True once the format-2 engine is merged: then hostile schedules and restores are part of
    /// every run, and their checks must hold.
    static let format2Landed = true

    /// The host misbehaves (rewind, fork, withhold, drop, truncate, replay, forge, plant a link).
    var hostile = format2Landed
    /// Old copies of a vault are put back and accepted (`reindex --accept-older`): issue 21's
    /// item 4 deletes entries everywhere in format 1.
    var restores = format2Landed
    /// passwd and rekey in the schedules. Format 1 loses entries, damages a vault's header or
    /// shows different versions on different machines when key changes cross other work (see
    /// the report of issue 21's simulator), so they wait for format 2 as well.
    var keyChanges = format2Landed
    /// A forged record with lamport 2^64−1: format 1 traps on it (item 6), killing the test
    /// process, so it is never on by itself.
    var hugeLamport = false
    /// The remote of every schedule, when set; else one schedule in `gitEvery` (by seed) has a
    /// git remote and the others a folder (a git sync costs about ten times a folder's).
    var only: SimHost.Kind?
    static let gitEvery: UInt64 = 8

    /// The remote of the schedule of `seed`.
    func kind(forSeed seed: UInt64) -> SimHost.Kind {
        only ?? (seed % Self.gitEvery == 0 ? .git : .folder)
    }

    /// The defaults, changed by `DIARY_SIM_HOSTILE=1`, `DIARY_SIM_RESTORES=1` and
    /// `DIARY_SIM_HUGE_LAMPORT=1`, `DIARY_SIM_KEY_CHANGES=1` (each `0` turns it off), and `DIARY_SIM_REMOTE=folder|git`.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> SimOptions {
        var options = SimOptions()
        func flag(_ name: String, _ value: inout Bool) {
            if let set = environment[name] { value = set == "1" }
        }
        flag("DIARY_SIM_HOSTILE", &options.hostile)
        flag("DIARY_SIM_RESTORES", &options.restores)
        flag("DIARY_SIM_KEY_CHANGES", &options.keyChanges)
        flag("DIARY_SIM_HUGE_LAMPORT", &options.hugeLamport)
        options.only = environment["DIARY_SIM_REMOTE"].flatMap(SimHost.Kind.init(rawValue:))
        return options
    }

    var description: String {
        "hostile \(hostile), restores \(restores), key changes \(keyChanges), huge lamport \(hugeLamport), remote \(only?.rawValue ?? "git one in \(Self.gitEvery), else folder")"
    }
}

/// A hostile act of the host, between two steps.
enum SimHostile: Equatable {
    /// Serve the remote as it was `back` steps ago (git: force-push that commit).
    case rewind(back: Int)
    /// Give one machine a copy of the remote of its own from now on.
    case fork(machine: Int)
    /// Hide the newest record of one log from one machine.
    case withhold(machine: Int, log: Int)
    case drop(log: Int)
    case truncate(log: Int)
    /// Copy an old record of a log to its next place.
    case replay(log: Int)
    /// A record crafted at the next place of a log, with a retired key (known from an old
    /// passphrase and an old header) or the current one; it adds an entry and, `deleting`, deletes
    /// a real one.
    case forge(log: Int, retired: Bool, deleting: Bool)
    /// A forged record whose lamport is 2^64−1.
    case hugeLamport(log: Int)
    /// A link to a file outside the remote, at a record's place or a header's.
    case plantLink(log: Int, inKeys: Bool)
    /// The host is honest again: every file the machines wrote, nothing else.
    case heal
}

/// One step of a schedule. Machines and entries are picked by number, taken modulo what exists
/// when the step runs, so a schedule is valid whatever happened before it.
enum SimStep: Equatable {
    case new(machine: Int)
    case edit(machine: Int, pick: Int)
    case delete(machine: Int, pick: Int)
    case star(machine: Int, pick: Int)
    case tag(machine: Int, pick: Int)
    case sync(machine: Int)
    case passwd(machine: Int)
    case rekey(machine: Int)
    /// A new machine joins (up to `SimSchedule.maximumMachines`).
    case join
    /// A copy of a machine's vault directory is kept (a backup tool's).
    case copyVault(machine: Int)
    /// The oldest copy kept of that machine is put back, and accepted.
    case restore(machine: Int)
    /// A sync that crashes at the engine's crash point `point` (see `SimCrashHook`).
    case crash(machine: Int, point: Int)
    case host(SimHostile)
}

/// Seeded schedules of steps.
enum SimSchedule {
    static let initialMachines = 3
    static let maximumMachines = 4

    /// A schedule of `length` steps drawn from `generator`, with the steps `options` allows.
    static func make(length: Int, options: SimOptions, crashPoints: Int, using generator: inout SeededGenerator)
        -> [SimStep]
    {
        var weighted: [(Int, (inout SeededGenerator) -> SimStep)] = [
            (14, { .new(machine: m(&$0)) }),
            (8, { .edit(machine: m(&$0), pick: p(&$0)) }),
            (4, { .delete(machine: m(&$0), pick: p(&$0)) }),
            (3, { .star(machine: m(&$0), pick: p(&$0)) }),
            (3, { .tag(machine: m(&$0), pick: p(&$0)) }),
            (32, { .sync(machine: m(&$0)) }),
            (2, { _ in .join }),
        ]
        if options.keyChanges {
            weighted.append((2, { .passwd(machine: m(&$0)) }))
            weighted.append((3, { .rekey(machine: m(&$0)) }))
        }
        if options.restores {
            weighted.append((3, { .copyVault(machine: m(&$0)) }))
            weighted.append((2, { .restore(machine: m(&$0)) }))
        }
        if crashPoints > 0 {
            weighted.append((3, { .crash(machine: m(&$0), point: Int.random(in: 0..<crashPoints, using: &$0)) }))
        }
        if options.hostile { weighted.append((16, { .host(hostile(&$0, options: options)) })) }
        let total = weighted.reduce(0) { $0 + $1.0 }
        return (0..<length).map { _ in
            var roll = Int.random(in: 0..<total, using: &generator)
            for (weight, make) in weighted {
                if roll < weight { return make(&generator) }
                roll -= weight
            }
            fatalError("weights add up to total")
        }
    }

    private static func m(_ g: inout SeededGenerator) -> Int { Int.random(in: 0..<maximumMachines, using: &g) }
    private static func p(_ g: inout SeededGenerator) -> Int { Int.random(in: 0..<1024, using: &g) }

    private static func hostile(_ g: inout SeededGenerator, options: SimOptions) -> SimHostile {
        let log = p(&g)
        var acts: [SimHostile] = [
            .rewind(back: Int.random(in: 1...3, using: &g)), .fork(machine: m(&g)), .withhold(machine: m(&g), log: log),
            .drop(log: log), .truncate(log: log), .replay(log: log),
            .forge(log: log, retired: true, deleting: Bool.random(using: &g)),
            .forge(log: log, retired: false, deleting: Bool.random(using: &g)),
            .plantLink(log: log, inKeys: Bool.random(using: &g)), .heal,
        ]
        if options.hugeLamport { acts.append(.hugeLamport(log: log)) }
        return acts[Int.random(in: 0..<acts.count, using: &g)]
    }
}
