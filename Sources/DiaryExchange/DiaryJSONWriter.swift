import DiaryVault
import Foundation

/// Writes the diary JSON export (`DiaryJSON`) one entry at a time, byte for byte what
/// `JSONEncoder` wrote with sorted keys, pretty printing and unescaped slashes: two spaces of
/// indent per level, `"key" : value`, an empty array as `[`, a blank line and `]`, `"` and `\`
/// escaped, control characters as `\b \t \n \f \r` or `\u00xx`, everything else as it is.
///
/// Bytes gather in `bytes` until the caller takes them, so a whole export need never be held.
struct DiaryJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var entries = 0
    /// Calendar days are written in this zone (the export's, as `DiaryJSON` always did).
    private let calendar: Calendar

    init(timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
        bytes.reserveCapacity(1 << 16)
        append(#"{\#n  "entries" : ["#)
    }

    /// Adds one entry's object.
    mutating func add(_ entry: Entry) {
        append(entries == 0 ? "\n    {\n" : ",\n    {\n")
        entries += 1
        field("created")
        ExchangeDates.appendUTCMilliseconds(entry.created, to: &bytes)
        append("\",\n")
        field("date")
        if entry.isCalendarDay {
            append(ProlepticGregorian.day(of: entry.date, in: calendar).iso)
        } else {
            ExchangeDates.appendUTCMilliseconds(entry.date, to: &bytes)
        }
        append("\",\n")
        field("id")
        append(entry.id.uuidString.lowercased())
        append("\",\n")
        field("modified")
        ExchangeDates.appendUTCMilliseconds(entry.modified, to: &bytes)
        append("\",\n")
        if let source = entry.source {
            field("source")
            escape(source)
            append("\",\n")
        }
        append(entry.starred ? "      \"starred\" : true,\n" : "      \"starred\" : false,\n")
        if entry.tags.isEmpty {
            append("      \"tags\" : [\n\n      ],\n")
        } else {
            append("      \"tags\" : [\n")
            for (i, tag) in entry.tags.enumerated() {
                append(i == 0 ? "        \"" : "\",\n        \"")
                escape(tag)
            }
            append("\"\n      ],\n")
        }
        field("text")
        escape(entry.text)
        append("\"\n    }")
    }

    /// Closes the document (with the final newline `DiaryJSON` adds).
    mutating func finish() {
        append(entries == 0 ? "\n\n  ],\n" : "\n  ],\n")
        append("  \"format\" : \"\(DiaryJSON.format)\",\n  \"version\" : \(DiaryJSON.version)\n}\n")
    }

    /// The bytes written since the last call, handed over; the writer keeps its capacity.
    mutating func take() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Empties the buffer in place (after the caller has written it out and zeroed it).
    mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    private mutating func field(_ name: StaticString) {
        append("      \"")
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        append("\" : \"")
    }

    private mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// The string's UTF-8 with JSONEncoder's escapes; runs without any are copied whole.
    private mutating func escape(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            var runStart = 0
            for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                switch byte {
                case 0x22: bytes += [0x5C, 0x22]
                case 0x5C: bytes += [0x5C, 0x5C]
                case 0x08: bytes += [0x5C, UInt8(ascii: "b")]
                case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
                case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
                case 0x0C: bytes += [0x5C, UInt8(ascii: "f")]
                case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
                default:
                    bytes += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 15)]]
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
    }
}
