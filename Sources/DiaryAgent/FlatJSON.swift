import Foundation

/// A strict parser for the only shape the agent protocol uses: one flat JSON object whose values
/// are strings, numbers, booleans or null.
///
/// Strings are returned as byte ranges into the caller's buffer, not as `String`s, so a hex key in
/// a `set` request or a `get` reply can be decoded straight into guarded memory without an
/// unwipeable copy. Anything else — nesting, duplicate names, trailing bytes — is refused: the
/// agent distrusts what it reads.
struct FlatJSONObject {
    enum Value: Equatable {
        /// The bytes between the quotes; `escaped` when they contain a backslash escape.
        case string(Range<Int>, escaped: Bool)
        case number(String)
        case bool(Bool)
        case null
    }

    private(set) var fields: [String: Value] = [:]

    /// Parses `text`, which must hold exactly one object (surrounding blanks allowed).
    init(parsing text: UnsafeBufferPointer<UInt8>) throws {
        var scanner = Scanner(text: text)
        scanner.skipBlanks()
        try scanner.expect(UInt8(ascii: "{"))
        scanner.skipBlanks()
        if scanner.peek() == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            while true {
                scanner.skipBlanks()
                let (nameRange, nameEscaped) = try scanner.string()
                let name = try Self.decode(text, nameRange, escaped: nameEscaped)
                scanner.skipBlanks()
                try scanner.expect(UInt8(ascii: ":"))
                scanner.skipBlanks()
                let value = try scanner.value()
                guard fields.updateValue(value, forKey: name) == nil else {
                    throw AgentError.protocolViolation("duplicate field")
                }
                scanner.skipBlanks()
                if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1; continue }
                try scanner.expect(UInt8(ascii: "}"))
                break
            }
        }
        scanner.skipBlanks()
        guard scanner.index == text.count else { throw AgentError.protocolViolation("trailing bytes") }
    }

    subscript(name: String) -> Value? { fields[name] }

    /// A non-secret string field as a `String`; nil when absent, an error when not a string.
    func string(_ name: String, in text: UnsafeBufferPointer<UInt8>) throws -> String? {
        switch fields[name] {
        case nil: return nil
        case .string(let range, let escaped)?: return try Self.decode(text, range, escaped: escaped)
        default: throw AgentError.protocolViolation("field \(name) is not a string")
        }
    }

    /// A numeric field's text; nil when absent, an error when not a number.
    func number(_ name: String) throws -> String? {
        switch fields[name] {
        case nil: return nil
        case .number(let text)?: return text
        default: throw AgentError.protocolViolation("field \(name) is not a number")
        }
    }

    private static func decode(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, escaped: Bool) throws -> String
    {
        let slice = UnsafeBufferPointer(rebasing: text[range])
        if !escaped {
            guard let plain = String(validating: slice, as: UTF8.self) else {
                throw AgentError.protocolViolation("string is not valid utf-8")
            }
            return plain
        }
        // Escapes are rare (error messages only): let the standard decoder handle them.
        let quoted = Data(UnsafeBufferPointer(rebasing: text[(range.lowerBound - 1)..<(range.upperBound + 1)]))
        do { return try JSONDecoder().decode(String.self, from: quoted) } catch {
            throw AgentError.protocolViolation("invalid string escape")
        }
    }

    private struct Scanner {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        func peek() -> UInt8? { index < text.count ? text[index] : nil }

        mutating func skipBlanks() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8) throws {
            guard peek() == byte else { throw AgentError.protocolViolation("malformed json") }
            index += 1
        }

        mutating func string() throws -> (Range<Int>, Bool) {
            try expect(UInt8(ascii: "\""))
            let start = index
            var escaped = false
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return (start..<(index - 1), escaped)
                case UInt8(ascii: "\\"):
                    escaped = true
                    index += 2
                case 0..<0x20:
                    throw AgentError.protocolViolation("control character in string")
                default:
                    index += 1
                }
            }
            throw AgentError.protocolViolation("unterminated string")
        }

        mutating func value() throws -> Value {
            guard let first = peek() else { throw AgentError.protocolViolation("malformed json") }
            switch first {
            case UInt8(ascii: "\""):
                let (range, escaped) = try string()
                return .string(range, escaped: escaped)
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                throw AgentError.protocolViolation("nested values are not supported")
            default:
                throw AgentError.protocolViolation("malformed json")
            }
        }

        private mutating func literal(_ word: String) throws {
            for byte in word.utf8 { try expect(byte) }
        }

        /// JSON's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        private mutating func number() throws -> String {
            let start = index
            if peek() == UInt8(ascii: "-") { index += 1 }
            if peek() == UInt8(ascii: "0") { index += 1 } else { try digits() }
            if peek() == UInt8(ascii: ".") { index += 1; try digits() }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                index += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
                try digits()
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text[start..<index]), as: UTF8.self)
        }

        private mutating func digits() throws {
            let start = index
            while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            guard index > start else { throw AgentError.protocolViolation("malformed number") }
        }
    }
}
