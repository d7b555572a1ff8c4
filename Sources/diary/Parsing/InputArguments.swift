import ArgumentParser
import DiaryApp
import Foundation
import Synchronization

/// `DateInput` (DiaryApp) on the command line: parsed at the moment the command runs, in the
/// user's locale and time zone (`DateOutput.context`). A date it does not understand is a usage
/// error (exit 64), reported by ArgumentParser with the option's name and, where the option
/// parses with `DateInput.argument`, the accepted forms.
extension DateInput: ExpressibleByArgument {
    public init?(argument: String) {
        guard let parsed = DateInput.parse(argument, now: Date(), in: DateOutput.context) else { return nil }
        self = parsed
    }

    public static var defaultCompletionKind: CompletionKind { completion }
    static let completion = CompletionKind.list(["now", "today", "yesterday", "tomorrow"])

    /// For `@Option(transform:)` of `--date`: like `init?(argument:)`, but a date it does not
    /// understand is an `UnknownDate`.
    static func argument(_ text: String) throws -> DateInput { try argument(for: "--date")(text) }

    /// For `@Option(transform:)` of the option `option`: a date diary does not understand is an
    /// `UnknownDate`, with a suggestion when it looks like a typo of one it does, and is kept
    /// for main.swift (`RefusedDate.report`): ArgumentParser would bury it in nine lines.
    static func argument(for option: String) -> @Sendable (String) throws -> DateInput {
        { text in
            guard let parsed = DateInput(argument: text) else {
                let refused = UnknownDate(
                    option: option, text: text,
                    suggestion: DateSuggestion.suggestion(for: text, now: Date(), in: DateOutput.context))
                RefusedDate.last.withLock { $0 = refused }
                throw refused
            }
            return parsed
        }
    }

    /// A date option's value that is not a date diary understands.
    struct UnknownDate: Error, CustomStringConvertible, Equatable {
        let option: String
        let text: String
        let suggestion: String?

        var description: String {
            "not a date diary understands" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
        }
    }

    /// The start of the day in the user's time zone, or the instant.
    var start: Date { start(in: DateOutput.dayCalendar) }

    /// The last instant of the day in the user's time zone, or the instant itself.
    var end: Date { end(in: DateOutput.dayCalendar) }
}

/// The date option ArgumentParser refused last, for main.swift to report in two lines where
/// ArgumentParser would print the option's help and the usage after its own wording.
enum RefusedDate {
    static let last = Mutex<DateInput.UnknownDate?>(nil)

    /// The report for the refused date, when one was; `command` is the command's name (the
    /// first argument), for the hint.
    static func report(command: String?) -> ErrorReport? {
        guard let refused = last.withLock({ $0 }) else { return nil }
        return InputWording.report(refused, command: command)
    }
}

/// `TimeSpan` (DiaryApp) on the command line: `--timeout 15m`.
extension TimeSpan: ExpressibleByArgument {
    public init?(argument: String) {
        guard let span = TimeSpan(parsing: argument) else { return nil }
        self = span
    }

    /// `15m`, `8h`, `1h30m`: what `--help` shows as the default. ArgumentParser would otherwise
    /// print the memberwise form (`TimeSpan(seconds: 900.0)`); this one can be typed back in.
    public var defaultValueDescription: String {
        Self.describe(seconds).replacingOccurrences(of: " ", with: "")
    }
}

/// `SearchQuery` (DiaryApp) from `search`'s arguments; what it refuses is a usage error.
extension SearchQuery {
    init(validating arguments: [String]) throws {
        do {
            try self.init(arguments: arguments)
        } catch let error as InputError {
            throw ValidationError(InputWording.message(error))
        }
    }
}
