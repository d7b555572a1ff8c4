import DiaryVault
import Foundation

/// The date formats of the import and export files, parsed and written by hand.
///
/// A diary export must round-trip to the millisecond the vault stores, so dates are built from
/// integer milliseconds rather than through DateFormatter, whose fractional seconds are a
/// Double and whose parsing is lenient in ways that differ between platforms.
enum ExchangeDates {
    /// Parses `YYYY-MM-DD`, optionally followed by `T` or a space, `HH:MM[:SS[.fraction]]` and
    /// a zone (`Z`, `±HH:MM`, `±HHMM`). Without a time it is midnight; without a zone the time
    /// is read in `timeZone`. Returns nil for anything else, including impossible dates.
    ///
    /// ASCII text (every date an export writes) is read byte by byte (`ASCIIDateScanner`):
    /// read by `Character`, where each digit asks Unicode whether it is a number, three dates
    /// an entry were most of an import's time. Other text takes the `Character` path.
    static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        let fields: DateFields?
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            fields =
                text.utf8.withContiguousStorageIfAvailable { ASCIIDateScanner.fields(in: $0) }
                ?? ASCIIDateScanner.fields(in: Array(text.utf8))
        } else {
            fields = characterFields(text)
        }
        return fields.flatMap { date(from: $0, timeZone: timeZone) }
    }

    /// What a date's text says, checked for form only (`date(from:)` checks the calendar).
    struct DateFields: Equatable {
        var year = 0, month = 0, day = 0
        var hour = 0, minute = 0, second = 0, millisecond = 0
        /// Seconds east of UTC; nil when the text names no zone.
        var offsetSeconds: Int?
    }

    /// `parse`'s grammar read by `Character`, for text that is not all ASCII.
    static func characterFields(_ text: String) -> DateFields? {
        var s = trimmingSpaces(text)
        guard let year = s.digits(4), s.take("-"), let month = s.digits(2), s.take("-"), let day = s.digits(2)
        else { return nil }
        var hour = 0, minute = 0, second = 0, millisecond = 0
        var offsetSeconds: Int?
        if s.take("T") || s.take(" ") {
            guard let h = s.digits(2), s.take(":"), let m = s.digits(2) else { return nil }
            hour = h
            minute = m
            if s.take(":") {
                guard let sec = s.digits(2) else { return nil }
                second = sec
                if s.take(".") || s.take(",") {
                    let fraction = s.prefix(while: \.isASCIIDigitCharacter)
                    guard !fraction.isEmpty else { return nil }
                    s = s.dropFirst(fraction.count)
                    // Milliseconds are what the vault stores; finer digits are dropped.
                    millisecond = Int(String((fraction + "00").prefix(3)))!
                }
            }
            _ = s.take(" ")
            if s.take("Z") || s.take("z") {
                offsetSeconds = 0
            } else if let sign = s.first, sign == "+" || sign == "-" {
                s = s.dropFirst()
                guard let oh = s.digits(2) else { return nil }
                _ = s.take(":")
                guard let om = s.digits(2), oh < 24, om < 60 else { return nil }
                offsetSeconds = (sign == "-" ? -1 : 1) * (oh * 3600 + om * 60)
            }
        }
        guard s.isEmpty else { return nil }
        return DateFields(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            millisecond: millisecond, offsetSeconds: offsetSeconds)
    }

    /// The instant `fields` name, or nil for an impossible date or time.
    private static func date(from fields: DateFields, timeZone: TimeZone) -> Date? {
        let (year, month, day) = (fields.year, fields.month, fields.day)
        let (hour, minute, second, millisecond) = (fields.hour, fields.minute, fields.second, fields.millisecond)
        guard (1...12).contains(month), (1...CalendarDay.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        if let offsetSeconds = fields.offsetSeconds {
            let seconds =
                CalendarDay(year: year, month: month, day: day).ordinal * 86_400
                + hour * 3600 + minute * 60 + second - offsetSeconds
            return Date(millisecondsSince1970: Int64(seconds) * 1000 + Int64(millisecond))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        // Gregorian before 1582 too, as the CLI reads and prints days (Foundation's is Julian there).
        guard let local = ProlepticGregorian.date(parts, in: calendar) else { return nil }
        return Date(millisecondsSince1970: local.millisecondsSince1970 + Int64(millisecond))
    }

    /// As `text.trimmingCharacters(in: .whitespaces)`, without going through NSString (an
    /// import parses three dates per entry).
    static func trimmingSpaces(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !spaces.contains($0) }),
            let last = scalars.lastIndex(where: { !spaces.contains($0) })
        else { return "" }
        return Substring(String(scalars[first...last]))
    }

    private static let spaces = CharacterSet.whitespaces

    /// `2024-02-22T15:00:00.123Z`: UTC with exactly three fraction digits, the diary export's form.
    static func utcMilliseconds(_ date: Date) -> String {
        var bytes: [UInt8] = []
        appendUTCMilliseconds(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `utcMilliseconds(date)` to `bytes`, digit by digit: an export writes three per
    /// entry, and a formatter (or `String(format:)`) for each cost more than the rest of it.
    static func appendUTCMilliseconds(_ date: Date, to bytes: inout [UInt8]) {
        let (seconds, millis) = date.millisecondsSince1970.floorDivided(by: 1000)
        let (days, secondOfDay) = seconds.floorDivided(by: 86_400)
        let day = CalendarDay(ordinal: Int(days))
        let sod = Int(secondOfDay)
        appendPadded(day.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day.day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(sod / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(sod / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(sod % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendPadded(Int(millis), width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `value` in decimal as `%0<width>d` writes it: zeros before the digits up to `width`
    /// characters, the minus sign counted among them.
    static func appendPadded(_ value: Int, width: Int, to bytes: inout [UInt8]) {
        let magnitude = value.magnitude
        var divisor: UInt = 1
        var count = 1
        while magnitude / divisor >= 10 {
            divisor *= 10
            count += 1
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let zeros = width - count - (value < 0 ? 1 : 0)
        if zeros > 0 { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: zeros)) }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// `YYYY-MM-DD` of `date` in `timeZone` (file names of the Markdown export).
    static func day(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return ProlepticGregorian.day(of: date, in: calendar).iso
    }
}

extension Int64 {
    fileprivate func floorDivided(by d: Int64) -> (Int64, Int64) {
        let r = ((self % d) + d) % d
        return ((self - r) / d, r)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

extension Substring {
    /// Consumes exactly `count` ASCII digits.
    fileprivate mutating func digits(_ count: Int) -> Int? {
        let head = prefix(count)
        guard head.count == count, head.allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        removeFirst(count)
        return Int(head)
    }

    fileprivate mutating func take(_ c: Character) -> Bool {
        guard first == c else { return false }
        removeFirst()
        return true
    }
}
