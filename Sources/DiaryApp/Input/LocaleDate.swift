import Foundation

/// A day written exactly as `list` prints it in the user's locale, so a date copied from a
/// listing can be given back to `--on` or `--date`: `2026년 11월 25일`, `2026年11月25日`,
/// `25. Nov. 2026`, `25 нояб. 2026 г.`, and the same without the year (`11월 25일`,
/// `25. Nov.`: the most recent such day, as `SpokenDate` reads `Feb 22`).
///
/// Parsed with the formatters the CLI prints with (the same locale, calendar and template),
/// and accepted only when formatting the result gives the text back (letter case and the kind
/// of space aside): ICU's parser is lenient and would otherwise turn `Feb 30` into March 1st.
enum LocaleDate {
    static func parse(_ text: String, now: Date, in context: LocaleCalendar) -> DateInput? {
        guard !text.isEmpty else { return nil }
        let calendar = context.calendar
        if let date = roundTrip(text, template: LocaleCalendar.dayTemplate, in: context) {
            return DateInput(dayOf: date, calendar: calendar)
        }
        if let date = roundTrip(text, template: "MMMd", in: context) {
            let c = ProlepticGregorian.components(of: date, in: calendar)
            let year = SpokenDate.mostRecentYear(month: c.month!, day: c.day!, now: now, calendar: calendar)
            guard SpokenDate.isValid(year, c.month!, c.day!, calendar: calendar) else { return nil }
            return DateInput(.day(year: year, month: c.month!, day: c.day!))
        }
        return nil
    }

    private static func roundTrip(_ text: String, template: String, in context: LocaleCalendar) -> Date? {
        let formatter = context.formatter(template: template)
        // The pattern and the text with plain spaces (see `spaced`).
        formatter.dateFormat = spaced(formatter.dateFormat)
        let text = spaced(text)
        // Without a year the parser takes the default date's: 2000 has a February 29th.
        formatter.defaultDate = context.calendar.date(from: DateComponents(year: 2000, month: 1, day: 1))
        guard let date = formatter.date(from: text),
            formatter.string(from: date).compare(text, options: [.caseInsensitive]) == .orderedSame
        else { return nil }
        return date
    }

    /// Any space as a plain one: some locales print a no-break space (`25 нояб. 2026 г.`
    /// has U+00A0 before `г.`), which nobody types.
    private static func spaced(_ text: String) -> String {
        String(text.map { $0.isWhitespace ? " " : $0 })
    }
}
