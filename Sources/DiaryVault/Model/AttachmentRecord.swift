import DiaryCrypto
import Foundation

/// What a sealed entry holds about one attached file (docs/FORMAT.md §7.6): its name and
/// media type, and what it takes to find, check and open its sealed object.
///
/// The object's key lives only here, inside the sealed entry: whoever cannot open the entry
/// cannot open the attachment, and rotating the vault key re-seals it with the entry.
public struct AttachmentRecord: Equatable, Sendable {
    /// The id the sealed object is stored under (its own random UUID, not the entry's).
    public let objectID: UUID
    /// The `crypto_secretstream_xchacha20poly1305` key of the object (32 bytes).
    public let streamKey: SecretBytes
    /// Plaintext bytes (1 … `AttachmentLimits.maximumLength`).
    public let length: UInt64
    /// BLAKE2b-256 of the stored object, every byte as stored.
    public let storedHash: [UInt8]
    /// The vault key generation current when the object was sealed: it keys `dedupHash`.
    public let generation: UInt32
    /// BLAKE2b-256 of the plaintext keyed by that generation's dedup key; all zeros when the
    /// file was attached with dedup turned off (it then matches nothing).
    public let dedupHash: [UInt8]
    public let added: Date
    /// The file's base name (`AttachmentName.isValid`), unique within the entry up to letter case.
    public var name: String
    /// `type/subtype`, lowercase ASCII.
    public var mediaType: String

    public init(
        objectID: UUID, streamKey: SecretBytes, length: UInt64, storedHash: [UInt8], generation: UInt32,
        dedupHash: [UInt8], added: Date, name: String, mediaType: String
    ) {
        self.objectID = objectID
        self.streamKey = streamKey
        self.length = length
        self.storedHash = storedHash
        self.generation = generation
        self.dedupHash = dedupHash
        self.added = added
        self.name = name
        self.mediaType = mediaType
    }

    /// True when the file was attached with dedup on (its hash can match another file's).
    public var isDedupable: Bool { dedupHash.contains { $0 != 0 } }
}

/// What an index row says about one attachment (docs/FORMAT.md §7): enough for `list` and
/// for finding an identical file already stored, never the key.
public struct AttachmentSummary: Equatable, Sendable {
    public let objectID: UUID
    public let length: UInt64
    public let dedupHash: [UInt8]
    public let generation: UInt32
    public let name: String

    public init(objectID: UUID, length: UInt64, dedupHash: [UInt8], generation: UInt32, name: String) {
        self.objectID = objectID
        self.length = length
        self.dedupHash = dedupHash
        self.generation = generation
        self.name = name
    }

    public init(_ record: AttachmentRecord) {
        self.init(
            objectID: record.objectID, length: record.length, dedupHash: record.dedupHash,
            generation: record.generation, name: record.name)
    }
}

/// The limits of the attachment format (docs/FORMAT.md §7.6, §9).
public enum AttachmentLimits {
    /// The largest file: 4 GiB.
    public static let maximumLength: UInt64 = 4 << 30
    /// Plaintext bytes per stream chunk (the last chunk may be shorter).
    public static let chunkLength = 65536
    /// At most this many attachments per entry.
    public static let maximumPerEntry = 255
    /// A name is at most this many UTF-8 bytes.
    public static let maximumNameBytes = 255
    /// A media type is at most this many bytes.
    public static let maximumMediaTypeBytes = 127
}

/// The rules an attachment's name follows, shared by every writer and the reader.
public enum AttachmentName {
    /// True when `name` can name an attachment: a base name (no `/`, not `.` or `..`), 1…255
    /// UTF-8 bytes, no white space at either end, no control or hidden character.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= AttachmentLimits.maximumNameBytes else { return false }
        guard name != ".", name != "..", !name.contains("/") else { return false }
        let scalars = name.unicodeScalars
        if let first = scalars.first, let last = scalars.last,
            CharacterSet.whitespacesAndNewlines.contains(first) || CharacterSet.whitespacesAndNewlines.contains(last)
        {
            return false
        }
        return !scalars.contains(where: TemplateName.isHidden)
    }

    /// What two names that are one attachment of an entry have in common: letter case folded.
    public static func key(_ name: String) -> String {
        name.folding(options: [.caseInsensitive], locale: nil)
    }

    /// True when `type` is a well-formed lowercase `type/subtype` of at most 127 bytes.
    public static func isValidMediaType(_ type: String) -> Bool {
        guard type.utf8.count <= AttachmentLimits.maximumMediaTypeBytes else { return false }
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789!#$&^_.+-")
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(allowed.contains) }
    }
}
