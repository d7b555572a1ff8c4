import DiaryApp
import Foundation

/// How `InputError` (DiaryApp) reads: text checks as `CLIError` words them (the same message,
/// hint and exit status), search and tag arguments as the usage errors ArgumentParser prints.
enum InputWording {
    /// The usage message for an argument refused (search text, a tag).
    static func message(_ error: InputError) -> String {
        switch error {
        case .emptySearch: return "the search text is empty"
        case .unpairedQuote(let argument): return "an unpaired \" in '\(argument)'; write a phrase as \"two words\""
        case .tagWithSpace(let tag):
            return "'\(Printable.escaped(tag))' is not a tag: a tag has no spaces (write 'a-b')"
        case .tooLarge, .notUTF8, .emptyText: return report(error).message
        }
    }

    /// The report for any `InputError`.
    static func report(_ error: InputError) -> ErrorReport {
        let text: CLIError
        switch error {
        case .tooLarge(let bytes, let limit): text = .tooLarge(bytes: bytes, limit: limit)
        case .notUTF8(let source): text = .notUTF8(source: source)
        case .emptyText: text = .emptyText
        case .emptySearch, .unpairedQuote, .tagWithSpace:
            return ErrorReport(message: message(error), hint: nil, code: .usage)
        }
        return ErrorReport(message: text.description, hint: text.hint, code: text.exitCode)
    }

    /// A date option's value diary does not understand: one line, a suggestion when the value
    /// looks like a typo, and where the accepted forms are listed. `export --to` names a day
    /// since `-o/--output` took over its old meaning, so a path there is pointed to the new
    /// option.
    static func report(_ refused: DateInput.UnknownDate, command: String?) -> ErrorReport {
        let value = "'\(Printable.escaped(refused.text))'"
        if command == "export" && refused.option == "--to" && refused.suggestion == nil {
            return ErrorReport(
                message: "\(value) is not a date: export's --to is the last day to export",
                hint: "write the export to a file with -o/--output PATH", code: .usage)
        }
        let guess = refused.suggestion.map { ". Did you mean '\(Printable.escaped($0))'?" } ?? ""
        return ErrorReport(
            message: "\(refused.option) \(value) is not a date diary understands\(guess)",
            hint: "`diary help new` lists the dates diary accepts (so does docs/GUIDE.md)", code: .usage)
    }
}
