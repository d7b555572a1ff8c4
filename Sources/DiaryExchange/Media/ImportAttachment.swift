import Foundation

/// A file an imported entry brings along: where its bytes are and what to call it.
///
/// Importers only find these; the caller streams each one into the vault (a zip member through
/// `ImportArchive`, a file by opening it as any attached file).
public struct ImportAttachment: Equatable, Sendable {
    public enum Location: Equatable, Sendable {
        /// A member of a zip archive, by its path in the archive.
        case zipMember(archive: URL, path: String)
        /// A file on disk, inside the folder being imported (symbolic links resolved).
        case file(URL)
    }

    public var location: Location
    /// A valid attachment name (`AttachmentName.isValid`), unique within the entry up to case.
    public var name: String
    /// From the name's extension (`MediaType.sniff` with no content): the caller may sniff the
    /// first bytes again when it reads them.
    public var mediaType: String
    /// When it was attached, for a file of diary's own export (else nil: when imported).
    public var added: Date?
    /// The length the export gives (checked when the file is read); nil when none does.
    public var length: UInt64?
    /// A file of diary's own export: its media type is kept and its bytes stored exactly as
    /// they are (no sniffing, no metadata removed), so the export comes back identical.
    public var isVerbatim: Bool

    public init(
        location: Location, name: String, mediaType: String, added: Date? = nil, length: UInt64? = nil,
        isVerbatim: Bool = false
    ) {
        self.location = location
        self.name = name
        self.mediaType = mediaType
        self.added = added
        self.length = length
        self.isVerbatim = isVerbatim
    }
}

/// A zip archive opened for reading its members one at a time, in flat memory.
///
/// Only the end record, the central directory and the local headers are read when it opens
/// (each checked as `diary import` checks a Day One zip); a member's data only when it is read.
public struct ImportArchive {
    private let archive: ZipArchive
    public let url: URL

    public init(url: URL) throws(ExchangeError) {
        self.url = url
        do {
            archive = try ZipArchive(file: url)
        } catch {
            throw ExchangeError.malformedArchive(file: url.path, detail: error.detail)
        }
    }

    /// The member's length once inflated, as the archive claims it (checked while reading).
    public func size(of path: String) -> Int? { archive.member(at: path)?.size }

    /// A pull-style reader of the member at `path`: `read(&buffer)` writes up to `buffer.count`
    /// bytes at the start of `buffer` and returns how many, 0 at the end (after the member's
    /// size and CRC-32 were checked). What it yielded before it throws must be discarded.
    public func reader(for path: String) throws(ExchangeError) -> ImportArchiveReader {
        guard let member = archive.member(at: path) else {
            throw ExchangeError.malformedArchive(file: url.path, detail: "no member \(path)")
        }
        do {
            return ImportArchiveReader(reader: try ZipMemberReader(archive: archive, member: member), file: url.path)
        } catch {
            throw ExchangeError.malformedArchive(file: url.path, detail: error.detail)
        }
    }
}

/// Reads one zip member; see `ImportArchive.reader(for:)`.
public struct ImportArchiveReader {
    fileprivate var reader: ZipMemberReader
    fileprivate let file: String

    public mutating func read(_ buffer: inout [UInt8]) throws(ExchangeError) -> Int {
        do {
            return try reader.read(&buffer)
        } catch {
            throw ExchangeError.malformedArchive(file: file, detail: error.detail)
        }
    }
}
