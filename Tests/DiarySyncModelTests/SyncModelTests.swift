import DiaryTestSupport
import Foundation
import Glibc
import XCTest

/// The model-based test of sync (issue 21): seeded schedules of new, edit, delete, star, tag,
/// sync, passwd, rekey and late joiners over a folder remote and a git remote, with the model's
/// invariants checked after every step and at quiescence (`SimModel`).
///
/// Schedule `i` of a run has the seed `seed + i`, so `DIARY_TEST_SEED=<a failing schedule's
/// seed>` replays that schedule first (with `DIARY_SWEEP=full` when it failed in a full run: the
/// length differs). `Scripts/soak` runs the full sweep.
final class SyncModelTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("diary-sync-model-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        // GitRemote.run leaves the read ends of its pipes open (two descriptors per git child):
        // harmless in a `diary` process, it runs a process of hundreds of git syncs out of
        // descriptors. Until it closes them, the soft limit goes up to the hard one.
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The host stays honest and no copy is put back: every format must pass this.
    func testHonestSchedulesKeepEveryInvariant() throws {
        var options = SimOptions.fromEnvironment()
        options.hostile = false
        options.restores = false
        options.hugeLamport = false
        options.keyChanges = SimOptions.fromEnvironment().keyChanges
        try runSchedules("SyncModelTests.honest", options: options, sample: (40, 12), full: (400, 25))
    }

    /// A hostile host and restored copies (on by default once format 2 lands; the environment
    /// turns them on before: `DIARY_SIM_HOSTILE=1`, `DIARY_SIM_RESTORES=1`).
    func testHostileSchedulesKeepEveryInvariant() throws {
        let options = SimOptions.fromEnvironment()
        guard options.hostile || options.restores else {
            throw XCTSkip("hostile schedules wait for format 2 (SimOptions.format2Landed)")
        }
        try runSchedules("SyncModelTests.hostile", options: options, sample: (40, 12), full: (400, 25))
    }

    /// Runs `count` schedules of `length` steps, alternating remote kinds; reports every failing
    /// seed with its transcript.
    private func runSchedules(
        _ name: String, options: SimOptions, sample: (count: Int, length: Int), full: (count: Int, length: Int)
    ) throws {
        let sweep = Sweep(name)
        var (count, length) = sweep.isFull ? full : sample
        // For tuning and for long soaks: DIARY_SIM_SCHEDULES and DIARY_SIM_STEPS override both.
        let environment = ProcessInfo.processInfo.environment
        count = environment["DIARY_SIM_SCHEDULES"].flatMap { Int($0) } ?? count
        length = environment["DIARY_SIM_STEPS"].flatMap { Int($0) } ?? length
        print("\(name): \(count) schedules of \(length) steps; \(options)")
        var failed: [UInt64] = []
        var totals: [String: Int] = [:]
        for i in 0..<count {
            let seed = sweep.seed &+ UInt64(i)
            let kind = options.kind(forSeed: seed)
            let root = scratch.appendingPathComponent("s\(i)", isDirectory: true)
            var generator = SeededGenerator(seed: seed)
            let steps = SimSchedule.make(
                length: length, options: options, crashPoints: SimCrashHook.points.count, using: &generator)
            let run = try SimRun(seed: seed, kind: kind, options: options, root: root)
            do {
                try run.run(steps)
            } catch {
                run.recordHarnessFailure("\(error)")
            }
            totals.merge(run.counts, uniquingKeysWith: +)
            for (k, v) in run.timings { totals["ms " + k, default: 0] += Int(v) }
            totals["open fds", default: 0] = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
            if !run.model.violations.isEmpty {
                failed.append(seed)
                let replay = "DIARY_TEST_SEED=\(seed)\(sweep.isFull ? " DIARY_SWEEP=full" : "") replays it"
                XCTFail(
                    "schedule seed \(seed) (\(kind.rawValue) remote; \(replay)):\n  "
                        + run.model.violations.prefix(8).joined(separator: "\n  ")
                        + "\ntranscript:\n  " + run.transcript.joined(separator: "\n  "))
            }
            try? FileManager.default.removeItem(at: root)
        }
        print("\(name): \(count - failed.count)/\(count) schedules passed; failing seeds \(failed)")
        print("\(name): " + totals.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    // MARK: The checks themselves

    func testTheChecksSeeAnAcknowledgedEntryVanish() {
        var model = SimModel()
        let id = UUID()
        model.acknowledged.insert(id)
        model.check("m1", now: [id: SimEntry(text: "kept", starred: false, tags: [])], excused: false, step: "a")
        model.check("m1", now: [:], excused: false, step: "b")
        XCTAssertEqual(model.violations.count, 1)
        model.deleted.insert(id)
        model.check("m2", now: [id: SimEntry(text: "kept", starred: false, tags: [])], excused: false, step: "c")
        model.check("m2", now: [:], excused: false, step: "d")
        XCTAssertEqual(model.violations.count, 1, "a deletion the user made is no loss")
    }

    func testTheChecksSeeForgedTextAndPlaintextOnTheRemote() {
        var model = SimModel()
        model.forgedTexts.insert("FORGED one")
        model.texts.insert("a secret line")
        model.check("m0", now: [UUID(): SimEntry(text: "FORGED one", starred: false, tags: [])], excused: false, step: "a")
        model.checkSealed(["log/x/1": .bytes(Array("sealed? a secret line".utf8))], step: "b")
        XCTAssertEqual(model.violations.count, 2)
    }

    func testASeedMakesTheSameSchedule() {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        var options = SimOptions()
        options.hostile = true
        options.restores = true
        XCTAssertEqual(
            SimSchedule.make(length: 50, options: options, crashPoints: 2, using: &a),
            SimSchedule.make(length: 50, options: options, crashPoints: 2, using: &b))
    }
}
