import ArgumentParser
import Foundation

/// A duration typed as `90s`, `15m`, `8h`, `1d`, or `1h30m`; a bare number means minutes.
struct TimeSpan: ExpressibleByArgument, Equatable, Sendable {
    let seconds: TimeInterval

    init(seconds: TimeInterval) { self.seconds = seconds }

    init?(argument: String) {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let minutes = Double(argument), minutes > 0 {
            seconds = minutes * 60
            return
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
        guard number.isEmpty, total > 0 else { return nil }
        seconds = total
    }

    /// `1h 5m`, `14m 32s`, `45s`: for `status` and `unlock` messages.
    static func describe(_ interval: TimeInterval) -> String {
        let total = max(0, Int(interval.rounded()))
        let (d, h, m, s) = (total / 86400, total % 86400 / 3600, total % 3600 / 60, total % 60)
        var parts: [String] = []
        if d > 0 { parts.append("\(d)d") }
        if h > 0 { parts.append("\(h)h") }
        if m > 0 && d == 0 { parts.append("\(m)m") }
        if s > 0 && d == 0 && h == 0 { parts.append("\(s)s") }
        return parts.isEmpty ? "0s" : parts.joined(separator: " ")
    }
}
