import Foundation

/// Named places inside a sync, a key change or an upgrade where the tests stop the work as a
/// crash would (docs/FORMAT.md §12): a schedule that crashes there replays exactly. Never set
/// outside tests.
package enum SyncFaults {
    /// Called at each point with its name; throwing stops the work there.
    package nonisolated(unsafe) static var hook: ((String) throws -> Void)?

    static func point(_ name: String) throws { try hook?(name) }
}
