import Foundation

extension TerminalSize {
    /// The width output is laid out for: the terminal's when stdout is one (it is the truth
    /// even when a shell's `COLUMNS` is stale after a resize), else `COLUMNS` when set (a
    /// pipe into `less`, `watch`), else 80.
    static var outputColumns: Int {
        if let columns = ofStdout?.columns { return columns }
        if let columns = Int(ProcessInfo.processInfo.environment["COLUMNS"] ?? ""), columns > 0 { return columns }
        return 80
    }
}
