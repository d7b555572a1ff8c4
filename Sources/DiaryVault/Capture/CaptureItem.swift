import DiaryCrypto
import DiaryStore
import Foundation

/// What a capture device sends: the entry, before it is sealed (docs/FORMAT.md §13.1).
/// Plaintext: `version u8 = 1 | date i64 (as an entry's, §6) | captured i64 | flags u8 (bit 0:
/// starred) | tag count u8 | tags str16… | text str32`.
public struct CapturedEntry: Equatable, Sendable {
    public var text: String
    /// The entry date; for a calendar day (`isCalendarDay`), local midnight of that day.
    public var date: Date
    public var isCalendarDay: Bool
    /// When the device sealed it: the entry's created and modified time.
    public var captured: Date
    public var starred: Bool
    public var tags: [String]

    public init(text: String, date: Date, isCalendarDay: Bool = false, captured: Date, starred: Bool, tags: [String]) {
        (self.text, self.date, self.isCalendarDay) = (text, date, isCalendarDay)
        (self.captured, self.starred, self.tags) = (captured, starred, tags)
    }

    static let version: UInt8 = 1

    func encoded() -> [UInt8] {
        var w = ByteWriter(capacity: text.utf8.count + 64 + tags.reduce(0) { $0 + $1.utf8.count + 2 })
        w.u8(Self.version)
        w.i64(CalendarDay.storedMilliseconds(of: date, isDay: isCalendarDay))
        w.i64(captured.millisecondsSince1970)
        w.u8(starred ? 1 : 0)
        w.u8(UInt8(tags.count))
        for tag in tags { w.string16(tag) }
        w.string32(text)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> CapturedEntry {
        var r = ByteReader(bytes)
        let version = try r.u8()
        guard version == Self.version else { throw FormatError.unsupportedVersion(Int(version)) }
        let stored = try r.time().millisecondsSince1970
        let captured = try r.time()
        let flags = try r.u8()
        guard flags & ~1 == 0 else { throw FormatError.invalidField("flags") }
        let count = Int(try r.u8())
        var tags: [String] = []
        for _ in 0..<count { tags.append(try r.string16()) }
        let text = try r.string32(limit: Vault.maximumTextBytes)
        try r.expectEnd()
        return CapturedEntry(
            text: text, date: CalendarDay.date(storedMilliseconds: stored),
            isCalendarDay: CalendarDay.isDay(storedMilliseconds: stored), captured: captured, starred: flags == 1,
            tags: tags)
    }
}

/// A sealed captured item, as stored in an inbox (docs/FORMAT.md §13.1):
/// `"DIARYCAP" | version u8 = 1 | vault id 16 | device id 16 | counter u64 | e_pub 32 | nonce 24 |
/// ciphertext` where the ciphertext is `CaptureSeal`'s of the padded plaintext (§6's padding)
/// and its associated data every byte before the nonce.
public struct CaptureItem: Sendable, Equatable {
    static let magic = Array("DIARYCAP".utf8)
    static let version: UInt8 = 1
    /// The bytes before `e_pub`.
    static let prefixLength = 8 + 1 + 16 + 16 + 8
    /// The largest item: a maximal entry with 255 maximal tags fits (`Vault.maximumTextBytes`
    /// plus 70 000), padded, with the header and the tag. A larger file is refused unread.
    public static let maximumBytes =
        prefixLength + 32 + XChaCha20Poly1305.nonceByteCount + LengthPadding.paddedSize(for: (8 << 20) + 70_000)
        + XChaCha20Poly1305.tagByteCount
    /// A file being written starts with this (the store's own temporary prefix).
    public static let temporaryPrefix = ".tmp-"
    /// The inbox beside a vault's store or in a folder remote, and where refused items go in it.
    public static let inboxDirectoryName = InboxLayout.directoryName
    public static let rejectedDirectoryName = InboxLayout.rejectedName

    /// True for the name `fileName` gives an item (nothing else in an inbox is an item).
    public static func isFileName(_ name: String) -> Bool { InboxLayout.isItemName(name) }

    public let vaultID: UUID
    public let deviceID: UUID
    public let counter: UInt64
    /// Every byte of the item as stored.
    public let bytes: [UInt8]

    /// Reads the cleartext header of `bytes`, refusing what is not an item of this format.
    public init(_ bytes: [UInt8]) throws(CaptureItemDamage) {
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge }
        let minimum = Self.prefixLength + 32 + XChaCha20Poly1305.nonceByteCount + LengthPadding.minimumBucket + 16
        guard bytes.count >= Self.prefixLength, Array(bytes[0..<8]) == Self.magic else { throw .notAnItem }
        guard bytes[8] == Self.version else { throw .unsupportedVersion(Int(bytes[8])) }
        guard bytes.count >= minimum else { throw .truncated }
        vaultID = UUID(bytes: Array(bytes[9..<25]))
        deviceID = UUID(bytes: Array(bytes[25..<41]))
        counter = bytes[41..<49].reduce(0) { $0 << 8 | UInt64($1) }
        // Counters are 1 … 2^62 (docs/FORMAT.md §13.1): no device numbers further.
        guard counter != 0, counter <= CaptureCounterSet.maximumCounter else { throw .notAnItem }
        self.bytes = bytes
    }

    /// Seals `entry` as item `credential.counter` of the credential's device.
    public static func seal(_ entry: CapturedEntry, credential: CaptureCredential) throws -> [UInt8] {
        precondition(credential.counter != 0, "advance the credential before sealing")
        var prefix = ByteWriter(capacity: prefixLength)
        prefix.append(magic)
        prefix.u8(version)
        prefix.uuid(credential.vaultID)
        prefix.uuid(credential.deviceID)
        prefix.u64(credential.counter)
        var plaintext = entry.encoded()
        defer { secureZero(&plaintext) }
        var padded = try LengthPadding.pad(plaintext)
        defer { secureZero(&padded) }
        let sealed = try CaptureSeal.seal(
            padded, device: credential.device, inboxPublicKey: credential.inboxPublicKey, prefix: prefix.bytes)
        return prefix.bytes + sealed
    }

    /// Opens the item with its device's record: the plaintext entry, checked as `decode` checks it.
    func open(with record: CaptureDeviceRecord) throws -> CapturedEntry {
        let inbox = try X25519KeyPair(secretKey: record.inboxSecretKey)
        var padded = try CaptureSeal.open(
            Array(bytes[Self.prefixLength...]), prefix: Array(bytes[0..<Self.prefixLength]), inbox: inbox,
            devicePublicKey: record.devicePublicKey)
        defer { secureZero(&padded) }
        var plaintext = try LengthPadding.unpad(padded)
        defer { secureZero(&plaintext) }
        return try CapturedEntry.decode(plaintext)
    }

    /// `<device id, 32 hex>-<counter, 20 digits>.dcap` (`InboxLayout`): one name per item, so a
    /// device never overwrites its own items.
    public static func fileName(deviceID: UUID, counter: UInt64) -> String {
        InboxLayout.itemName(deviceHex: deviceID.compactHex, counter: counter)
    }
}

/// Why an item's cleartext header is refused (before any key is used).
public enum CaptureItemDamage: Error, Equatable, Sendable {
    case tooLarge
    case truncated
    case notAnItem
    case unsupportedVersion(Int)
}

extension CapturedEntry {
    /// A new captured entry, checked and normalised as `Vault.add` checks and normalises one
    /// (blank or oversized text, tags), captured now; the date is `add`'s (default now).
    public static func new(text: String, date: Date?, dateIsDay: Bool, starred: Bool, tags: [String]) throws
        -> CapturedEntry
    {
        try Vault.validate(text: text, tags: tags)
        let entry = Vault.newEntry(text: text, date: date, dateIsDay: dateIsDay, starred: starred, tags: tags)
        return CapturedEntry(
            text: text, date: entry.date, isCalendarDay: entry.isCalendarDay, captured: entry.created,
            starred: starred, tags: entry.tags)
    }
}
