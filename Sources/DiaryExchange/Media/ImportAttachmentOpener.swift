import DiaryVault
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Opens the files an import brings (`ImportAttachment`) as the vault seals them: the media
/// type from the first bytes, a JPEG's metadata removed (as `diary attach` does) unless kept,
/// and a file of diary's own export exactly as exported. Each zip is opened once per import.
public final class ImportAttachmentOpener {
    private let keepMetadata: Bool
    private var archives: [URL: ImportArchive] = [:]
    /// Photos whose metadata was removed as they were sealed, and how many of them had a GPS
    /// position in their Exif.
    public private(set) var photosStripped = 0
    public private(set) var photosWithGPSPosition = 0

    public init(keepMetadata: Bool = false) {
        self.keepMetadata = keepMetadata
    }

    /// `attachment`, to be opened when its entry is imported.
    public func pending(_ attachment: ImportAttachment) -> ImportFile {
        ImportFile(name: attachment.name) { [self] in try input(attachment) }
    }

    /// The vault's input for `attachment`, its file opened now.
    func input(_ attachment: ImportAttachment) throws -> AttachmentInput {
        let open = try source(attachment.location, length: attachment.length)
        if attachment.isVerbatim {
            return AttachmentInput(
                name: attachment.name, mediaType: attachment.mediaType, added: attachment.added, read: try open())
        }
        var prefix = [UInt8](repeating: 0, count: MediaType.sniffLength)
        let sniffer = try open()
        prefix.removeSubrange(try Self.fill(&prefix, from: sniffer)...)
        let type = MediaType.sniff(prefix: prefix, fileName: attachment.name)
        var read = try open()
        if type == "image/jpeg" && !keepMetadata {
            var stripper = JPEGStrippingReader(source: read)
            var counted = false
            let place = Self.place(attachment.location)
            read = { [self] buffer in
                let n: Int
                do {
                    n = try stripper.read(&buffer)
                } catch is JPEGMetadataError {
                    throw ExchangeError.malformedJPEG(file: place)
                }
                if n == 0, !counted, let report = stripper.report, !report.removed.isEmpty {
                    counted = true
                    photosStripped += 1
                    if report.exifHasGPSPosition { photosWithGPSPosition += 1 }
                }
                return n
            }
        }
        return AttachmentInput(name: attachment.name, mediaType: type, added: attachment.added, read: read)
    }

    /// Where an attachment is, as an error names it: its path, or its zip and the member.
    private static func place(_ location: ImportAttachment.Location) -> String {
        switch location {
        case .file(let url): return url.path
        case .zipMember(let archive, let path): return "\(archive.path) (\(path))"
        }
    }

    /// What opens the file from its start (each call a fresh reader).
    private func source(_ location: ImportAttachment.Location, length: UInt64?) throws -> () throws -> AttachmentSource
    {
        switch location {
        case .file(let url):
            return {
                let file = try ImportFileReader(url, length: length)
                return { try file.read(&$0) }
            }
        case .zipMember(let url, let path):
            let archive = try archives[url] ?? ImportArchive(url: url)
            archives[url] = archive
            return {
                var reader = try archive.reader(for: path)
                return { try reader.read(&$0) }
            }
        }
    }

    /// Reads into `buffer` until it is full or the source ends; returns how many bytes.
    private static func fill(_ buffer: inout [UInt8], from read: AttachmentSource) throws -> Int {
        var filled = 0
        var piece = [UInt8](repeating: 0, count: buffer.count)
        while filled < buffer.count {
            let n = try read(&piece)
            if n == 0 { break }
            let take = min(n, buffer.count - filled)
            buffer.replaceSubrange(filled..<(filled + take), with: piece[0..<take])
            filled += take
        }
        return filled
    }
}

/// A regular file read for an import: opened without following a symbolic link (the path was
/// resolved when it was found; a link put there since is refused), without blocking on a FIFO,
/// and checked to be a regular file of the length it had when opened (or `length`) by the end.
final class ImportFileReader {
    private var fd: Int32
    private let path: String
    private let expected: UInt64
    private var total: UInt64 = 0

    init(_ url: URL, length: UInt64?) throws {
        path = url.path
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ExchangeError.unreadable(file: path, detail: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw ExchangeError.unreadable(file: path, detail: "not a regular file")
        }
        expected = UInt64(info.st_size)
        // Refused before a byte is read, naming the file (sealing would stop only at 4 GiB).
        guard expected <= AttachmentLimits.maximumLength else {
            close(fd)
            throw ExchangeError.unreadable(file: path, detail: "larger than 4 GiB, the largest file an entry can hold")
        }
        if let length, length != expected {
            close(fd)
            throw ExchangeError.unreadable(file: path, detail: "\(expected) bytes, the export says \(length)")
        }
    }

    deinit { if fd >= 0 { close(fd) } }

    func read(_ buffer: inout [UInt8]) throws -> Int {
        guard fd >= 0 else { return 0 }
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw ExchangeError.unreadable(file: path, detail: String(cString: strerror(errno))) }
            total += UInt64(n)
            if n == 0 { try finish() }
            guard total <= expected else { throw changed() }
            return n
        }
    }

    /// At the end: the file must still be as long as it was, and as long as what was read.
    private func finish() throws {
        var info = stat()
        let now = fstat(fd, &info) == 0 ? UInt64(info.st_size) : UInt64.max
        close(fd)
        fd = -1
        guard total == expected, now == expected else { throw changed() }
    }

    private func changed() -> ExchangeError {
        .unreadable(file: path, detail: "it changed while it was read")
    }
}

extension ImportBatch {
    /// The batch's entries with the files each brings, for `Vault.importEntries(items:)`.
    public func items(_ opener: ImportAttachmentOpener) -> ImportItemSource {
        { body in
            for entry in entries {
                try body(ImportItem(entry: entry, attachments: (attachments[entry.id] ?? []).map(opener.pending)))
            }
        }
    }
}
