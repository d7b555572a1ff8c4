import ArgumentParser
import DiaryApp
import Foundation

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

    /// For `@Option(transform:)`: like `init?(argument:)`, but a date it does not understand
    /// is an error that lists the forms it does.
    static func argument(_ text: String) throws -> DateInput {
        guard let parsed = DateInput(argument: text) else { throw UnknownDate() }
        return parsed
    }

    struct UnknownDate: Error, CustomStringConvertible {
        var description: String {
            "not a date diary understands. Accepted: 2024-02-22, 2024-02-22T15:00, 2024-02-22T15:00+09:00 "
                + "(ISO 8601); now, today, yesterday, tomorrow; 3 days ago, 2 weeks ago, 5 hours ago; "
                + "friday (the most recent), last friday; Feb 22, 22 Feb, February 22 2023; "
                + "a day may end in a time: yesterday 9pm, friday 14:30; or a date as `diary list` prints it"
        }
    }

    /// The start of the day in the user's time zone, or the instant.
    var start: Date { start(in: DateOutput.dayCalendar) }

    /// The last instant of the day in the user's time zone, or the instant itself.
    var end: Date { end(in: DateOutput.dayCalendar) }
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
