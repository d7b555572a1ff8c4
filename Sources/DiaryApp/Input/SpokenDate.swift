import Foundation
import Synchronization

/// Dates as people say them, for `DateInput`: `now`, `today`, `yesterday`, `tomorrow`,
/// `3 days ago`, `2 weeks ago`, `friday` (the most recent Friday, today included, as jrnl),
/// `last friday` (the one before today), `Feb 22`, `22 Feb`, `February 22 2023`; each day may
/// end in a time: `yesterday 9pm`, `friday 14:30`, `Feb 22 at 9:15am`. A time alone is today.
///
/// The words are English; month names in the user's locale (`LC_ALL`, `LC_TIME`, `LANG`) are
/// understood too. A month and day without a year is the most recent one, today included.
/// Parsing is strict: anything else is nil, and the caller reports the accepted forms.
enum SpokenDate {
    static func parse(_ text: String, now: Date, in context: LocaleCalendar) -> DateInput? {
        let calendar = context.calendar
        var words = text.lowercased().replacingOccurrences(of: ",", with: " ")
            .split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        if words == ["now"] { return DateInput(.instant(now)) }
        if let relative = instantAgo(words, now: now) { return DateInput(.instant(relative)) }

        let time = takeTime(&words)
        if time != nil, words.last == "at" { words.removeLast() }
        if case .some(nil) = time { return nil }  // something that looked like a time but was not one
        let day: DateComponents?
        if words.isEmpty {
            guard time != nil else { return nil }
            day = dayComponents(of: now, calendar)
        } else {
            day = self.day(words, now: now, in: context)
        }
        guard let day, let y = day.year, let m = day.month, let d = day.day else { return nil }
        guard let clock = time ?? nil else { return DateInput(.day(year: y, month: m, day: d)) }
        let components = DateComponents(year: y, month: m, day: d, hour: clock.0, minute: clock.1)
        return ProlepticGregorian.date(components, in: calendar).map { DateInput(.instant($0)) }
    }

    // MARK: Days

    private static func day(_ words: [String], now: Date, in context: LocaleCalendar) -> DateComponents? {
        let calendar = context.calendar
        func shifted(_ unit: Calendar.Component, by value: Int) -> DateComponents? {
            calendar.date(byAdding: unit, value: value, to: now).map { dayComponents(of: $0, calendar) }
        }
        switch words.count {
        case 1:
            switch words[0] {
            case "today": return dayComponents(of: now, calendar)
            case "yesterday": return shifted(.day, by: -1)
            case "tomorrow": return shifted(.day, by: 1)
            default: break
            }
            if let weekday = weekdays[words[0]] { return recent(weekday, now: now, includingToday: true, calendar) }
        case 2 where words[0] == "last":
            if let weekday = weekdays[words[1]] { return recent(weekday, now: now, includingToday: false, calendar) }
        case 3 where words[2] == "ago":
            guard let count = number(words[0]), let unit = dayUnits[words[1]] else { return nil }
            return shifted(unit, by: -count)
        default: break
        }
        return monthAndDay(words, now: now, in: context)
    }

    /// `N hours ago`, `N minutes ago`: instants, unlike `N days ago`.
    private static func instantAgo(_ words: [String], now: Date) -> Date? {
        guard words.count == 3, words[2] == "ago", let count = number(words[0]) else { return nil }
        let seconds: Double
        switch words[1] {
        case "hour", "hours": seconds = 3600
        case "minute", "minutes", "min", "mins": seconds = 60
        default: return nil
        }
        return now.addingTimeInterval(-seconds * Double(count))
    }

    /// The most recent `weekday` (1 = Sunday) on or before today, or strictly before it.
    private static func recent(_ weekday: Int, now: Date, includingToday: Bool, _ calendar: Calendar) -> DateComponents?
    {
        let today = calendar.component(.weekday, from: now)
        var back = (today - weekday + 7) % 7
        if back == 0 && !includingToday { back = 7 }
        return calendar.date(byAdding: .day, value: -back, to: now).map { dayComponents(of: $0, calendar) }
    }

    /// `feb 22`, `22 feb`, `february 22nd 2023`, `22 feb 2023`.
    private static func monthAndDay(_ words: [String], now: Date, in context: LocaleCalendar) -> DateComponents? {
        guard words.count == 2 || words.count == 3 else { return nil }
        let calendar = context.calendar
        let months = months(context)
        func monthNumber(_ word: String) -> Int? { months[word.hasSuffix(".") ? String(word.dropLast()) : word] }
        let month: Int, dayText: String
        if let m = monthNumber(words[0]) {
            (month, dayText) = (m, words[1])
        } else if let m = monthNumber(words[1]) {
            (month, dayText) = (m, words[0])
        } else {
            return nil
        }
        guard let day = dayOfMonth(dayText) else { return nil }
        var year: Int
        if words.count == 3 {
            guard words[2].count == 4, let y = Int(words[2]), y >= 1 else { return nil }
            year = y
        } else {
            year = mostRecentYear(month: month, day: day, now: now, calendar: calendar)
        }
        guard isValid(year, month, day, calendar: calendar) else { return nil }
        return DateComponents(year: year, month: month, day: day)
    }

    /// The year of the most recent `month`/`day`, today included, so `Dec 24` said in January
    /// is last Christmas Eve. `Feb 29` in a year without one is the last February 29th (eight
    /// years back cover 2100, which has none); a day no year has (`Feb 30`) is left for the
    /// caller's check to refuse.
    static func mostRecentYear(month: Int, day: Int, now: Date, calendar: Calendar) -> Int {
        let today = dayComponents(of: now, calendar)
        var year = today.year!
        if (month, day) > (today.month!, today.day!) { year -= 1 }
        for _ in 0..<8 where !isValid(year, month, day, calendar: calendar) { year -= 1 }
        return year
    }

    /// A day of the month: `22`, `22nd`, and `22.` as German and others write it.
    private static func dayOfMonth(_ text: String) -> Int? {
        var digits = Substring(text)
        if digits.hasSuffix(".") { digits = digits.dropLast() }
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(2)
        }
        guard (1...2).contains(digits.count), let day = Int(digits), (1...31).contains(day) else { return nil }
        return day
    }

    /// Rejects 2024-02-30 and friends instead of letting the calendar roll them over.
    /// (Gregorian days, before 1582 too: `ProlepticGregorian`.)
    static func isValid(_ y: Int, _ m: Int, _ d: Int, calendar: Calendar) -> Bool {
        ProlepticGregorian.isValid(y, m, d)
    }

    private static func dayComponents(of date: Date, _ calendar: Calendar) -> DateComponents {
        let day = ProlepticGregorian.day(of: date, in: calendar)
        return DateComponents(year: day.year, month: day.month, day: day.day)
    }

    // MARK: Times

    /// Removes a trailing time (`9pm`, `9 pm`, `9:30am`, `21:00`) from `words`. nil: none there;
    /// .some(nil): the last word is a time that does not exist (`25:00`, `13pm`).
    private static func takeTime(_ words: inout [String]) -> (Int, Int)?? {
        guard let last = words.last else { return nil }
        var text = last
        var taken = 1
        if last == "am" || last == "pm", words.count >= 2 {
            text = words[words.count - 2] + last
            taken = 2
        }
        let pattern = #"^(\d{1,2})(?::(\d{2}))?(am|pm)?$"#
        guard let match = text.range(of: pattern, options: .regularExpression), match == text.startIndex..<text.endIndex
        else { return nil }
        let meridiem = text.hasSuffix("am") ? "am" : text.hasSuffix("pm") ? "pm" : nil
        let clock = meridiem == nil ? text : String(text.dropLast(2))
        let parts = clock.split(separator: ":").map { Int($0) }
        // A bare number is a day of the month (`feb 22`), not a time.
        guard meridiem != nil || parts.count == 2 else { return nil }
        words.removeLast(taken)
        guard var hour = parts[0], let minute = parts.count == 2 ? parts[1] : 0, minute < 60 else { return .some(nil) }
        if let meridiem {
            guard (1...12).contains(hour) else { return .some(nil) }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        guard hour < 24 else { return .some(nil) }
        return .some((hour, minute))
    }

    // MARK: Words

    /// Every word the phrases are made of (`yesterday`, `ago`, `weeks`, `friday`, `feb`, the
    /// locale's month names…), for suggesting one when a word is mistyped.
    static func vocabulary(in context: LocaleCalendar) -> Set<String> {
        var words: Set<String> = ["now", "today", "yesterday", "tomorrow", "last", "ago", "at", "am", "pm", "a", "an"]
        words.formUnion(weekdays.keys)
        words.formUnion(dayUnits.keys)
        words.formUnion(["hour", "hours", "minute", "minutes", "min", "mins"])
        words.formUnion(months(context).keys)
        return words
    }

    private static func number(_ word: String) -> Int? {
        if word == "a" || word == "an" || word == "one" { return 1 }
        guard word.count <= 4, let n = Int(word), n >= 0 else { return nil }
        return n
    }

    private static let dayUnits: [String: Calendar.Component] = [
        "day": .day, "days": .day, "week": .weekOfYear, "weeks": .weekOfYear,
        "month": .month, "months": .month, "year": .year, "years": .year,
    ]

    private static let weekdays: [String: Int] = {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        var table: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            table[name] = i + 1
            table[String(name.prefix(3))] = i + 1
        }
        return table
    }()

    /// English month names and three-letter abbreviations (and `sept`), then the user's
    /// locale's full and short names (in both their forms) where they differ.
    ///
    /// Built once per locale (a formatter and its symbols cost more than a parse).
    private static func months(_ context: LocaleCalendar) -> [String: Int] {
        monthTables.withLock { tables in
            if let table = tables[context.localeIdentifier] { return table }
            let table = monthTable(context)
            tables[context.localeIdentifier] = table
            return table
        }
    }

    private static let monthTables = Mutex<[String: [String: Int]]>([:])

    private static func monthTable(_ context: LocaleCalendar) -> [String: Int] {
        var table: [String: Int] = ["sept": 9]
        let english = DateFormatter()
        english.locale = Locale(identifier: "en_US_POSIX")
        let local = context.formatter()  // Gregorian month names, in any locale
        for formatter in [local, english] {
            // The standalone short names are those `calendar` labels its rows with (`Mär`).
            for symbols in [
                formatter.monthSymbols, formatter.shortMonthSymbols, formatter.standaloneMonthSymbols,
                formatter.shortStandaloneMonthSymbols,
            ] {
                for (i, name) in symbols.enumerated() {
                    var key = name.lowercased()
                    if key.hasSuffix(".") { key.removeLast() }
                    // A locale's month name that is only a number (`3월` is not; `3` would be)
                    // would turn a day into a month: leave those out.
                    guard !key.isEmpty, Int(key) == nil else { continue }
                    table[key] = i + 1
                }
            }
        }
        return table
    }
}
