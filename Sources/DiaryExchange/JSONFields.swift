import DiaryVault
import Foundation

/// Typed access to one entry object of a JSON export, with errors that name the file, the
/// entry's position and id, the field, and the line.
struct JSONFields {
    let members: [String: JSONNode]
    let file: String
    /// Counted from 1.
    let position: Int
    let line: Int
    /// The id the file gives the entry (a Day One uuid, a diary id), once known.
    var id: String?

    /// The objects of the top-level `entries` array; `expected` names the export kind.
    static func entries(of root: JSONNode, file: String, expected: String) throws -> [JSONFields] {
        guard case .object(let top) = root.value else {
            throw ExchangeError.notAnExport(file: file, expected: expected, detail: "the top level is not an object")
        }
        guard let list = top["entries"] else {
            throw ExchangeError.notAnExport(file: file, expected: expected, detail: "no 'entries' array")
        }
        guard case .array(let nodes) = list.value else {
            throw ExchangeError.notAnExport(
                file: file, expected: expected, detail: "'entries' is \(list.kind), not an array (line \(list.line))")
        }
        return try nodes.enumerated().map { n, node in
            guard case .object(let members) = node.value else {
                throw ExchangeError.invalidEntry(
                    file: file, entry: n + 1, id: nil, detail: "is \(node.kind), not an object (line \(node.line))")
            }
            return JSONFields(members: members, file: file, position: n + 1, line: node.line)
        }
    }

    func failure(_ detail: String, at node: JSONNode? = nil) -> ExchangeError {
        .invalidEntry(file: file, entry: position, id: id, detail: "\(detail) (line \((node?.line ?? line)))")
    }

    /// A field that must be present and a string.
    func string(_ key: String) throws -> String {
        guard let node = members[key] else { throw failure("'\(key)' is missing") }
        guard case .string(let s) = node.value else {
            throw failure("'\(key)' is \(node.kind), not a string", at: node)
        }
        return s
    }

    /// A string field that may be absent or null.
    func optionalString(_ key: String) throws -> String? {
        guard let node = members[key] else { return nil }
        switch node.value {
        case .null: return nil
        case .string(let s): return s
        default: throw failure("'\(key)' is \(node.kind), not a string", at: node)
        }
    }

    /// A boolean field that may be absent or null.
    func optionalBool(_ key: String) throws -> Bool? {
        guard let node = members[key] else { return nil }
        switch node.value {
        case .null: return nil
        case .bool(let b): return b
        default: throw failure("'\(key)' is \(node.kind), not true or false", at: node)
        }
    }

    /// An array of strings that may be absent or null.
    func optionalStrings(_ key: String) throws -> [String]? {
        guard let node = members[key] else { return nil }
        switch node.value {
        case .null: return nil
        case .array(let items):
            return try items.map { item in
                guard case .string(let s) = item.value else {
                    throw failure("'\(key)' holds \(item.kind), not only strings", at: item)
                }
                return s
            }
        default: throw failure("'\(key)' is \(node.kind), not an array of strings", at: node)
        }
    }

    /// A required date field in one of the forms `ExchangeDates.parse` reads.
    func date(_ key: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> Date {
        guard let date = try optionalDate(key, timeZone: timeZone) else { throw failure("'\(key)' is missing") }
        return date
    }

    func optionalDate(_ key: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) throws -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = ExchangeDates.parse(text, timeZone: timeZone) else {
            throw failure("'\(key)' is not a valid date: '\(text.prefix(40))'", at: members[key])
        }
        return date
    }
}
