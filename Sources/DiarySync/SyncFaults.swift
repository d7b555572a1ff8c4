import Foundation

/// Named places inside a sync, a key change, a start or an upgrade where the tests stop the
/// work as a crash would (the sync model's schedules replay exactly). Never set outside tests.
package enum SyncFaults {
    /// What a hook throws to stop the work at a point: nothing on the way out cleans up after it.
    package enum Crash: Error { case crashed }

    /// Called at each point with its name; throwing `Crash.crashed` stops the work there.
    package nonisolated(unsafe) static var hook: ((String) throws -> Void)?

    static func point(_ name: String) throws { try hook?(name) }

    /// Every point the work passes through, for a schedule to pick among.
    package static let points = [
        "sync.published", "sync.stated", "follow.resealed", "rekey.resealed", "start.genesisWritten",
        "upgrade.logsRemoved",
        "upgrade.format1Gone",
    ]
}

extension SyncSetup {
    /// Removes this machine's state of the vault, but for the remote's address when asked
    /// (an upgrade run again must still know its remote).
    func clear(keepingConfig: Bool) throws {
        guard keepingConfig else { return try FileManager.default.removeItem(at: directory) }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where name != "config" && name != "lock" {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
