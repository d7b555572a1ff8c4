import DiaryApp
import DiaryCrypto
import Foundation

/// Output made piece by piece (`diary read`, one entry at a time) that goes through the pager
/// once it is taller than the terminal, as `Pager.data` decides for a whole text.
///
/// Only the first screenful is held back (to know whether a pager is needed); after that each
/// piece goes out as it is written, so a long diary is never held whole. When the reader quits
/// the pager (or closes the pipe), `write` returns false and the caller stops reading entries.
final class PagedOutput {
    private let size: TerminalSize?
    private var command: String?
    private var pending = ""
    private var pager: Pager.Child?
    private var closed = false

    /// Paged when `allowed`, stdout is a terminal and there is a pager.
    init(allowed: Bool) {
        let size = allowed ? TerminalSize.ofStdout : nil
        self.size = size
        command = size == nil ? nil : Pager.command()
    }

    /// Writes `text`; false when nobody reads any more (the pager quit, the pipe closed).
    @discardableResult
    func write(_ text: String) -> Bool {
        guard !closed else { return false }
        if pager == nil, let size, let command {
            pending += text
            guard Pager.fillsScreen(pending, size) else { return true }
            // Not started, or the shell found no such command: printed here instead.
            guard let started = Pager.Child.start(command) else {
                self.command = nil
                return flushPending()
            }
            pager = started
            return flushPending()
        }
        return send(text)
    }

    /// Writes what was held back and waits for the pager; a pager that failed is an error
    /// (as for `Pager.data`).
    func finish() throws {
        if pager == nil { _ = flushPending() }
        guard let pager, let command else { return }
        self.pager = nil
        let status = pager.wait()
        // Unlike `Pager.data`, what the pager was given is gone: any failure (127 too) is said.
        if status != 0 { throw Pager.Failed(command: command, status: status) }
    }

    private func flushPending() -> Bool {
        let text = pending
        pending = ""
        return send(text)
    }

    private func send(_ text: String) -> Bool {
        guard !text.isEmpty else { return !closed }
        var bytes = Array(text.utf8)
        defer { secureZero(&bytes) }
        let fd = pager?.input ?? STDOUT_FILENO
        guard bytes.withUnsafeBytes({ DescriptorWrite.all($0, to: fd) }) == nil else {
            closed = true
            return false
        }
        return true
    }
}
