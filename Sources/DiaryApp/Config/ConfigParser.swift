import Foundation

// Not `internal import`: a module imported that way is still loaded by DiaryApp's importers,
// and TOMLKit's public conformances (TOMLValue is expressible by literals of every kind) then
// change how their array literals type-check (`[a, nil].compactMap { $0 }` became TOMLValue in
// the CLI). Implementation-only keeps it out of them; no TOMLKit type is part of a DiaryApp
// type's layout, which is what the compiler's warning about library evolution is about.
@_implementationOnly import TOMLKit

/// Reads the config file's text into a `DiaryConfig`, strictly: TOML that does not parse, a key
/// diary does not know and a value its key does not accept are each an error naming the line.
enum ConfigParser {
    /// `text` read from `path` (the path only names the file in errors).
    static func parse(_ text: String, path: String) throws(ConfigError) -> DiaryConfig {
        // toml++ reads a C string: a NUL would end the document early, unseen.
        guard !text.contains("\0") else { throw .notText(path: path) }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw .syntax(
                path: path, line: error.source.begin.line, column: error.source.begin.column,
                detail: error.description)
        } catch {
            throw .syntax(path: path, line: 1, column: 1, detail: String(describing: error))
        }
        var reader = Reader(lines: KeyLines(text), path: path)
        try reader.read(table)
        return reader.config
    }

    private struct Reader {
        let lines: KeyLines
        let path: String
        var config = DiaryConfig()

        mutating func read(_ table: TOMLTable) throws(ConfigError) {
            for (key, value) in table {
                switch key {
                case "unlock", "date":
                    guard let inner = value.table else { throw unknown([key]) }
                    for (innerKey, innerValue) in inner { try scalar([key, innerKey], innerValue) }
                case "journals":
                    guard let inner = value.table else { throw bad(["journals"], .wrongType(expected: "table")) }
                    for (name, path) in inner { try journal(name, path) }
                default:
                    try scalar([key], value)
                }
            }
            // The default journal must be one of `[journals]`, wherever either is written.
            if let name = config.defaultJournal, config.journals[name] == nil {
                throw bad(["journal"], .unknownJournal)
            }
        }

        mutating func scalar(_ path: [String], _ value: any TOMLValueConvertible) throws(ConfigError) {
            guard let key = ConfigKey(rawValue: path.joined(separator: ".")) else { throw unknown(path) }
            var text = value.string
            // A bare number is minutes, as `diary unlock --timeout 30` reads it.
            if text == nil, key == .unlockTimeout || key == .unlockMax, let minutes = value.int {
                text = String(minutes)
            }
            guard let text else { throw bad(path, .wrongType(expected: "string")) }
            if let problem = key.check(text) { throw bad(path, problem) }
            config.load(key, text)
        }

        mutating func journal(_ name: String, _ value: any TOMLValueConvertible) throws(ConfigError) {
            guard JournalName.isValid(name) else { throw bad(["journals", name], .badName) }
            guard let path = value.string else { throw bad(["journals", name], .wrongType(expected: "string")) }
            if let problem = DiaryConfig.checkJournalPath(path) { throw bad(["journals", name], problem) }
            config.loadJournal(name, path)
        }

        func unknown(_ keyPath: [String]) -> ConfigError {
            .unknownKey(path: path, key: keyPath.joined(separator: "."), line: lines.line(of: keyPath))
        }

        func bad(_ keyPath: [String], _ problem: ConfigValueProblem) -> ConfigError {
            .badValue(path: path, key: keyPath.joined(separator: "."), line: lines.line(of: keyPath), problem: problem)
        }
    }
}

/// Where each key is written in a TOML text, found by scanning its lines: TOMLKit gives the
/// line of a syntax error but not of a value, and an error about a value should name its line.
///
/// Only what the config file needs is understood: `[table]` headers, `key = …` and dotted
/// `a.b = …` keys, bare or quoted. A key it cannot find is reported without a line.
struct KeyLines {
    /// Each key's full path (`unlock.timeout`) with the first line it is written on.
    private var lines: [String: Int] = [:]

    init(_ text: String) {
        var table: [String] = []
        // Split on the scalar: as Characters, "\r\n" is one, unequal to "\n", and a CRLF file
        // would be one line. The `\r` left at a line's end is trimmed with the white space.
        for (index, raw) in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(Substring(raw)).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard let end = line.firstIndex(of: "]") else { continue }
                // `[table]`, or `[[array]]` (which the config has no use for, but may be written).
                table = Self.keyPath(String(line[..<end].drop { $0 == "[" }))
                record(table, index + 1)
            } else if let equals = line.firstIndex(of: "=") {
                let key = table + Self.keyPath(String(line[..<equals]))
                // `unlock.timeout = …` also names its table `unlock`.
                for length in 1...key.count { record(Array(key.prefix(length)), index + 1) }
            }
        }
    }

    /// The 1-based line where `keyPath` is written, else where its nearest enclosing table is
    /// (a key inside an inline table, `unlock = { idle = "5m" }`), if found.
    func line(of keyPath: [String]) -> Int? {
        for length in stride(from: keyPath.count, through: 1, by: -1) {
            if let line = lines[keyPath.prefix(length).joined(separator: ".")] { return line }
        }
        return nil
    }

    private mutating func record(_ keyPath: [String], _ line: Int) {
        let key = keyPath.joined(separator: ".")
        if lines[key] == nil { lines[key] = line }
    }

    /// `unlock.timeout`, `"unlock" . timeout` → `["unlock", "timeout"]`.
    private static func keyPath(_ text: String) -> [String] {
        text.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
    }
}
