import DiaryCrypto
import DiaryStore
import Foundation

/// A capture device enrolled in the vault (`diary capture-key`): what it is called, its public
/// key, the inbox key pair its items are sealed to, and which of its items were taken in.
///
/// Stored as an entry object (kind 1) whose plaintext is version 4 (docs/FORMAT.md §7.7), so
/// backup, restore, verify, rekey and sync carry it as they carry entries and templates; its
/// index row has flag bit 3, and every enumeration of entries skips it.
public struct CaptureDeviceRecord: Equatable, Sendable {
    /// The device id, also the id of the object that stores the record.
    public let id: UUID
    public let name: String
    public let enrolled: Date
    /// When the device was revoked; nil while it may still add entries.
    public var revoked: Date?
    /// The device's static X25519 public key (32 bytes): an item authenticates as this device's.
    public let devicePublicKey: [UInt8]
    /// The X25519 secret key items of this device are sealed to (32 bytes, per device).
    public let inboxSecretKey: SecretBytes
    /// The counters of the items taken in: each is taken in at most once.
    public var counters: CaptureCounterSet

    public init(
        id: UUID, name: String, enrolled: Date, revoked: Date? = nil, devicePublicKey: [UInt8],
        inboxSecretKey: SecretBytes, counters: CaptureCounterSet = CaptureCounterSet()
    ) {
        precondition(devicePublicKey.count == 32 && inboxSecretKey.count == 32, "X25519 key lengths")
        self.id = id
        self.name = name
        self.enrolled = enrolled
        self.revoked = revoked
        self.devicePublicKey = devicePublicKey
        self.inboxSecretKey = inboxSecretKey
        self.counters = counters
    }

    /// True when both are the same enrolment (everything but the counters and the revocation
    /// agree): only such copies merge.
    public func isSameEnrolment(as other: CaptureDeviceRecord) -> Bool {
        id == other.id && name == other.name && enrolled == other.enrolled
            && devicePublicKey == other.devicePublicKey && inboxSecretKey.constantTimeEquals(other.inboxSecretKey)
    }

    /// The record two machines' copies of one device settle on (a sync conflict): every counter
    /// either took in, and the earliest revocation. Deterministic and order-independent, so every
    /// machine reaches the same bytes; nil when the copies are not the same enrolment, or when
    /// their counters together need more intervals than a record may store (only a stolen
    /// credential gets there: the conflict is then a person's to settle, and the entry ids still
    /// make every item taken in on either side a replay).
    public static func merged(_ copies: [CaptureDeviceRecord]) -> CaptureDeviceRecord? {
        guard var result = copies.first, copies.allSatisfy({ $0.isSameEnrolment(as: result) }) else { return nil }
        for other in copies.dropFirst() {
            result.counters = result.counters.union(other.counters)
            switch (result.revoked, other.revoked) {
            case (nil, let later?): result.revoked = later
            case (let a?, let b?): result.revoked = min(a, b)
            default: break
            }
        }
        return result.counters.isStorable ? result : nil
    }

    /// The record as an `Entry` to seal, index and sync: no text, dated at the enrolment.
    public var entry: Entry {
        Entry(
            id: id, text: "", date: enrolled, created: enrolled, modified: enrolled, starred: false, tags: [],
            captureDevice: self)
    }
}

/// The rules a capture device's name follows, shared by enrolment and the reader.
public enum CaptureDeviceName {
    public static let maximumBytes = 64

    /// True when `name` can name a device: 1 … 64 UTF-8 bytes, no control character, no white
    /// space at either end (so it prints on one line and `capture:NAME` reads back as written).
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes else { return false }
        let scalars = name.unicodeScalars
        guard let first = scalars.first, let last = scalars.last,
            !CharacterSet.whitespacesAndNewlines.contains(first), !CharacterSet.whitespacesAndNewlines.contains(last)
        else { return false }
        return !scalars.contains { CharacterSet.controlCharacters.contains($0) }
    }

    /// What two names that are the same device have in common: the name with letter case folded.
    public static func key(_ name: String) -> String { name.folding(options: [.caseInsensitive], locale: nil) }
}

/// The version-4 entry plaintext (docs/FORMAT.md §7.7): `version u8 = 4 | device id 16 |
/// name str16 | enrolled i64 | revoked i64 (0 = not) | device public key 32 | inbox secret key 32 |
/// interval count u32 | intervals (first u64 | last u64)…`.
enum CaptureDeviceCodec {
    static let version: UInt8 = 4
    /// In an index row's flags: the row is a capture device's (docs/FORMAT.md §7).
    static let rowFlag: UInt8 = 8

    static func encode(_ record: CaptureDeviceRecord) -> [UInt8] {
        var w = ByteWriter(capacity: 140 + record.name.utf8.count + 16 * record.counters.intervals.count)
        w.u8(version)
        w.uuid(record.id)
        w.string16(record.name)
        w.i64(record.enrolled.millisecondsSince1970)
        w.i64(record.revoked?.millisecondsSince1970 ?? 0)
        w.append(record.devicePublicKey)
        w.append(record.inboxSecretKey)
        record.counters.write(to: &w)
        return w.bytes
    }

    /// Decodes what follows the version byte; the device id must be the object's id.
    static func decode(_ r: inout ByteReader, bytes: [UInt8], id: UUID) throws -> Entry {
        guard try r.uuid() == id else { throw FormatError.invalidField("device id") }
        let name = try r.string16()
        guard CaptureDeviceName.isValid(name) else { throw FormatError.invalidField("device name") }
        let enrolled = try r.time()
        let revokedMilliseconds = try r.i64()
        var revoked: Date?
        if revokedMilliseconds != 0 {
            guard Date.storableMilliseconds.contains(revokedMilliseconds) else {
                throw FormatError.invalidField("time")
            }
            revoked = Date(millisecondsSince1970: revokedMilliseconds)
        }
        let devicePublicKey = try r.take(32)
        let start = r.offset
        try r.skip(32)
        let inboxSecretKey = try SecretBytes(count: 32) { buffer in
            bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + 32])) }
        }
        let counters = try CaptureCounterSet.read(&r)
        try r.expectEnd()
        return CaptureDeviceRecord(
            id: id, name: name, enrolled: enrolled, revoked: revoked, devicePublicKey: devicePublicKey,
            inboxSecretKey: inboxSecretKey, counters: counters
        ).entry
    }
}
