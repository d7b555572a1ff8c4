import DiaryCrypto
import Foundation

/// The agent's line protocol: one JSON object per line, each carrying `"v": 1`.
///
/// Requests and replies (field names snake_case, the key as lowercase hex, times in seconds):
///
///     {"v":1,"op":"get"}     -> {"v":1,"ok":true,"key":"<hex>","generation":N,"vault":"<uuid>",
///                                "idle_remaining":S,"max_remaining":S,"path":"<vault path>"}
///     {"v":1,"op":"status"}  -> the same without "key"
///     {"v":1,"op":"set","key":"<hex>","generation":N} -> the status; the key is replaced
///     {"v":1,"op":"lock"}    -> {"v":1,"ok":true}, then the agent drops the key and exits
///     anything else          -> {"v":1,"ok":false,"error":"<lowercase message>"}
///
/// `"path"`, the vault's directory as `diary unlock` named it, is there when the agent was told
/// it (an agent started by an older diary was not, and a path too long for a line is left
/// out): `diary status` names each unlocked vault by it. A field a side does not know is
/// ignored, so old clients read new replies and new clients old ones (without a path).
///
/// `get` and `set` restart the idle timer; `status` does not. A peer of another uid gets
/// `{"v":1,"ok":false,"error":"permission denied"}` and is disconnected; a peer of our uid that
/// finds every connection slot taken gets `"error":"agent busy"` and is disconnected.
public enum AgentProtocol {
    /// The protocol version this build speaks; anything else is refused.
    public static let version = 1
    /// The longest line either side accepts, newline included. A 64-byte key is 128 hex digits,
    /// so this leaves ample room while bounding what a misbehaving peer can make us buffer.
    static let maximumLineLength = 4096
    /// The refusal sent to a peer of another uid.
    static let permissionDenied = "permission denied"
    /// The refusal sent when every connection slot is taken.
    static let busy = "agent busy"
}

/// What the agent reports about itself, without the key.
public struct AgentStatus: Equatable, Sendable, Codable {
    /// The vault whose key the agent holds.
    public var vaultID: UUID
    /// The key generation of the held key.
    public var generation: UInt32
    /// Seconds left before the idle timeout ends the session.
    public var idleRemaining: TimeInterval
    /// Seconds left before the absolute maximum lifetime ends the session.
    public var maxRemaining: TimeInterval
    /// The vault's directory, when the agent was told it (see `AgentProtocol`).
    public var vaultPath: String?

    public init(
        vaultID: UUID, generation: UInt32, idleRemaining: TimeInterval, maxRemaining: TimeInterval,
        vaultPath: String? = nil
    ) {
        self.vaultID = vaultID
        self.generation = generation
        self.idleRemaining = idleRemaining
        self.maxRemaining = maxRemaining
        self.vaultPath = vaultPath
    }

    enum CodingKeys: String, CodingKey {
        case vaultID = "vault"
        case generation
        case idleRemaining = "idle_remaining"
        case maxRemaining = "max_remaining"
        case vaultPath = "path"
    }
}

/// A parsed request.
enum AgentRequest {
    case get
    case status
    case lock
    case set(key: SecretBytes, generation: UInt32)

    /// Parses one request line (without its newline).
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws -> AgentRequest {
        let object: FlatJSONObject
        do { object = try FlatJSONObject(parsing: line) } catch {
            throw AgentError.protocolViolation("malformed request")
        }
        try checkVersion(object)
        switch try object.string("op", in: line) {
        case "get"?: return .get
        case "status"?: return .status
        case "lock"?: return .lock
        case "set"?:
            guard case .string(let range, let escaped)? = object["key"], !escaped else {
                throw AgentError.protocolViolation("set needs a hex key")
            }
            let generation = try parseGeneration(object)
            return .set(key: try Hex.decodeSecret(line, range), generation: generation)
        case nil: throw AgentError.protocolViolation("missing op")
        case let other?: throw AgentError.protocolViolation("unknown op \(other.prefix(32))")
        }
    }

    /// The line to send for this request.
    func encoded() -> OutgoingLine {
        let line = OutgoingLine()
        switch self {
        case .get: line.add("op", "get")
        case .status: line.add("op", "status")
        case .lock: line.add("op", "lock")
        case .set(let key, let generation):
            line.add("op", "set")
            line.add("generation", generation)
            line.add("key", hexOf: key)
        }
        line.finish()
        return line
    }
}

/// Checks `"v"`, shared by both directions.
func checkVersion(_ object: FlatJSONObject) throws {
    guard let version = try object.number("v") else {
        throw AgentError.protocolViolation("missing protocol version")
    }
    guard version == String(AgentProtocol.version) else {
        throw AgentError.protocolViolation("unsupported protocol version \(version.prefix(16))")
    }
}

/// `"generation"` as a `UInt32`: digits only, in range.
func parseGeneration(_ object: FlatJSONObject) throws -> UInt32 {
    guard let text = try object.number("generation"), let value = UInt32(text) else {
        throw AgentError.protocolViolation("missing or invalid generation")
    }
    return value
}

/// A parsed reply: the status fields, and the key when the request was `get`.
struct AgentReply {
    var status: AgentStatus?
    var key: SecretBytes?

    /// Parses one reply line; an `"ok": false` reply becomes `AgentError.refused`.
    static func parse(_ line: UnsafeBufferPointer<UInt8>) throws -> AgentReply {
        let object = try FlatJSONObject(parsing: line)
        try checkVersion(object)
        guard case .bool(let ok)? = object["ok"] else { throw AgentError.protocolViolation("missing ok") }
        guard ok else {
            throw AgentError.refused(try object.string("error", in: line) ?? "unspecified error")
        }
        var reply = AgentReply()
        if let vault = try object.string("vault", in: line) {
            guard let vaultID = UUID(uuidString: vault),
                let idle = try object.number("idle_remaining").flatMap(Double.init),
                let max = try object.number("max_remaining").flatMap(Double.init)
            else { throw AgentError.protocolViolation("incomplete status") }
            reply.status = AgentStatus(
                vaultID: vaultID, generation: try parseGeneration(object),
                idleRemaining: idle, maxRemaining: max, vaultPath: try object.string("path", in: line))
        }
        if case .string(let range, let escaped)? = object["key"] {
            guard !escaped else { throw AgentError.protocolViolation("key is not lowercase hex") }
            reply.key = try Hex.decodeSecret(line, range)
        }
        return reply
    }

    /// `{"v":1,"ok":true}` plus, when given, the status fields and the key.
    static func success(status: AgentStatus?, key: SecretBytes? = nil) -> OutgoingLine {
        let line = OutgoingLine()
        line.add("ok", true)
        if let key { line.add("key", hexOf: key) }
        if let status {
            line.add("generation", status.generation)
            line.add("vault", status.vaultID.uuidString.lowercased())
            line.add("idle_remaining", seconds: status.idleRemaining)
            line.add("max_remaining", seconds: status.maxRemaining)
            if let path = status.vaultPath { line.add("path", path) }
        }
        line.finish()
        return line
    }

    /// `path` when a `get` reply carrying it and a key of `keyCount` bytes fits in a line (the
    /// other fields at their longest), else nil: a reply too long would be refused.
    static func reportable(path: String?, keyCount: Int) -> String? {
        guard let path else { return nil }
        let longest = AgentStatus(
            vaultID: UUID(), generation: .max, idleRemaining: 1e12, maxRemaining: 1e12, vaultPath: path)
        let length = success(status: longest).bytes.count + ",\"key\":\"\"".utf8.count + 2 * keyCount
        return length <= AgentProtocol.maximumLineLength ? path : nil
    }

    /// `{"v":1,"ok":false,"error":message}`.
    static func failure(_ message: String) -> OutgoingLine {
        let line = OutgoingLine()
        line.add("ok", false)
        line.add("error", message)
        line.finish()
        return line
    }
}
