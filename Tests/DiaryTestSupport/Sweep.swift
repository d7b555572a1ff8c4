import Foundation
import XCTest

/// How much of an exhaustive sweep (every flipped byte, every kill, every framing bit) one run
/// tries.
///
/// `Scripts/soak` sets `DIARY_SWEEP=full`: every case the sweep was written to try. Any other
/// run (`Scripts/test`, CI, `swift test`) tries a seeded random sample drawn within each
/// stratum (each file, page, record or field, and slices of it), so that a cheap run still
/// touches every kind of object the full sweep does, and a new seed each run tries new cases.
/// The seed is printed when the sweep starts and is part of every failure context (`replay`);
/// `DIARY_TEST_SEED=<seed>` replays the same sample, with `DIARY_SWEEP=full` the same full run.
public struct Sweep: RandomNumberGenerator {
    /// `full` runs every case; anything else (or unset) a sample.
    public static let modeVariable = "DIARY_SWEEP"

    /// What the sweep is called in its announcement and failure messages.
    public let name: String
    /// Every case, not a sample.
    public let isFull: Bool
    /// The seed of this run's random choices (`DIARY_TEST_SEED` when set).
    public let seed: UInt64
    private var generator: SeededGenerator

    /// A sweep named `name`; prints one line naming its mode and seed.
    public init(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.name = name
        isFull = environment[Self.modeVariable] == "full"
        seed = environment[SeededGenerator.replayVariable].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        // The name is mixed in so that the sweeps of one run, all given one seed by Scripts/test,
        // draw independent samples.
        generator = SeededGenerator(seed: seed ^ Self.fnv1a(name))
        print("\(name): \(isFull ? "full sweep" : "sampled sweep"), seed \(seed) (\(replay))")
    }

    /// How to replay this run; every failure message of a sweep carries it.
    public var replay: String {
        "\(SeededGenerator.replayVariable)=\(seed)\(isFull ? " \(Self.modeVariable)=full" : "") replays it"
    }

    /// `full` in a full sweep, `sample` otherwise.
    public func count(full: Int, sample: Int) -> Int { isFull ? full : sample }

    /// Every item of `stratum` in a full sweep; otherwise `count` of them, in order: the
    /// stratum cut into `count` contiguous slices of (nearly) equal size and one random item
    /// taken from each, so that its start, middle and end are all tried.
    public mutating func pick<T>(_ count: Int, from stratum: [T]) -> [T] {
        guard !isFull, count < stratum.count else { return stratum }
        guard count > 0 else { return [] }
        return (0..<count).map { slice in
            // count < stratum.count, so every slice holds at least one item.
            let lower = stratum.count * slice / count, upper = stratum.count * (slice + 1) / count
            return stratum[Int.random(in: lower..<upper, using: &generator)]
        }
    }

    /// Runs one case of the sweep. An error it throws fails the test with `context` and how to
    /// replay the run (the error's own message says neither), then ends the sweep.
    public func check<T>(
        _ context: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> T
    ) throws -> T {
        do {
            return try body()
        } catch {
            XCTFail("\(context()) (\(replay)): \(error)", file: file, line: line)
            throw error
        }
    }

    /// The next random number of this run.
    public mutating func next() -> UInt64 { generator.next() }

    /// FNV-1a over the UTF-8 bytes: a hash that, unlike `Hasher`, is the same in every process.
    private static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
