import DiaryCrypto
import DiaryVault
import Foundation

/// What a `new` or an `edit` meant to store besides the text: the date, the tags given as
/// options, the star, and (for an edit) the tags already written in the text it started from.
///
/// It is kept beside the editor's file, in the same private directory on a memory file system,
/// so that a text left there (the save failed, or `diary` was killed) is stored by `recover`
/// as the command would have stored it: dated when it was meant to be, with its tags and star.
/// It holds tags, which are as private as the text, so it gets the text's protection: it is
/// never written to persistent disk, and it is wiped with the text.
public struct EditIntent: Equatable, Sendable {
    /// The entry's date: `--date`, or for a new entry without one, when its editor opened.
    /// Nil for an edit that keeps its entry's date.
    public var date: Date?
    /// `date` stands for its whole calendar day (`--date 2024-02-22`).
    public var dateIsDay: Bool
    /// Tags given as options (`--tag`), cleaned.
    public var tags: [String]
    public var starred: Bool
    /// For an edit: the tags written in the text before it, which are not new when the edited
    /// text still holds them (`InlineTags.afterEdit`).
    public var writtenBefore: [String]
    /// For an edit: the fingerprint of the entry's text and date when the edit began
    /// (`stateDigest(of:)`), so that `recover` never puts a text over a later change.
    public var entryBefore: String?

    /// A new entry's intent.
    public static func newEntry(date: Date, dateIsDay: Bool, tags: [String], starred: Bool) -> EditIntent {
        EditIntent(
            date: date, dateIsDay: dateIsDay, tags: tags.map(TagInput.clean), starred: starred, writtenBefore: [])
    }

    /// An edit's intent: a new date or none, the tags written in the text being edited, and
    /// the entry as it was when the edit began.
    public static func edit(of entry: Entry, date: Date?, dateIsDay: Bool) -> EditIntent {
        EditIntent(
            date: date, dateIsDay: date != nil && dateIsDay, tags: [], starred: false,
            writtenBefore: InlineTags.find(in: entry.text), entryBefore: stateDigest(of: entry))
    }

    /// A hash (BLAKE2b, hex) of what an edit replaces: the entry's text and date. Its tags and
    /// star are not part of it: an edit keeps the tags and star the entry has when it is stored.
    public static func stateDigest(of entry: Entry) -> String {
        // Room for all up front: a growing array would leave copies of the text in freed memory.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entry.text.utf8.count + 64)
        defer { secureZero(&bytes) }
        bytes.append(contentsOf: entry.text.utf8)
        bytes.append(0)
        bytes.append(contentsOf: "\(entry.date.timeIntervalSinceReferenceDate.bitPattern) \(entry.isCalendarDay)".utf8)
        return BLAKE2b.hash(bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `entry`, which this edit began from, changed since (another edit, a sync): then
    /// storing the edit over it would lose that change. False when the edit recorded nothing
    /// (a directory left by a diary that recorded no fingerprint).
    public func entryChanged(_ entry: Entry) -> Bool {
        entryBefore.map { $0 != Self.stateDigest(of: entry) } ?? false
    }

    /// The tags of `text` stored as a new entry: the options' first, then those written in it.
    public func tagsForNewEntry(text: String) -> [String] {
        InlineTags.forNewEntry(given: tags, text: text)
    }

    /// The tags of an edited entry whose tags are `entryTags` and whose text became `text`, or
    /// nil when the edit adds none.
    public func tagsAfterEdit(_ entryTags: [String], text: String) -> [String]? {
        InlineTags.afterEdit(entryTags, writtenBefore: writtenBefore, text: text)
    }

    // MARK: The file beside the text

    /// The version of `bytes`. A reader refuses any other, and `recover` then stores the text
    /// without it, as before intents were kept.
    public static let version = 1

    private struct Fields: Codable {
        var version: Int
        var date: Double?
        var dateIsDay: Bool
        var tags: [String]
        var starred: Bool
        var writtenBefore: [String]
        var entryBefore: String?
    }

    /// The intent as one line of JSON (sorted keys): `version`, `date` (seconds since
    /// 1970-01-01 UTC), `dateIsDay`, `tags`, `starred`, `writtenBefore`, and for an edit
    /// `entryBefore`.
    public var bytes: [UInt8] {
        let fields = Fields(
            version: Self.version, date: date?.timeIntervalSince1970, dateIsDay: dateIsDay, tags: tags,
            starred: starred, writtenBefore: writtenBefore, entryBefore: entryBefore)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and booleans cannot fail.
        return Array((try? encoder.encode(fields)) ?? Data())
    }

    /// Reads `bytes`; nil when they are not an intent of this version.
    public init?(_ bytes: [UInt8]) {
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(bytes)), fields.version == Self.version,
            fields.date.map({ $0.isFinite }) ?? true
        else { return nil }
        self.init(
            date: fields.date.map(Date.init(timeIntervalSince1970:)), dateIsDay: fields.date != nil && fields.dateIsDay,
            tags: fields.tags, starred: fields.starred, writtenBefore: fields.writtenBefore,
            entryBefore: fields.entryBefore)
    }

    public init(
        date: Date?, dateIsDay: Bool, tags: [String], starred: Bool, writtenBefore: [String],
        entryBefore: String? = nil
    ) {
        self.date = date
        self.dateIsDay = dateIsDay
        self.tags = tags
        self.starred = starred
        self.writtenBefore = writtenBefore
        self.entryBefore = entryBefore
    }
}
