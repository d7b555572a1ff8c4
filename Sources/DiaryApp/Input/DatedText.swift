import Foundation

/// jrnl's way of dating an entry in its text: `yesterday 9pm: Saw a heron` is the text
/// `Saw a heron` dated yesterday at 9 pm.
///
/// As jrnl does it: the date is everything before the first `: ` (a colon and a space, so the
/// colon inside `9:30pm` does not count) on the first line, and it counts only when all of it
/// is a date `DateInput` accepts; the date and the colon are then removed. Anything else is
/// text as typed (`Note to self: buy milk`). The caller asks only when no `--date` was given.
public enum DatedText {
    /// The date and the text after it, or nil when the text does not open with a date.
    public static func split(_ text: String, now: Date, in context: LocaleCalendar) -> (date: DateInput, text: String)?
    {
        let firstLine = text.prefix { $0 != "\n" }
        guard let colon = firstLine.range(of: ": ") else { return nil }
        let phrase = text[..<colon.lowerBound]
        guard !phrase.trimmingCharacters(in: .whitespaces).isEmpty,
            let date = DateInput.parse(String(phrase), now: now, in: context)
        else { return nil }
        let rest = text[colon.upperBound...].drop { $0 == " " }
        return (date, String(rest))
    }
}
