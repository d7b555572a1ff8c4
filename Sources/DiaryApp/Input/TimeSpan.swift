import Foundation

/// A duration typed as `90s`, `15m`, `8h`, `1d`, or `1h30m`; a bare number means minutes.
public struct TimeSpan: Equatable, Sendable {
    public let seconds: TimeInterval

    public init(seconds: TimeInterval) { self.seconds = seconds }

    /// The longest span accepted (a 30-day session is already more than anyone needs); it also
    /// keeps `inf`, `nan` and `1e300` out.
    public static let maximum: TimeInterval = 30 * 86400

    /// nil for anything but a positive span of at most `maximum` in the accepted forms.
    public init?(parsing text: String) {
        guard let seconds = Self.parse(text), seconds.isFinite, seconds > 0, seconds <= Self.maximum else {
            return nil
        }
        self.seconds = seconds
    }

    private static func parse(_ argument: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if argument.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let minutes = Double(argument) {
            return minutes * 60
        }
        var total: TimeInterval = 0
        var number = ""
        for c in argument.lowercased() {
            if c.isNumber || c == "." {
                number.append(c)
            } else if let unit = units[c], let value = Double(number) {
                total += value * unit
                number = ""
            } else {
                return nil
            }
        }
        return number.isEmpty ? total : nil
    }

    /// `1h 5m`, `14m 32s`, `45s`: the largest two units, in the form `init(parsing:)` reads
    /// once the spaces are removed.
    public static func describe(_ interval: TimeInterval) -> String {
        let total = interval.isFinite ? max(0, Int(clamping: Int64(interval.rounded()))) : 0
        let (d, h, m, s) = (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
        var parts: [String] = []
        if d > 0 { parts.append("\(d)d") }
        if h > 0 { parts.append("\(h)h") }
        if m > 0 && d == 0 { parts.append("\(m)m") }
        if s > 0 && d == 0 && h == 0 { parts.append("\(s)s") }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
