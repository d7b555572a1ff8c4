import DiaryVault
import Foundation

/// The few front matter keys a diary entry has, read from YAML-like `key: value` lines.
///
/// This is not a YAML parser: it reads the shapes Markdown tools write for these keys (plain
/// or quoted scalars, `[a, b]` flow lists, `- a` block lists) and refuses lines it cannot read
/// as `key: value`, naming the line, rather than guessing.
struct FrontMatter {
    var date: Date?
    /// True when `date` was written as a day alone (`2024-03-01`): a calendar day.
    var dateIsDay = false
    var tags: [String] = []
    var starred = false
    var title: String?

    init() {}

    init(lines: ArraySlice<String>, firstLine: Int, file: String, timeZone: TimeZone) throws {
        var listKey: String?
        for (offset, raw) in lines.enumerated() {
            let number = firstLine + offset
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("- ") || line == "-" {
                guard let key = listKey else {
                    throw ExchangeError.invalidFrontMatter(
                        file: file, line: number, detail: "a list item outside a list")
                }
                if key == "tags" { tags += Self.items(String(line.dropFirst())) }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else {
                throw ExchangeError.invalidFrontMatter(file: file, line: number, detail: "expected 'key: value'")
            }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            listKey = value.isEmpty ? key : nil
            switch key {
            case "date":
                guard !value.isEmpty else { continue }
                guard let parsed = ExchangeDates.parse(Self.unquoted(value), timeZone: timeZone) else {
                    throw ExchangeError.invalidFrontMatter(
                        file: file, line: number, detail: "'date' is not a valid date: '\(value.prefix(40))'")
                }
                date = parsed
                dateIsDay = Self.unquoted(value).count == 10
            case "tags", "tag":
                tags += Self.items(value)
                if listKey != nil { listKey = "tags" }
            case "starred", "star", "favorite", "favourite":
                switch Self.unquoted(value).lowercased() {
                case "true", "yes": starred = true
                case "false", "no", "": starred = false
                default:
                    throw ExchangeError.invalidFrontMatter(
                        file: file, line: number, detail: "'starred' must be true or false")
                }
            case "title":
                title = Self.unquoted(value)
            default:
                continue
            }
        }
    }

    /// The items of `[a, "b, c"]` or `a, b`; quoted items may hold commas.
    static func items(_ value: String) -> [String] {
        var inner = Substring(value.trimmingCharacters(in: .whitespaces))
        if inner.hasPrefix("[") && inner.hasSuffix("]") { inner = inner.dropFirst().dropLast() }
        var items: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for c in inner {
            if escaped { current.append(c); escaped = false; continue }
            if quote == "\"" && c == "\\" { current.append(c); escaped = true; continue }
            if let q = quote {
                if c == q { quote = nil }
                current.append(c)
            } else if c == "\"" || c == "'" {
                quote = c
                current.append(c)
            } else if c == "," {
                items.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        items.append(current)
        return items.map { unquoted($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
    }

    /// A scalar without its quotes; double-quoted ones lose their `\"` and `\\` escapes.
    static func unquoted(_ value: String) -> String {
        guard value.count >= 2, let first = value.first, first == value.last, first == "\"" || first == "'" else {
            return value
        }
        let inner = String(value.dropFirst().dropLast())
        guard first == "\"" else { return inner.replacingOccurrences(of: "''", with: "'") }
        var out = ""
        var escaped = false
        for c in inner {
            if escaped {
                out.append(c == "n" ? "\n" : c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
