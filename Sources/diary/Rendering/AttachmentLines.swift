import DiaryApp
import DiaryExchange
import DiaryVault
import Foundation

/// How attachments look: `show`'s lines after the text, the table of `diary attachments`,
/// and their JSON.
enum AttachmentLines {
    /// A size people read: `512 B`, `1.5 KiB`, `12 MiB`, `3.9 GiB` (binary units).
    static func size(_ bytes: UInt64) -> String {
        guard bytes >= 1024 else { return "\(bytes) B" }
        var value = Double(bytes)
        var unit = "B"
        for next in ["KiB", "MiB", "GiB", "TiB"] where value >= 1024 {
            value /= 1024
            unit = next
        }
        return value < 10 ? String(format: "%.1f", value) + " " + unit : "\(Int(value.rounded())) \(unit)"
    }

    /// `show`'s lines after the text: `Attachments:`, then `  NAME  (type, size)` each.
    static func shown(_ records: [AttachmentRecord], style: Style = Style()) -> String {
        var lines = [style.dim("Attachments:")]
        for record in records {
            lines.append("  \(Printable.escaped(record.name))  (\(record.mediaType), \(size(record.length)))")
        }
        return lines.joined(separator: "\n")
    }

    /// The table of `diary attachments`: name, type, size and date added, the columns lined up.
    static func table(_ records: [AttachmentRecord], indent: String = "") -> [String] {
        let names = records.map { Printable.escaped($0.name) }
        let types = records.map(\.mediaType)
        let sizes = records.map { size($0.length) }
        let nameWidth = names.map(DisplayWidth.of).max() ?? 0
        let typeWidth = types.map(\.count).max() ?? 0
        let sizeWidth = sizes.map(\.count).max() ?? 0
        return records.indices.map { i in
            let name = names[i] + String(repeating: " ", count: nameWidth - DisplayWidth.of(names[i]))
            let type = types[i] + String(repeating: " ", count: typeWidth - types[i].count)
            let size = String(repeating: " ", count: sizeWidth - sizes[i].count) + sizes[i]
            return "\(indent)\(name)  \(type)  \(size)  \(DateOutput.dayAndTime(records[i].added))"
        }
    }

    /// One attachment in `show --json` and `list --json` (`list` knows only name and size:
    /// the index holds no more, and the entries are not opened for a listing).
    struct JSON: Encodable {
        let name: String
        let type: String?
        let size: UInt64
        let added: String?

        init(_ record: AttachmentRecord) {
            name = record.name; type = record.mediaType; size = record.length; added = DateOutput.iso(record.added)
        }

        init(_ summary: AttachmentSummary) {
            name = summary.name; type = nil; size = summary.length; added = nil
        }
    }

    /// One attachment in `diary attachments --json`: always the same five keys.
    struct Listed: Encodable {
        let entry: String
        let name: String
        let type: String
        let size: UInt64
        let added: String

        init(_ record: AttachmentRecord, of entry: UUID) {
            self.entry = EntryFormat.fullID(entry); name = record.name; type = record.mediaType
            size = record.length; added = DateOutput.iso(record.added)
        }
    }

    /// `diary: removed photo metadata from NAME (EXIF with a GPS position, XMP)`.
    static func removed(_ stripped: StrippedMetadata) -> String {
        let kinds = stripped.report.removedKinds.map { kind -> String in
            switch kind {
            case .exif: return stripped.report.exifHasGPSPosition ? "EXIF with a GPS position" : "EXIF"
            case .xmp: return "XMP"
            case .iptc: return "IPTC"
            case .comment: return "a comment"
            case .otherAPP1: return "other APP1 data"
            }
        }
        return "removed photo metadata from \(Printable.escaped(stripped.name)) (\(kinds.joined(separator: ", ")))"
    }
}
