import DiaryCrypto
import DiaryStore
import Foundation

/// A template (`diary template`), decrypted: a named text `diary new --template` starts from.
public struct Template: Equatable, Sendable {
    public let id: UUID
    public var name: String
    public var text: String
    /// The prompts `{prompt}` chose last, most recent first.
    public var recentPrompts: [String]
    public var created: Date
    public var modified: Date

    public init(
        id: UUID, name: String, text: String, recentPrompts: [String] = [], created: Date, modified: Date
    ) {
        self.id = id
        self.name = name
        self.text = text
        self.recentPrompts = recentPrompts
        self.created = created
        self.modified = modified
    }

    init?(_ entry: Entry) {
        guard let fields = entry.template else { return nil }
        id = entry.id
        name = fields.name
        text = entry.text
        recentPrompts = fields.recentPrompts
        created = entry.created
        modified = entry.modified
    }
}

/// One template as the index lists it, without decrypting it.
public struct TemplateSummary: Equatable, Sendable {
    public let id: UUID
    public var name: String
    public var modified: Date
    /// UTF-8 byte count of the text.
    public var size: Int
}

extension Vault {
    /// Every template, by name (letter case folded), from the index alone.
    public func templates() throws -> [TemplateSummary] {
        try sealedIndex.ensureAllPages()
        return Self.templateRows(in: sealedIndex.index).map {
            TemplateSummary(id: $0.id, name: $0.title, modified: $0.modified, size: $0.size)
        }
    }

    /// The template called `name` (letter case ignored).
    public func template(named name: String) throws -> Template {
        guard let id = try templates().first(where: { TemplateName.key($0.name) == TemplateName.key(name) })?.id
        else { throw VaultError.unknownTemplate(name) }
        guard let template = Template(try storedObject(id)) else { throw VaultError.unknownTemplate(name) }
        return template
    }

    /// Stores a new template. Refuses a name another template has (letter case ignored), a
    /// name the format cannot hold, and text that is blank or too large.
    public func addTemplate(name: String, text: String) throws -> Template {
        try Self.validateTemplate(name: name, text: text)
        let now = Self.now()
        let entry = Entry(
            id: SecureRandom.uuid(), text: text, date: now, created: now, modified: now, starred: false, tags: [],
            template: TemplateFields(name: name))
        return try write(allPages: true) { index in
            if Self.templateRows(in: index).contains(where: { TemplateName.key($0.title) == TemplateName.key(name) }) {
                throw VaultError.duplicateTemplate(name)
            }
            let sealed = try sealEntry(entry)
            index[entry.id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            return (StoreChange(putEntries: [entry.id: sealed]), Template(entry)!)
        }
    }

    /// Changes a template's text or prompt memory; the rest stays. Changing nothing writes nothing.
    @discardableResult
    public func updateTemplate(_ id: UUID, text: String? = nil, recentPrompts: [String]? = nil) throws -> Template {
        var entry = try storedObject(id)
        guard var fields = entry.template else { throw VaultError.unknownID(id.uuidString.lowercased()) }
        if let text { try Self.validateTemplate(name: fields.name, text: text) }
        if let recentPrompts {
            guard recentPrompts.count <= TemplateName.maximumRecentPrompts,
                recentPrompts.allSatisfy(TemplateName.isValidPrompt)
            else { throw VaultError.invalidPrompt(limit: TemplateName.maximumPromptBytes) }
        }
        let before = entry
        if let text { entry.text = text }
        if let recentPrompts { fields.recentPrompts = recentPrompts }
        entry.template = fields
        guard entry != before else { return Template(before)! }
        entry.modified = Self.now()
        return Template(try put(entry))!
    }

    /// Deletes a template.
    public func deleteTemplate(_ id: UUID) throws {
        guard try storedObject(id).template != nil else { throw VaultError.unknownID(id.uuidString.lowercased()) }
        try delete(id)
    }

    /// The rows of every template in `index` (whose pages must all be loaded), by name.
    private static func templateRows(in index: PagedIndex) -> [EntrySummary] {
        var rows: [EntrySummary] = []
        for page in index.pages.values {
            for i in 0..<page.count where page.isTemplate(rowAt: i) { rows.append(page.summary(at: i)) }
        }
        // By name, then id: two of one name (added on two machines before a sync) sort the same everywhere.
        return rows.sorted {
            let (a, b) = (TemplateName.key($0.title), TemplateName.key($1.title))
            return a != b ? a < b : $0.id.sortKey < $1.id.sortKey
        }
    }

    static func validateTemplate(name: String, text: String) throws {
        guard TemplateName.isValid(name) else {
            throw VaultError.invalidTemplateName(name, limit: TemplateName.maximumBytes)
        }
        try validate(text: text, tags: [])
    }
}
