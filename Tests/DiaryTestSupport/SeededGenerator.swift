import Foundation

/// SplitMix64: a small seeded generator, so a random test (or a stress child's run) can be
/// replayed exactly from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The environment variable that replays a run: `DIARY_TEST_SEED=123 swift test --filter …`.
    public static let replayVariable = "DIARY_TEST_SEED"

    /// A seed for a random test: `DIARY_TEST_SEED` when set (to replay a failure), else a
    /// random one. It is printed with `what`, so a failing run's log says how to replay it.
    public static func announcedSeed(_ what: String) -> UInt64 {
        let seed =
            ProcessInfo.processInfo.environment[replayVariable].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        print("\(what): seed \(seed) (replay with \(replayVariable)=\(seed))")
        return seed
    }
}

/// Distinct random bytes, standing in for sealed bytes (a store never looks inside them).
public func blob(_ count: Int = 48) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255) }
}
