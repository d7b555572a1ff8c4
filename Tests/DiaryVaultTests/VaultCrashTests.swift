import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Kill -9 at random instants (DESIGN.md invariants 3 and 4): a writer killed at any point
/// leaves the vault at the last acknowledged state or with the in-flight operation complete,
/// opening with exactly one passphrase, verify clean. A `Sweep`: 100 kills per store under
/// `Scripts/soak`, a sample otherwise; its seed (printed) replays a run.
final class VaultCrashTests: VaultTestCase {
    private let passphrases = ["A": "first passphrase 하나", "B": "second passphrase 둘"]
    /// Kills per store in a sampled sweep (a full one kills 100 times).
    private static let sampledRounds = 16

    func testKilledWriterLeavesFilesVaultAtAcknowledgedOrInFlightState() throws {
        try runKillRounds(.files)
    }

    func testKilledWriterLeavesSQLiteVaultAtAcknowledgedOrInFlightState() throws {
        try runKillRounds(.sqlite)
    }

    private func runKillRounds(_ kind: StoreKind) throws {
        _ = try StressChild.executable()
        var rng = Sweep("VaultCrashTests \(kind.rawValue)")
        let rounds = rng.count(full: 100, sample: Self.sampledRounds)
        let directory = try makeVault(kind, passphrase: passphrases["A"]!).directory
        let passFiles = try ["A", "B"].map { name in
            let url = path("pass-\(name)")
            try writePassphraseFile(passphrases[name]!, to: url)
            return url.path
        }
        var model = CrashModel()
        var inFlightKinds: [String: Int] = [:]
        var killedDuringStartup = 0, interruptedRotations = 0
        let started = Date()
        for round in 0..<rounds {
            let context = "\(kind.rawValue) round \(round) (\(rng.replay))"
            let child = try StressChild(
                ["crash-loop", directory.path, passFiles[0], passFiles[1], "\(rng.next() >> 1)"],
                logs: scratch, name: "\(kind.rawValue)-crash")
            // Mostly measured from READY, so the kill lands among operations; sometimes from the
            // launch, so it also lands while opening (and finishing a journal or a rotation): in
            // one round of six at random, or every fourth round of a short sample.
            if rng.isFull ? Int.random(in: 0..<6, using: &rng) == 0 : round % 4 == 0 {
                usleep(UInt32.random(in: 1_000...60_000, using: &rng))
            } else {
                XCTAssertTrue(child.waitFor(line: "READY"), "\(context): \(child.errorOutput)")
                usleep(UInt32.random(in: 1_000...250_000, using: &rng))
            }
            child.killNow()
            XCTAssertTrue(child.wasKilled, "\(context): child ended on its own: \(child.errorOutput)")
            let lines = child.lines()
            if !lines.contains("READY") { killedDuringStartup += 1 }
            let inFlight: CrashModel.InFlight?
            do {
                inFlight = try model.apply(lines)
            } catch {
                return XCTFail("\(context): \(error)\n\(child.errorOutput)")
            }
            inFlightKinds[inFlight.map { "\($0)".prefix { $0 != "(" }.description } ?? "none", default: 0] += 1
            let vault = try rng.check(context) {
                try openWithExactlyOnePassphrase(directory, model: &model, inFlight: inFlight, context: context)
            }
            if vault.rotationInterrupted {
                interruptedRotations += 1
                XCTAssertTrue(
                    inFlight == .rotation || model.rotationUnfinished,
                    "\(context): two key slots but no rotation was in flight or unfinished")
            }
            model.rotationUnfinished = vault.rotationInterrupted
            try rng.check(context) { try check(vault, model: &model, inFlight: inFlight, context: context) }
            if testRun?.failureCount ?? 0 > 0 { return }
        }
        print(
            "crash \(kind.rawValue): \(rounds) kills in " + String(format: "%.1f s", Date().timeIntervalSince(started))
                + ", \(model.acknowledged) acknowledged operations, \(model.entries.count) entries at the end, "
                + "\(killedDuringStartup) kills during startup, \(interruptedRotations) interrupted rotations, "
                + "in flight at the kill: \(inFlightKinds.sorted { $0.key < $1.key })")
    }

    /// The vault opens with exactly one of the two passphrases: the acknowledged one, or the
    /// new one when a change was in flight.
    private func openWithExactlyOnePassphrase(
        _ directory: URL, model: inout CrashModel, inFlight: CrashModel.InFlight?, context: String
    ) throws -> Vault {
        var opened: [(String, Vault)] = []
        for name in ["A", "B"] {
            do {
                opened.append((name, try Vault.open(at: directory, passphrase: secret(passphrases[name]!))))
            } catch VaultError.wrongPassphrase {
                continue
            }
        }
        XCTAssertEqual(opened.count, 1, "\(context): opens with \(opened.map(\.0))")
        guard let (name, vault) = opened.first else { throw VaultError.wrongPassphrase }
        if case .passphrase(let target) = inFlight {
            XCTAssertTrue([model.passphrase, target].contains(name), context)
        } else {
            XCTAssertEqual(name, model.passphrase, "\(context): opens with the wrong passphrase")
        }
        model.passphrase = name
        return vault
    }

    /// Settles the in-flight operation from what is in the vault, then requires the vault to
    /// hold exactly the model: same ids, texts (by hash), stars and tags; index intact; verify clean.
    private func check(_ vault: Vault, model: inout CrashModel, inFlight: CrashModel.InFlight?, context: String) throws
    {
        XCTAssertEqual(vault.indexState, .ok, context)
        let report = try vault.verify()
        XCTAssertTrue(report.isClean, "\(context): \(report.damaged)")
        var found: [UUID: CrashModel.State] = [:]
        for summary in try vault.list() {
            let entry = try vault.entry(summary.id)
            found[entry.id] = CrashModel.State(
                hash: stressTextHash(entry.text), starred: entry.starred, tags: entry.tags)
        }
        switch inFlight {
        case .add(let state):
            let extra = Set(found.keys).subtracting(model.entries.keys)
            if let id = extra.first, extra.count == 1, found[id] == state { model.entries[id] = state }
        case .update(let id, let hash):
            if found[id]?.hash == hash { model.entries[id]?.hash = hash }
        case .meta(let id, let starred, let tags):
            if found[id]?.starred == starred && found[id]?.tags == tags {
                model.entries[id]?.starred = starred
                model.entries[id]?.tags = tags
            }
        case .delete(let id):
            if found[id] == nil { model.entries[id] = nil }
        case .passphrase, .rotation, nil:
            break
        }
        XCTAssertEqual(
            Set(found.keys), Set(model.entries.keys), "\(context): entries lost or unreported entries present")
        for (id, expected) in model.entries where found[id] != nil {
            XCTAssertEqual(
                found[id], expected, "\(context): entry \(id) is neither the acknowledged nor the in-flight state")
        }
    }
}
