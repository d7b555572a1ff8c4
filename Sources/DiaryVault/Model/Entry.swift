import Foundation

/// One diary entry, decrypted.
public struct Entry: Equatable, Sendable {
    public let id: UUID
    /// The whole text: the first line is the title, the rest the body.
    public var text: String
    /// The entry's date, chosen by the user (default: when it was written). For a calendar
    /// day, local midnight of that day.
    public var date: Date
    /// True when `date` is a whole calendar day (`--date 2024-03-01`) rather than an instant:
    /// it is the same day in every time zone (see `CalendarDay`).
    public var isCalendarDay: Bool
    public var created: Date
    public var modified: Date
    public var starred: Bool
    /// Sorted, without duplicates, as written.
    public var tags: [String]
    /// Where an imported entry came from (for example `jrnl:<hash>` or `dayone:<uuid>`), so a
    /// second import of the same file adds nothing; nil for entries written in `diary`.
    public var source: String?
    /// Set when this object is a template rather than an entry (`diary template`): the text
    /// is the template's, and the date, star, tags and source are unused (FORMAT.md §7).
    public var template: TemplateFields?
    /// The files attached to the entry, in the order they were added (at most 255, names unique
    /// up to letter case; docs/FORMAT.md §7.6). A template has none.
    public var attachments: [AttachmentRecord] = []
    /// Set when this object is a capture device's record rather than an entry (`diary
    /// capture-key`): the text is empty and nothing else is used (FORMAT.md §7.7).
    public var captureDevice: CaptureDeviceRecord?

    public init(
        id: UUID, text: String, date: Date, created: Date, modified: Date, starred: Bool, tags: [String],
        source: String? = nil, isCalendarDay: Bool = false, template: TemplateFields? = nil,
        attachments: [AttachmentRecord] = [], captureDevice: CaptureDeviceRecord? = nil
    ) {
        self.id = id
        self.text = text
        self.date = date
        self.isCalendarDay = isCalendarDay
        self.created = created
        self.modified = modified
        self.starred = starred
        self.tags = tags
        self.source = source
        self.template = template
        self.attachments = attachments
        self.captureDevice = captureDevice
    }

    /// True for a diary entry: neither a template nor a capture device's record.
    public var isEntry: Bool { template == nil && captureDevice == nil }

    /// The first line that is not blank, trimmed (`EntryText.title(of:)`).
    public var title: String { EntryText.title(of: text) }

    /// Everything after the title's line (blank lines before it are not part of it either).
    public var body: String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let titleLine = lines.firstIndex(where: { !EntryText.isBlank(String($0)) }) else { return "" }
        return lines[(titleLine + 1)...].joined(separator: "\n")
    }
}

/// One row of the sealed index: what `list` shows without decrypting any entry.
public struct EntrySummary: Equatable, Sendable {
    public let id: UUID
    public var title: String
    public var date: Date
    /// See `Entry.isCalendarDay`.
    public var isCalendarDay: Bool = false
    public var created: Date
    public var modified: Date
    public var starred: Bool
    public var tags: [String]
    /// UTF-8 byte count of the text.
    public var size: Int
    /// See `Entry.source`.
    public var source: String?
    /// True for a template's row (its title is the template's name): every listing skips it.
    public var isTemplate: Bool = false
    /// True for a capture device's row (its title is the device's name): every listing skips it.
    public var isCaptureDevice: Bool = false
    /// What the index keeps of the entry's attachments (`Entry.attachments`), in their order.
    public var attachments: [AttachmentSummary] = []

    /// True for an entry's row: neither a template's nor a capture device's.
    public var isEntry: Bool { !isTemplate && !isCaptureDevice }
}

/// Which entries `list` and `search` return. Dates are inclusive and apply to the entry date.
public struct EntryFilter: Sendable, Equatable {
    /// When true, starred entries only.
    public var starred: Bool
    public var tag: String?
    public var from: Date?
    public var to: Date?
    /// At most this many (the newest).
    public var limit: Int?

    public init(starred: Bool = false, tag: String? = nil, from: Date? = nil, to: Date? = nil, limit: Int? = nil) {
        self.starred = starred
        self.tag = tag
        self.from = from
        self.to = to
        self.limit = limit
    }

    func matches(_ s: EntrySummary) -> Bool {
        if starred && !s.starred { return false }
        if let tag {
            let key = EntryText.tagKey(tag)
            if !s.tags.contains(where: { EntryText.tagKey($0) == key }) { return false }
        }
        if let from, s.date < from { return false }
        if let to, s.date > to { return false }
        return true
    }
}

/// Rules about entry text shared by every write path.
public enum EntryText {
    static let untitled = "Untitled"
    /// Titles in the index are cut to this many characters and at most this many UTF-8 bytes
    /// (one character can be any number of bytes); `show` has the full line.
    static let maximumTitleCharacters = 200
    static let maximumTitleBytes = 800
    /// A tag is at most this many UTF-8 bytes; a source at most this many.
    static let maximumTagBytes = 200
    static let maximumSourceBytes = 1024

    /// The title: the first line that is not blank, trimmed, cut to the index's limits;
    /// "Untitled" when nothing fits. Text that opens with blank lines takes its title from the
    /// line after them. The index stores the title an entry had when it was last written
    /// (FORMAT.md §7): an entry stored before this rule, by a diary that called such text
    /// "Untitled", keeps that title until it is edited or `diary reindex` runs.
    static func title(of text: String) -> String {
        // Line by line up to the first that is not blank: splitting the whole text, and trimming
        // through NSString, cost more than the rest of an import.
        var rest = Substring(text)
        var firstLine: Substring = ""
        while true {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            if !isBlank(rest[..<end]) {
                firstLine = rest[..<end]
                break
            }
            guard end < rest.endIndex else { break }
            rest = rest[rest.index(after: end)...]
        }
        let trimmed = trimmingBlanks(firstLine)
        if trimmed.isEmpty { return untitled }
        var title = Substring(trimmed.prefix(maximumTitleCharacters))
        while title.utf8.count > maximumTitleBytes { title.removeLast() }
        return title.isEmpty ? untitled : String(title)
    }

    /// True when the text holds nothing but white space: such an entry is never stored.
    public static func isBlank(_ text: String) -> Bool { isBlank(Substring(text)) }

    /// As `text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty`, stopping at the first
    /// character that is not white space.
    static func isBlank(_ text: Substring) -> Bool {
        text.unicodeScalars.allSatisfy(blanks.contains)
    }

    /// As `text.trimmingCharacters(in: .whitespacesAndNewlines)`, without going through NSString.
    static func trimmingBlanks(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !blanks.contains($0) }),
            let last = scalars.lastIndex(where: { !blanks.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    private static let blanks = CharacterSet.whitespacesAndNewlines

    /// Tags trimmed, without a leading '#', white space inside as '-', empty ones dropped,
    /// sorted, and no two that `--tag` takes for the same (`sameTag`): the first spelling
    /// given is kept (`#Walk and #WALK` stores `Walk`).
    /// (`Vault.validate` refuses tags longer than `maximumTagBytes` before this runs.)
    static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for raw in tags {
            let t = normalizedTag(raw)
            guard !t.isEmpty, seen.insert(tagKey(t)).inserted else { continue }
            out.append(t)
        }
        return out.sorted()
    }

    /// A tag as stored: trimmed, without a leading '#', and each run of white space inside it
    /// replaced by '-', so a tag prints unambiguously after its '#' (`#a b` would read as two).
    /// The command line refuses such a tag; an import file's `a b` becomes `a-b`.
    static func normalizedTag(_ raw: String) -> String {
        // Printable ASCII without a '#' in front (nearly every tag) has nothing to trim or
        // join: Foundation's trimming, through NSString, was a tenth of an import.
        if raw.utf8.first != UInt8(ascii: "#"), raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return raw }
        return normalizedTagByCharacter(raw)
    }

    /// `normalizedTag` for any text.
    static func normalizedTagByCharacter(_ raw: String) -> String {
        var t = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.hasPrefix("#") { t.removeFirst() }
        return t.split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }

    /// What two tags that `--tag` takes for the same have in common: the tag with its letter
    /// case folded (`Walk`, `WALK` and `walk` are one tag).
    public static func tagKey(_ tag: String) -> String {
        TagKeys.key(tag)
    }

    /// True when `a` and `b` are the same tag to `--tag`, `diary tag` and `stats`.
    public static func sameTag(_ a: String, _ b: String) -> Bool { tagKey(a) == tagKey(b) }
}

extension Entry {
    /// What the index keeps of this entry.
    var summary: EntrySummary {
        if let device = captureDevice {
            return EntrySummary(
                id: id, title: device.name, date: device.enrolled, created: device.enrolled,
                modified: device.enrolled, starred: false, tags: [], size: 0, source: nil, isCaptureDevice: true)
        }
        if let template {
            return EntrySummary(
                id: id, title: template.name, date: created, created: created, modified: modified, starred: false,
                tags: [], size: text.utf8.count, source: nil, isTemplate: true)
        }
        return EntrySummary(
            id: id, title: title, date: date, isCalendarDay: isCalendarDay, created: created,
            modified: modified, starred: starred, tags: tags, size: text.utf8.count, source: source,
            attachments: attachments.map(AttachmentSummary.init))
    }
}
