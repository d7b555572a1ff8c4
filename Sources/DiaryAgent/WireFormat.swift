import DiaryCrypto
import Foundation

/// One outgoing protocol line, built by hand in a byte buffer that is zeroed when done.
///
/// A line may carry the key as hex. Building it with `JSONEncoder` would leave copies of that hex
/// in `String` storage we cannot wipe; here the only copy is this buffer, which never reallocates
/// behind our back (growth copies explicitly and zeroes the old storage) and is zeroed on `deinit`.
final class OutgoingLine {
    private(set) var bytes: [UInt8] = []

    /// Starts `{"v":<version>`.
    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
        appendRaw("{\"v\":\(AgentProtocol.version)")
    }

    deinit { secureZero(&bytes) }

    func add(_ name: String, _ value: Bool) { appendName(name); appendRaw(value ? "true" : "false") }
    func add(_ name: String, _ value: UInt32) { appendName(name); appendRaw(String(value)) }

    /// Seconds, rounded to milliseconds and never negative.
    func add(_ name: String, seconds: Double) {
        appendName(name)
        let rounded = (max(0, seconds) * 1000).rounded() / 1000
        appendRaw(rounded.isFinite ? "\(rounded)" : "0")
    }

    /// A JSON string; non-secret text only (the escaping goes through ordinary `String`s).
    func add(_ name: String, _ value: String) {
        appendName(name)
        appendRaw(Self.quoted(value))
    }

    /// The secret as a lowercase hex string, written straight from guarded memory.
    func add(_ name: String, hexOf secret: SecretBytes) {
        appendName(name)
        reserve(secret.count * 2 + 2)
        bytes.append(UInt8(ascii: "\""))
        secret.withUnsafeBytes { raw in
            for byte in raw {
                bytes.append(Hex.digits[Int(byte >> 4)])
                bytes.append(Hex.digits[Int(byte & 0x0F)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Closes the object and ends the line.
    func finish() { appendRaw("}\n") }

    private func appendName(_ name: String) { appendRaw(",\(Self.quoted(name)):") }

    private func appendRaw(_ text: String) {
        let utf8 = text.utf8
        reserve(utf8.count)
        bytes.append(contentsOf: utf8)
    }

    private func reserve(_ extra: Int) {
        guard bytes.count + extra > bytes.capacity else { return }
        var grown: [UInt8] = []
        grown.reserveCapacity(max(bytes.capacity * 2, bytes.count + extra))
        grown.append(contentsOf: bytes)
        secureZero(&bytes)
        bytes = grown
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Lowercase hex, encoded and decoded without ordinary `String`s in between.
enum Hex {
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Decodes lowercase hex `text[range]` straight into guarded memory.
    static func decodeSecret(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws -> SecretBytes {
        guard !range.isEmpty, range.count % 2 == 0 else {
            throw AgentError.protocolViolation("key is not an even number of hex digits")
        }
        // Validate before allocating: the initializer below must not throw (a throwing
        // SecretBytes initializer currently frees its memory twice).
        guard range.allSatisfy({ value(of: text[$0]) != nil }) else {
            throw AgentError.protocolViolation("key is not lowercase hex")
        }
        return try SecretBytes(count: range.count / 2) { out in
            var index = range.lowerBound
            for position in 0..<out.count {
                out[position] = value(of: text[index])! << 4 | value(of: text[index + 1])!
                index += 2
            }
        }
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
