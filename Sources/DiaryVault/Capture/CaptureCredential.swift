import DiaryCrypto
import DiaryStore
import Foundation

/// A capture device's credential (`diary capture-key create`, docs/FORMAT.md §13.2): which vault
/// and device it is, the vault's inbox public key for the device, the device's X25519 secret key
/// and the last counter used. It lets a machine add entries and never read them.
///
/// Text, strict: `#` comment lines first, then exactly
/// `diary capture key 1` / `vault <uuid>` / `device <uuid>` / `name <name>` / `inbox <64 hex>` /
/// `secret <64 hex>` / `counter <n>`, each ending with a newline, lowercase hex and UUIDs.
public struct CaptureCredential: Sendable {
    /// A credential file is never larger than this: checked before it is read.
    public static let maximumFileBytes = 4096
    static let firstLine = "diary capture key 1"

    public let vaultID: UUID
    public let deviceID: UUID
    public let name: String
    public let inboxPublicKey: [UInt8]
    public let device: X25519KeyPair
    /// The last counter taken (0: none yet; at most 2^62). `capture` takes `counter + 1` and
    /// writes the file back before it seals, so no two items ever share a counter.
    public var counter: UInt64

    public init(
        vaultID: UUID, deviceID: UUID, name: String, inboxPublicKey: [UInt8], device: X25519KeyPair,
        counter: UInt64 = 0
    ) {
        precondition(inboxPublicKey.count == X25519KeyPair.keyByteCount, "inbox key length")
        (self.vaultID, self.deviceID, self.name) = (vaultID, deviceID, name)
        (self.inboxPublicKey, self.device, self.counter) = (inboxPublicKey, device, counter)
    }

    /// The credential with its counter one higher: the counter the next item takes.
    public func advanced() throws(CaptureError) -> CaptureCredential {
        guard counter < CaptureCounterSet.maximumCounter else { throw .counterExhausted }
        var next = self
        next.counter += 1
        return next
    }

    /// The file's bytes. The secret key is in them as hex: the caller zeroes them once written.
    public func encoded() -> [UInt8] {
        var text =
            Array(
                """
                # diary capture key for "\(name)": `diary capture --key FILE` adds entries to one vault with it;
                # it cannot read them. Keep it private; `diary capture-key revoke \(name)` ends it.
                \(Self.firstLine)
                vault \(vaultID.uuidString.lowercased())
                device \(deviceID.uuidString.lowercased())
                name \(name)
                inbox \(Hex.encode(inboxPublicKey))

                """.utf8) + Array("secret ".utf8)
        device.secretKey.withUnsafeBytes { raw in
            for byte in raw { text.append(contentsOf: Hex.digits(of: byte)) }
        }
        text.append(contentsOf: Array("\ncounter \(counter)\n".utf8))
        return text
    }

    /// Parses a credential file, refusing anything `encoded` could not have written.
    public static func parse(_ bytes: [UInt8]) throws(CaptureError) -> CaptureCredential {
        guard bytes.count <= maximumFileBytes else { throw .invalidCredential("larger than \(maximumFileBytes) bytes") }
        guard bytes.last == UInt8(ascii: "\n") else { throw .invalidCredential("no newline at the end") }
        var lines = bytes.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        while let first = lines.first, first.first == UInt8(ascii: "#") { lines.removeFirst() }
        guard let header = lines.first, let headerText = String(validating: header, as: UTF8.self) else {
            throw .invalidCredential("no first line")
        }
        if headerText != firstLine {
            if headerText.hasPrefix("diary capture key "), let v = Int(headerText.dropFirst(18)) {
                throw .unsupportedCredentialVersion(v)
            }
            throw .invalidCredential("first line")
        }
        guard lines.count == 7 else { throw .invalidCredential("expected 7 lines after the comments") }
        let vault = try uuid(try field(lines[1], "vault"), "vault")
        let device = try uuid(try field(lines[2], "device"), "device")
        let name = try field(lines[3], "name")
        guard CaptureDeviceName.isValid(name) else { throw .invalidCredential("name") }
        guard let inbox = Hex.decode(try field(lines[4], "inbox")), inbox.count == 32 else {
            throw .invalidCredential("inbox")
        }
        let secret = try secretKey(lines[5])
        let counter = try field(lines[6], "counter")
        guard let value = UInt64(counter), String(value) == counter, value <= CaptureCounterSet.maximumCounter else {
            throw .invalidCredential("counter")
        }
        let pair: X25519KeyPair
        do { pair = try X25519KeyPair(secretKey: secret) } catch { throw .invalidCredential("secret") }
        return CaptureCredential(
            vaultID: vault, deviceID: device, name: name, inboxPublicKey: inbox, device: pair, counter: value)
    }

    private static func field(_ line: ArraySlice<UInt8>, _ key: String) throws(CaptureError) -> String {
        guard let text = String(validating: line, as: UTF8.self), text.hasPrefix(key + " ") else {
            throw .invalidCredential(key)
        }
        return String(text.dropFirst(key.count + 1))
    }

    private static func uuid(_ text: String, _ key: String) throws(CaptureError) -> UUID {
        guard let id = UUID(uuidString: text), id.uuidString.lowercased() == text else { throw .invalidCredential(key) }
        return id
    }

    /// The secret key, decoded from hex straight into guarded memory.
    private static func secretKey(_ line: ArraySlice<UInt8>) throws(CaptureError) -> SecretBytes {
        let prefix = Array("secret ".utf8)
        guard line.count == prefix.count + 64, Array(line.prefix(prefix.count)) == prefix else {
            throw .invalidCredential("secret")
        }
        let hex = line.dropFirst(prefix.count)
        guard hex.allSatisfy({ Hex.value(of: $0) != nil }) else { throw .invalidCredential("secret") }
        do {
            return try SecretBytes(count: 32) { out in
                var at = hex.startIndex
                for i in 0..<32 {
                    out[i] = Hex.value(of: hex[at])! << 4 | Hex.value(of: hex[at + 1])!
                    at += 2
                }
            }
        } catch {
            throw .invalidCredential("secret")
        }
    }
}

/// Lowercase hexadecimal, strict: what the credential file uses.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String { String(decoding: bytes.flatMap(digits(of:)), as: UTF8.self) }

    static func digits(of byte: UInt8) -> [UInt8] {
        let table = Array("0123456789abcdef".utf8)
        return [table[Int(byte >> 4)], table[Int(byte & 15)]]
    }

    static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    static func decode(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(of: digits[i]), let low = value(of: digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
