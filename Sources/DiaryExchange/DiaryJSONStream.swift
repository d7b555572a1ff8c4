import DiaryStore
import DiaryVault
import Foundation

/// Reads a diary JSON export one entry at a time, from a file read in chunks: an import of
/// any size holds one entry (and one chunk) of the file at a time, not the whole document.
///
/// Strict exactly as reading the whole file first was: it reports the same error for every
/// input, chosen in the same order — the file itself (`JSONChunks`: unreadable, too large, not
/// UTF-8 anywhere), then the JSON syntax anywhere in it, then the top level (an object, its
/// format, its version, its `entries` array), then an element of `entries` that is not an
/// object, then the first entry with a bad field. So entries are handed to `body` before the
/// file is known to be good: the caller must be able to undo them when this throws (an import
/// runs it once to check, with nothing written, and once to store, in one atomic change).
struct DiaryJSONStream {
    /// One entry and the files its `attachments` lists (`DiaryJSONAttachments`), with how many
    /// of those it lists without a file to import.
    struct Item {
        var entry: Entry
        var attachments: [ImportAttachment]
        var missing: Int
    }

    private let file: String
    private let url: URL
    private var reader: JSONReader
    /// The top-level members other than a streamed `entries` array.
    private var members: [String: JSONNode] = [:]
    private var keys: Set<String> = []
    private var topIsObject = true
    private var streamedEntries = false
    private var count = 0
    private var notAnObject: ExchangeError?
    private var badEntry: (any Error)?
    private var bodyError: (any Error)?

    /// Calls `body` with each entry of the export at `url`, in order, and returns how many
    /// there are. Once `body` throws it is not called again; the error is thrown after the
    /// whole file is read, unless the file holds one of its own, which comes first.
    @discardableResult
    static func forEachEntry(
        in url: URL, chunkBytes: Int = JSONChunks.defaultChunkBytes, _ body: (Entry) throws -> Void
    ) throws -> Int {
        try forEachItem(in: url, chunkBytes: chunkBytes) { try body($0.entry) }
    }

    /// `forEachEntry`, each entry with its attachments.
    @discardableResult
    static func forEachItem(
        in url: URL, chunkBytes: Int = JSONChunks.defaultChunkBytes, _ body: (Item) throws -> Void
    ) throws -> Int {
        let chunks = try JSONChunks(url, chunkBytes: chunkBytes)
        var stream = DiaryJSONStream(file: url.path, url: url, reader: JSONReader(chunks: chunks))
        var syntax: JSONReader.Failure?
        do { try stream.document(body) } catch { syntax = error }
        chunks.drain()
        if let failure = chunks.failure { throw failure }
        if let syntax { throw ExchangeError.malformedJSON(file: url.path, line: syntax.line, detail: syntax.detail) }
        try stream.checkTopLevel()
        if let error = stream.notAnObject { throw error }
        if let error = stream.badEntry ?? stream.bodyError { throw error }
        return stream.count
    }

    private init(file: String, url: URL, reader: JSONReader) {
        self.file = file
        self.url = url
        self.reader = reader
    }

    /// The document, as `JSONReader.parse` reads it, with the top-level `entries` array
    /// read element by element.
    private mutating func document(_ body: (Item) throws -> Void) throws(JSONReader.Failure) {
        reader.skipWhitespace()
        if reader.current == UInt8(ascii: "{") {
            try object(body)
        } else {
            _ = try reader.value(depth: 0)
            topIsObject = false
        }
        reader.skipWhitespace()
        try reader.requireEnd()
    }

    private mutating func object(_ body: (Item) throws -> Void) throws(JSONReader.Failure) {
        reader.advance()
        reader.skipWhitespace()
        if reader.current == UInt8(ascii: "}") { return reader.advance() }
        while true {
            reader.skipWhitespace()
            guard reader.current == UInt8(ascii: "\"") else { throw reader.failure("expected a quoted key") }
            let key = try reader.string()
            if !keys.insert(key).inserted { throw reader.failure("duplicate key '\(key)'") }
            reader.skipWhitespace()
            try reader.expect(":")
            reader.skipWhitespace()
            if key == "entries", reader.current == UInt8(ascii: "[") {
                try entries(body)
            } else {
                members[key] = try reader.value(depth: 1)
            }
            reader.skipWhitespace()
            switch reader.current {
            case UInt8(ascii: ","): reader.advance()
            case UInt8(ascii: "}"): return reader.advance()
            default: throw reader.failure("expected ',' or '}' in an object")
            }
        }
    }

    /// The `entries` array (at depth 1), each element checked and handed on as it is read.
    private mutating func entries(_ body: (Item) throws -> Void) throws(JSONReader.Failure) {
        streamedEntries = true
        reader.advance()
        reader.skipWhitespace()
        if reader.current == UInt8(ascii: "]") { return reader.advance() }
        while true {
            reader.skipWhitespace()
            element(try reader.value(depth: 2), body)
            reader.skipWhitespace()
            switch reader.current {
            case UInt8(ascii: ","): reader.advance()
            case UInt8(ascii: "]"): return reader.advance()
            default: throw reader.failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func element(_ node: JSONNode, _ body: (Item) throws -> Void) {
        count += 1
        guard case .object(let fields) = node.value else {
            if notAnObject == nil {
                notAnObject = .invalidEntry(
                    file: file, entry: count, id: nil, detail: "is \(node.kind), not an object (line \(node.line))")
            }
            return
        }
        // After the first error nothing more is read into entries; only the syntax, and
        // elements that are not objects (which come first), are still checked.
        guard notAnObject == nil, badEntry == nil, bodyError == nil else { return }
        let item: Item
        do {
            var json = JSONFields(members: fields, file: file, position: count, line: node.line)
            let entry = try DiaryJSON.entry(json)
            json.id = entry.id.lowercaseString
            let (files, missing) = try DiaryJSONAttachments.read(json, entry: entry.id, jsonFile: url)
            item = Item(entry: entry, attachments: files, missing: missing)
        } catch {
            badEntry = error
            return
        }
        do { try body(item) } catch { bodyError = error }
    }

    /// The checks of the top level, in the order `DiaryJSON` makes them.
    private func checkTopLevel() throws {
        let expected = "diary json"
        guard topIsObject else {
            throw ExchangeError.notAnExport(file: file, expected: expected, detail: "the top level is not an object")
        }
        try DiaryJSON.checkHeader(members, file: file)
        if streamedEntries { return }
        guard let list = members["entries"] else {
            throw ExchangeError.notAnExport(file: file, expected: expected, detail: "no 'entries' array")
        }
        throw ExchangeError.notAnExport(
            file: file, expected: expected, detail: "'entries' is \(list.kind), not an array (line \(list.line))")
    }
}
