import DiaryStore
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

    /// One entry's object, indented for its place in the array, without a separator. An entry
    /// with attachments lists them first (`DiaryJSONAttachments`), each with its path under
    /// `folder` when the files are written there.
    static func object(_ entry: Entry, calendar: Calendar, folder: String? = nil) -> [UInt8] {
        var out = EntryObject(bytes: [])
        out.bytes.reserveCapacity(entry.text.utf8.count + 320)
        out.append("    {\n")
        if !entry.attachments.isEmpty { out.attachments(entry, folder: folder) }
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
        out.append(entry.id.lowercaseString)
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

    /// Lends the bytes written since the last call to `body`, then forgets them, keeping the
    /// buffer: handing the bytes over left the writer a new buffer to fault in at every flush.
    mutating func drain(_ body: (inout [UInt8]) throws -> Void) rethrows {
        try body(&bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }
}

/// The bytes of one entry's object as they are built.
private struct EntryObject {
    var bytes: [UInt8]

    /// The `attachments` member, with its separator, sorted keys as everywhere.
    mutating func attachments(_ entry: Entry, folder: String?) {
        append("      \"attachments\" : [\n")
        for (i, record) in entry.attachments.enumerated() {
            append(i == 0 ? "        {\n" : "        },\n        {\n")
            append("          \"added\" : \"")
            ExchangeDates.appendUTCMilliseconds(record.added, to: &bytes)
            append("\",\n          \"name\" : \"")
            escape(record.name)
            if let folder {
                append("\",\n          \"path\" : \"")
                escape(ExportAttachmentFolder.path(folder, entry: entry.id, name: record.name))
            }
            append("\",\n          \"size\" : \(record.length),\n          \"type\" : \"")
            escape(record.mediaType)
            append("\"\n")
        }
        append("        }\n      ],\n")
    }

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

    /// The string's UTF-8 with JSONEncoder's escapes; runs without any are copied whole, and
    /// found eight bytes at a time (an entry's text is nearly all of an export).
    mutating func escape(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            let n = utf8.count
            var runStart = 0
            var i = 0
            while i < n {
                if i + 8 <= n, !Self.mayNeedEscape(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) {
                    i += 8
                    continue
                }
                let byte = base[i]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i - runStart))
                    appendEscape(byte)
                    runStart = i + 1
                }
                i += 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: n - runStart))
        }
    }

    /// False only when none of the eight bytes of `word` is a control character, `"` or `\\`
    /// (true may be a false alarm, which the byte test then clears).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool { (x &- ones) & ~x & highs != 0 }
        // Any byte below 0x20 (exact for a bound up to 0x80), or equal to 0x22 or 0x5C.
        return (word &- ones &* 0x20) & ~word & highs != 0 || hasZeroByte(word ^ (ones &* 0x22))
            || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// The escape of one byte that needs one, appended without an array per escape.
    private mutating func appendEscape(_ byte: UInt8) {
        bytes.append(0x5C)
        switch byte {
        case 0x22: bytes.append(0x22)
        case 0x5C: bytes.append(0x5C)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(UInt8(ascii: "u"))
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 15)])
        }
    }
}
