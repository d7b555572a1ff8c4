import DiaryExchange
import DiaryVault
import Foundation

/// A file the user named to attach, and the name it gets (its base name unless given).
///
/// The path is kept as the bytes the user gave (`pathBytes`): a file name need not be UTF-8,
/// and a `String` would have replaced what is not by U+FFFD, naming another file.
public struct FileToAttach: Equatable, Sendable {
    /// The path as shown in messages.
    public var path: String
    /// The path as opened.
    public var pathBytes: [UInt8]
    public var name: String?

    public init(path: String, name: String? = nil) {
        self.init(pathBytes: Array(path.utf8), name: name)
    }

    public init(pathBytes: [UInt8], name: String? = nil) {
        self.pathBytes = pathBytes
        path = String(decoding: pathBytes, as: UTF8.self)
        self.name = name
    }

    /// The attachment's name: the one given, else the path's last component; throws
    /// `AttachmentFileError.nameNotUTF8` when that is not UTF-8.
    public func attachmentName() throws -> String {
        if let name { return name }
        let last = pathBytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? []
        guard let decoded = String(validating: last, as: UTF8.self) else {
            throw AttachmentFileError.nameNotUTF8(path: path)
        }
        return decoded
    }
}

/// How files are attached: `keepMetadata` stores a JPEG byte for byte (else its EXIF, XMP,
/// IPTC, comments and whatever follows the image are removed); `dedup` lets an identical file already stored be shared.
public struct AttachOptions: Equatable, Sendable {
    public var keepMetadata: Bool
    public var dedup: Bool

    public init(keepMetadata: Bool = false, dedup: Bool = true) {
        self.keepMetadata = keepMetadata
        self.dedup = dedup
    }
}

/// Photo metadata removed from one attached file.
public struct StrippedMetadata: Equatable, Sendable {
    public let name: String
    public let report: JPEGMetadataReport
}

/// Files opened, checked and ready for one vault call (`Vault.attach` or `Vault.add`): every
/// file is opened before anything is written, so a missing, unreadable or special file is
/// refused with nothing stored.
public final class PreparedAttachments {
    /// What the vault reads; each input is read once.
    public let inputs: [AttachmentInput]
    private let readers: [AttachmentReader]

    /// After the vault call: the JPEGs whose metadata was removed, in the order given.
    public var stripped: [StrippedMetadata] {
        readers.compactMap { reader in
            guard let report = reader.strippedReport, !report.removed.isEmpty else { return nil }
            return StrippedMetadata(name: reader.name, report: report)
        }
    }

    /// Opens every file, names it, and sniffs its media type from its first bytes (by
    /// `MediaType.sniff`; the bytes are then fed to the vault first). Throws
    /// `AttachmentFileError` (naming the path) or `VaultError.duplicateAttachment` for two
    /// files of one name.
    public init(_ files: [FileToAttach], options: AttachOptions) throws {
        var names = Set<String>()
        var named: [String: String] = [:]
        for file in files {
            let name = try file.attachmentName()
            guard AttachmentName.isValid(name) else {
                throw AttachmentFileError.invalidName(name: name, path: file.path)
            }
            // The name given first: the one the entry would have had.
            let key = AttachmentName.key(name)
            if let first = named[key] { throw VaultError.duplicateAttachment(first) }
            named[key] = name
        }
        let readers = try files.map { try AttachmentReader(file: $0, keepMetadata: options.keepMetadata) }
        self.readers = readers
        inputs = readers.map { reader in
            AttachmentInput(name: reader.name, mediaType: reader.mediaType, dedup: options.dedup) {
                try reader.read(&$0)
            }
        }
    }
}

/// One file as the vault reads it: the sniffed prefix first, then the rest of the file,
/// through the JPEG metadata stripper unless the metadata is kept.
final class AttachmentReader {
    let name: String
    let mediaType: String
    private let file: AttachmentFile
    private var prefix: [UInt8]
    private var prefixSent = false
    private var stripper: JPEGStrippingReader?

    /// What the stripper removed, once the whole file was read (nil when it was kept).
    var strippedReport: JPEGMetadataReport? { stripper?.report }

    init(file source: FileToAttach, keepMetadata: Bool) throws {
        file = try AttachmentFile(pathBytes: source.pathBytes, path: source.path)
        name = try source.attachmentName()
        prefix = try Self.readPrefix(of: file)
        mediaType = MediaType.sniff(prefix: prefix, fileName: name)
        if !keepMetadata && mediaType == "image/jpeg" {
            stripper = JPEGStrippingReader { [unowned self] in try self.readRaw(&$0) }
        }
    }

    /// The next bytes as they are stored; a broken or cut JPEG is refused.
    func read(_ buffer: inout [UInt8]) throws -> Int {
        guard stripper != nil else { return try readRaw(&buffer) }
        do {
            return try stripper!.read(&buffer)
        } catch is JPEGMetadataError {
            throw AttachmentFileError.malformedJPEG(path: file.path)
        }
    }

    /// The file's bytes: the prefix already read, then the rest.
    private func readRaw(_ buffer: inout [UInt8]) throws -> Int {
        if !prefixSent {
            prefixSent = true
            if !prefix.isEmpty {
                let n = min(buffer.count, prefix.count)
                buffer.replaceSubrange(0..<n, with: prefix[0..<n])
                prefix.removeFirst(n)
                prefixSent = prefix.isEmpty
                return n
            }
        }
        return try file.read(&buffer)
    }

    /// Up to `MediaType.sniffLength` bytes from the start (fewer only for a shorter file).
    private static func readPrefix(of file: AttachmentFile) throws -> [UInt8] {
        var prefix: [UInt8] = []
        var piece = [UInt8](repeating: 0, count: MediaType.sniffLength)
        while prefix.count < MediaType.sniffLength {
            piece.removeLast(piece.count - (MediaType.sniffLength - prefix.count))
            let n = try file.read(&piece)
            if n == 0 { break }
            prefix += piece[0..<n]
        }
        return prefix
    }
}
