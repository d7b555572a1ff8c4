import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Values measured once per `Scripts/test` run and shared by all its test processes.
///
/// `swift test --parallel` runs every test method in a process of its own, so a scenario that a
/// process measures once for several tests (the observer scenarios) would be measured again in
/// each. Scripts/test names a fresh directory in `DIARY_TEST_RUN_CACHE`; the first process to
/// need a value measures it there under a lock and the others read it. Without the variable
/// (`swift test` run directly) every process measures for itself, as before.
enum RunCache {
    static let variable = "DIARY_TEST_RUN_CACHE"

    /// The value stored as `name` in this run, or `measure()`'s, stored for the run's other
    /// processes. Nothing is stored when `measure` throws.
    static func value<T: Codable>(_ name: String, measure: () throws -> T) throws -> T {
        guard let directory = ProcessInfo.processInfo.environment[variable], directory.hasPrefix("/") else {
            return try measure()
        }
        let base = URL(fileURLWithPath: directory).appendingPathComponent(name)
        // One measurement at a time: a process that waits here reads what the other stored.
        let lock = open(base.path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return try measure() }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        let file = base.appendingPathExtension("json")
        if let stored = try? Data(contentsOf: file), let value = try? JSONDecoder().decode(T.self, from: stored) {
            return value
        }
        let value = try measure()
        try JSONEncoder().encode(value).write(to: file, options: .atomic)
        return value
    }
}
