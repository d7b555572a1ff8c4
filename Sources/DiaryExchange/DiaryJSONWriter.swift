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
        calendar = Self.calendar(in: timeZone)
        bytes.reserveCapacity(1 << 16)
        append(#"{\#n  "entries" : ["#)
    }

    /// Adds one entry's object.
    mutating func add(_ entry: Entry) { add(object: Self.object(entry, calendar: calendar)) }

    /// Adds an entry's object made by `object(_:calendar:)` (perhaps on another thread).
    mutating func add(object: [UInt8]) {
        append(entries == 0 ? "\n" : ",\n")
        entries += 1
        bytes += object
    }

    /// The Gregorian calendar in `timeZone`, for `object(_:calendar:)`.
    static func calendar(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// One entry's object, indented for its place in the array, without a separator.
    static func object(_ entry: Entry, calendar: Calendar) -> [UInt8] {
        var out = EntryObject(bytes: [])
        out.bytes.reserveCapacity(entry.text.utf8.count + 320)
        out.append("    {\n")
        out.field("created")
        ExchangeDates.appendUTCMilliseconds(entry.created, to: &out.bytes)
        out.append("\",\n")
        out.field("date")
        if entry.isCalendarDay {
            out.append(ProlepticGregorian.day(of: entry.date, in: calendar).iso)
        } else {
            ExchangeDates.appendUTCMilliseconds(entry.date, to: &out.bytes)
        }
        out.append("\",\n")
        out.field("id")
        out.append(entry.id.uuidString.lowercased())
        out.append("\",\n")
        out.field("modified")
        ExchangeDates.appendUTCMilliseconds(entry.modified, to: &out.bytes)
        out.append("\",\n")
        if let source = entry.source {
            out.field("source")
            out.escape(source)
            out.append("\",\n")
        }
        out.append(entry.starred ? "      \"starred\" : true,\n" : "      \"starred\" : false,\n")
        if entry.tags.isEmpty {
            out.append("      \"tags\" : [\n\n      ],\n")
        } else {
            out.append("      \"tags\" : [\n")
            for (i, tag) in entry.tags.enumerated() {
                out.append(i == 0 ? "        \"" : "\",\n        \"")
                out.escape(tag)
            }
            out.append("\"\n      ],\n")
        }
        out.field("text")
        out.escape(entry.text)
        out.append("\"\n    }")
        return out.bytes
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

    private mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

/// The bytes of one entry's object as they are built.
private struct EntryObject {
    var bytes: [UInt8]

    mutating func field(_ name: StaticString) {
        append("      \"")
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        append("\" : \"")
    }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    /// The string's UTF-8 with JSONEncoder's escapes; runs without any are copied whole.
    mutating func escape(_ s: String) {
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
