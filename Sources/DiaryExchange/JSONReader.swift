import DiaryStore
import DiaryVault
import Foundation

/// A parsed JSON value that remembers the line it started on, so an error can point there.
struct JSONNode: Sendable {
    indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([String: JSONNode])
    }

    let value: Value
    let line: Int

    /// What the value is, for "expected a string, found a number" messages.
    var kind: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A strict JSON parser (RFC 8259) over UTF-8 bytes that reports the line of every error.
///
/// Foundation's JSONSerialization neither keeps line numbers for values nor tells a boolean
/// from the number 1 on Linux; an importer needs both to name the bad entry. Nesting is capped
/// so a crafted file cannot exhaust the stack, and duplicate keys are refused rather than
/// silently choosing one. The bytes are all in memory (`parse`) or come a chunk at a time from
/// a `JSONChunks` (`init(chunks:)`): no token is ever sliced out of the buffer, so one may
/// straddle two chunks.
struct JSONReader {
    struct Failure: Error {
        let line: Int
        let detail: String
    }

    static let maximumDepth = 256

    private var bytes: [UInt8]
    private var position = 0
    private(set) var line = 1
    /// Where the bytes after `bytes` come from; nil when `bytes` is the whole document.
    private let chunks: JSONChunks?

    /// Parses one JSON document; the bytes must already be valid UTF-8.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONNode {
        var reader = JSONReader(bytes: bytes)
        reader.skipWhitespace()
        let node = try reader.value(depth: 0)
        reader.skipWhitespace()
        try reader.requireEnd()
        return node
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        self.chunks = nil
    }

    /// A reader of the bytes `chunks` gives, one chunk at a time.
    init(chunks: JSONChunks) {
        self.bytes = []
        self.chunks = chunks
    }

    func failure(_ detail: String) -> Failure { Failure(line: line, detail: detail) }

    /// The byte at the read position, nil at the end of the document (or where `chunks` stopped).
    var current: UInt8? {
        mutating get {
            if position < bytes.count { return bytes[position] }
            guard let chunks, let next = chunks.next() else { return nil }
            bytes = next
            position = 0
            return bytes[0]
        }
    }

    /// Moves past the current byte.
    mutating func advance() { position += 1 }

    /// Throws unless the document ends here.
    mutating func requireEnd() throws(Failure) {
        if current != nil { throw failure("unexpected text after the end of the document") }
    }

    mutating func skipWhitespace() {
        while let b = current, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
            if b == 0x0A { line += 1 }
            position += 1
        }
    }

    mutating func expect(_ literal: String) throws(Failure) {
        for b in literal.utf8 {
            guard current == b else { throw failure("unexpected character; expected '\(literal)'") }
            position += 1
        }
    }

    mutating func value(depth: Int) throws(Failure) -> JSONNode {
        guard depth < Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
        let start = line
        switch current {
        case nil: throw failure("unexpected end of the document")
        case UInt8(ascii: "{"): return JSONNode(value: try object(depth: depth), line: start)
        case UInt8(ascii: "["): return JSONNode(value: try array(depth: depth), line: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), line: start)
        case UInt8(ascii: "t"): try expect("true"); return JSONNode(value: .bool(true), line: start)
        case UInt8(ascii: "f"): try expect("false"); return JSONNode(value: .bool(false), line: start)
        case UInt8(ascii: "n"): try expect("null"); return JSONNode(value: .null, line: start)
        case let b? where b == UInt8(ascii: "-") || (0x30...0x39).contains(b):
            return JSONNode(value: .number(try number()), line: start)
        default: throw failure("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONNode.Value {
        position += 1
        var members: [String: JSONNode] = [:]
        // An exported entry has about ten members: grown from empty, the table was rebuilt
        // four times per entry.
        members.reserveCapacity(12)
        skipWhitespace()
        if current == UInt8(ascii: "}") { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted key") }
            let key = try string()
            if members[key] != nil { throw failure("duplicate key '\(key)'") }
            skipWhitespace()
            try expect(":")
            skipWhitespace()
            members[key] = try value(depth: depth + 1)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw failure("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONNode.Value {
        position += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func number() throws(Failure) -> Double {
        // Copied as it is read: the number may straddle two chunks.
        var taken: [UInt8] = []
        func take(_ r: inout JSONReader) {
            taken.append(r.current!)
            r.position += 1
        }
        if current == UInt8(ascii: "-") { take(&self) }
        func digits(_ r: inout JSONReader) -> Int {
            var n = 0
            while let b = r.current, (0x30...0x39).contains(b) { take(&r); n += 1 }
            return n
        }
        if current == UInt8(ascii: "0") { take(&self) } else if digits(&self) == 0 { throw failure("invalid number") }
        if current == UInt8(ascii: ".") {
            take(&self)
            if digits(&self) == 0 { throw failure("invalid number") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            take(&self)
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { take(&self) }
            if digits(&self) == 0 { throw failure("invalid number") }
        }
        let text = String(decoding: taken, as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return value
    }

    mutating func string() throws(Failure) -> String {
        position += 1
        var out: [UInt8] = []
        while true {
            // The bytes up to the next quote, backslash or control byte in this buffer, at once.
            let run = position
            while position < bytes.count, bytes[position] != 0x22, bytes[position] != 0x5C, bytes[position] >= 0x20 {
                position += 1
            }
            // A string without escapes that ends in this buffer (most of them) is made from
            // the buffer itself, not copied into `out` first.
            if out.isEmpty, position > run, position < bytes.count, bytes[position] == 0x22 {
                position += 1
                return String(decoding: bytes[run..<position - 1], as: UTF8.self)
            }
            if position > run { out.append(contentsOf: bytes[run..<position]) }
            guard let b = current else { throw failure("unterminated string") }
            position += 1
            switch b {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"): try escape(into: &out)
            case 0x00..<0x20: throw failure("control character in a string (escape it)")
            default: out.append(b)
            }
        }
    }

    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        guard let e = current else { throw failure("unterminated string") }
        position += 1
        // A switch, not a table: a text's every line break is an escape.
        let simple: UInt8? =
            switch e {
            case UInt8(ascii: "\""): 0x22
            case UInt8(ascii: "\\"): 0x5C
            case UInt8(ascii: "/"): 0x2F
            case UInt8(ascii: "b"): 0x08
            case UInt8(ascii: "f"): 0x0C
            case UInt8(ascii: "n"): 0x0A
            case UInt8(ascii: "r"): 0x0D
            case UInt8(ascii: "t"): 0x09
            default: nil
            }
        if let simple { out.append(simple); return }
        guard e == UInt8(ascii: "u") else { throw failure("invalid escape in a string") }
        var scalar = try hex4()
        if (0xD800..<0xDC00).contains(scalar) {
            // A high surrogate must be followed by an escaped low surrogate.
            guard current == UInt8(ascii: "\\") else { throw failure("unpaired surrogate in a string") }
            position += 1
            guard current == UInt8(ascii: "u") else { throw failure("unpaired surrogate in a string") }
            position += 1
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw failure("unpaired surrogate in a string")
        }
        out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var digits: [UInt8] = []
        while digits.count < 4, let b = current {
            digits.append(b)
            position += 1
        }
        guard digits.count == 4, let v = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
        else { throw failure("invalid \\u escape in a string") }
        return v
    }
}
