import DiaryApp

/// The command line before ArgumentParser reads it, for two things git users expect and
/// ArgumentParser does not do:
///
/// - options every command takes may come before the command (`diary --vault X list`, as
///   `git -C dir log`; `-jwork` as `-j work`): they are moved to just after the command's name, so ArgumentParser
///   sees `diary list --vault X`. Their order is kept, so an option given twice is decided
///   the same way wherever it was written: the last one wins, as for any option;
/// - a mistyped command gets a suggestion (`unknown command 'lsit'. Did you mean 'list'?`).
///
/// Anything else starting with `-` before the command (`--help`, `--version`, the completion
/// scripts' `---completion`) is left to ArgumentParser as it is.
enum CommandLineArguments {
    /// The options of `GlobalOptions`, each taking a value (`--vault X` or `--vault=X`).
    static let globalOptions = ["--vault", "-j", "--journal", "--passphrase-file"]

    enum Prepared: Equatable {
        /// What ArgumentParser should parse.
        case parse([String])
        /// Only options, no command: like a bare `diary`.
        case noCommand
        /// A global option is last and has no value.
        case missingValue(option: String)
        /// The first word is not a command; the nearest command names, if any is near.
        case unknownCommand(String, suggestions: [String])
    }

    /// `arguments` without the program name; `commands` every name ArgumentParser accepts as a
    /// command; `suggested` those a person may be pointed to (not the hidden ones).
    static func prepare(_ arguments: [String], commands: Set<String>, suggested: [String]) -> Prepared {
        var leading: [String] = []
        var i = 0
        while i < arguments.count {
            let word = arguments[i]
            if globalOptions.contains(word) {
                guard i + 1 < arguments.count else { return .missingValue(option: word) }
                leading += [word, arguments[i + 1]]
                i += 2
            } else if globalOptions.contains(where: { word.hasPrefix($0 + "=") }) || isJoinedJournal(word) {
                leading.append(word)
                i += 1
            } else {
                break
            }
        }
        guard i < arguments.count else { return .noCommand }
        let command = arguments[i]
        if command.hasPrefix("-") {
            // `diary --vault X --help`: the options stay where they were; ArgumentParser decides.
            return .parse(arguments)
        }
        guard commands.contains(command) else { return unknown(command, suggested) }
        // `diary help lst` would print the top-level help and succeed: a mistyped command after
        // `help` is refused as it is without it.
        if command == "help", i + 1 < arguments.count, !arguments[i + 1].hasPrefix("-"),
            !commands.contains(arguments[i + 1])
        {
            return unknown(arguments[i + 1], suggested)
        }
        return .parse([command] + leading + arguments[(i + 1)...])
    }

    /// `-jwork`: `-j work` written as one word, as `-j` takes it after the command too
    /// (`GlobalOptions.journal` allows a joined value).
    private static func isJoinedJournal(_ word: String) -> Bool { word.hasPrefix("-j") && word.count > 2 }

    private static func unknown(_ word: String, _ suggested: [String]) -> Prepared {
        .unknownCommand(word, suggestions: EditDistance.nearest(word, among: suggested) ?? [])
    }

    /// `Did you mean 'list'?` / `Did you mean 'star' or 'stats'?`
    static func didYouMean(_ suggestions: [String]) -> String {
        let quoted = suggestions.map { "'\($0)'" }
        let list =
            quoted.count <= 2
            ? quoted.joined(separator: " or ")
            : quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
        return "Did you mean \(list)?"
    }
}
