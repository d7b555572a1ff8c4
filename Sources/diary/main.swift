import ArgumentParser
import DiaryAgent
import DiaryApp
import Foundation

// Before anything is decrypted: no core dump, and no ptrace by other processes of the user. A
// crash would otherwise leave decrypted entries in a core file (systemd-coredump keeps them
// on disk). Best effort: a refusal here must not stop the diary from working.
try? ProcessHardening.apply()

// Copies `diary open` left for a viewer that may still have been reading them (xdg-open
// returns at once): wiped by the next command, whatever it is, once their diary has ended.
OpenedCopies.wipeAbandoned()

// `diary` alone: a short usage on stderr instead of ArgumentParser's full help on stdout.
if CommandLine.arguments.count == 1 {
    Output.talk(Diary.shortUsage)
    exit(ExitCode.usage.rawValue)
}

// Global options before the command move after it; a mistyped command gets a suggestion
// (CommandLineArguments.swift).
let arguments: [String]
switch CommandLineArguments.prepare(
    Array(CommandLine.arguments.dropFirst()), commands: Diary.commandNames, suggested: Diary.suggestedCommandNames)
{
case .parse(let prepared):
    arguments = prepared
case .noCommand:
    Output.talk(Diary.shortUsage)
    exit(ExitCode.usage.rawValue)
case .missingValue(let option):
    Output.error("missing value for '\(option)'")
    exit(ExitCode.usage.rawValue)
case .unknownCommand(let word, let suggestions):
    if suggestions.isEmpty {
        Output.error("unknown command '\(word)'")
        Output.hint("`diary --help` lists the commands")
    } else {
        Output.error("unknown command '\(word)'. \(CommandLineArguments.didYouMean(suggestions))")
    }
    exit(ExitCode.usage.rawValue)
}

// The entry point. Our own errors become `diary: error: …` / `diary: hint: …` and a documented
// exit code (ExitCodes.swift); ArgumentParser's (usage, --help) keep their wording and code.
do {
    var command = try Diary.parseAsRoot(arguments)
    try command.run()
    try CommandSessions.finish()
} catch let silent as SilentExit {
    CommandSessions.finishAfterFailure()
    exit(silent.code.rawValue)
} catch let pager as Pager.Failed {
    // The message names the pager's own status; diary's stays within its documented table.
    CommandSessions.finishAfterFailure()
    Output.error(pager.message)
    exit(1)
} catch {
    CommandSessions.finishAfterFailure()
    if let report = ErrorReport(error) { report.exit() }
    let code = Diary.exitCode(for: error)
    if code == .success {
        Diary.exit(withError: error)  // --help, --version: printed to stdout by ArgumentParser.
    }
    // A refused date or an option of another command: two lines instead of ArgumentParser's nine.
    if let report = RefusedDate.report(command: arguments.first) ?? MisplacedOption.find(in: arguments)?.report {
        report.exit()
    }
    let full = Diary.fullMessage(for: error)
    let message = ErrorReport.parserMessage(full)
    // ArgumentParser's messages quote the arguments as typed (escaped line by line), then its
    // usage lines.
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    Output.error(lines.first ?? "")
    if let hint = New.dashTextHint(command: arguments.first, message: message) { Output.hint(hint) }
    for line in lines.dropFirst() { Output.talk(Printable.escaped(line)) }
    exit(code.rawValue)
}
