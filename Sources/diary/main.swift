import ArgumentParser
import Foundation

// The entry point. Our own errors become `diary: error: …` / `diary: hint: …` and a documented
// exit code (ExitCodes.swift); ArgumentParser's (usage, --help) keep their wording and code.
do {
    var command = try Diary.parseAsRoot()
    try command.run()
} catch {
    if let report = ErrorReport(error) { report.exit() }
    let code = Diary.exitCode(for: error)
    if code == .success {
        Diary.exit(withError: error)  // --help, --version: printed to stdout by ArgumentParser.
    }
    let full = Diary.fullMessage(for: error)
    let message = full.hasPrefix("Error: ") ? String(full.dropFirst("Error: ".count)) : full
    Output.write("diary: error: \(message)\n", to: STDERR_FILENO)
    exit(code.rawValue)
}
