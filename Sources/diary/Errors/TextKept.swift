/// A text the user wrote that could not be stored (a full disk, a failing editor, any other
/// reason): it stays in its private directory on a memory file system for `diary recover`.
struct TextKept: Error {
    /// Why it could not be stored.
    let error: Error
    /// The directory that keeps it.
    let path: String
}

extension ErrorReport {
    /// The report of the reason, saying also where the text is kept and how to store it. The
    /// status is the reason's, never success.
    init(kept: TextKept) {
        let cause = ErrorReport(kept.error) ?? ErrorReport(message: "\(kept.error)", hint: nil, code: .failure)
        let recover = "`diary recover` stores it once that is fixed; `diary recover --discard` wipes it"
        self.init(
            message:
                "\(cause.message); your text was not stored, and is kept in \(kept.path) (in memory, until reboot)",
            hint: [cause.hint, recover].compactMap { $0 }.joined(separator: "; "),
            code: cause.code == .ok ? .failure : cause.code)
    }
}
