import Foundation

/// Named places inside a sync or a key change where a test may make the work stop as a crash
/// would (the model-based test of sync, Tests/DiarySyncModelTests, replays such schedules
/// exactly from their seed).
///
/// The engine calls `reach` at each point; without a hook set (every run of `diary`) it does
/// nothing. Tests only: the hook is process-wide and not synchronised.
package enum SyncCrashPoint {
    /// Called with the point's name; a hook that throws stops the work there.
    package nonisolated(unsafe) static var hook: ((String) throws -> Void)?

    /// The points the engine calls `reach` with, so that a schedule can pick among them.
    package static let names: [String] = []

    /// A place where a crash may be injected.
    @inline(__always)
    package static func reach(_ point: String) throws {
        if let hook { try hook(point) }
    }
}
