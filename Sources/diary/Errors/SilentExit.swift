import DiaryApp

/// Ends a command with `code` and no message: the answer was already given (e.g. `search`
/// found nothing, which it says with status 1, as grep does).
struct SilentExit: Error {
    let code: ExitCode
}
