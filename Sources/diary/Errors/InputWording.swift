import DiaryApp

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
}
