import Foundation

/// A strict reader of the zip archives Day One exports, written to PKWARE's APPNOTE.
///
/// A zip is a claim about itself: offsets, sizes and counts in its records point anywhere, and
/// a general-purpose zip library trusts them too far (ZIPFoundation 0.9.20 traps on an end
/// record whose central directory offset lies past the file). Here every number is checked against the bytes
/// before it is used, and every read goes through `ZipBytes`, which answers nil rather than
/// trapping, so no byte of the file can reach code that traps:
///
/// - the end-of-central-directory record must be the last record, its comment ending the file;
/// - one disk only; zip64 records where the archive has them (an export whose media pass 4 GiB
///   or 65,535 files), checked as strictly as the 32-bit ones;
/// - the central directory lies between the members and the end record and holds exactly the
///   number of headers the end record says, filling its size exactly;
/// - each member's local header and data lie before the central directory, the local header
///   names the same path and method, and no two members' ranges overlap (overlapping members
///   are how zip bombs multiply their output).
///
/// Only members that are read need a supported method (stored or deflate) and no encryption;
/// their size and CRC-32 are checked after inflating (`contents(of:limit:)`), or at the end of
/// a streamed read (`ZipMemberReader`). The archive may be in memory or read from its file a
/// window at a time (`ZipSource`): the end record, the central directory, each local header.
struct ZipArchive {
    struct Member {
        /// The path in the archive (UTF-8; other bytes are replaced, the name is only shown).
        let path: String
        let flags: UInt16
        let method: UInt16
        let crc32: UInt32
        let compressedSize: Int
        let size: Int
        /// Where the member's local header starts in the archive.
        let header: Int
        /// Where the member's (compressed) data lies in the archive.
        let data: Range<Int>

        var isDirectory: Bool { path.hasSuffix("/") }
    }

    /// Why an archive or a member was refused; the caller words it with the file's path.
    struct Malformed: Error, Equatable {
        let detail: String
    }

    let members: [Member]
    let source: ZipSource

    private static let endSignature = 0x0605_4B50
    private static let centralSignature = 0x0201_4B50
    private static let localSignature = 0x0403_4B50
    private static let endLength = 22
    private static let centralLength = 46
    private static let localLength = 30
    /// A central directory larger than this is refused (a million members take about 100 MiB;
    /// Day One's exports hold one member per photo, far fewer).
    static let maximumDirectoryBytes = 64 << 20

    /// An archive held in memory.
    init(_ raw: [UInt8]) throws(Malformed) {
        try self.init(source: .memory(raw))
    }

    /// An archive read from `url` piece by piece: only its end record, its central directory
    /// and its local headers are read here, and a member's data only when it is read.
    init(file url: URL) throws(Malformed) {
        try self.init(source: ZipSource.open(url))
    }

    init(source: ZipSource) throws(Malformed) {
        self.source = source
        let tailStart = max(0, source.count - Self.endLength - 0xFFFF)
        let bytes = try source.window(tailStart, count: source.count - tailStart)
        let end = try Self.endRecord(bytes)
        guard bytes.u16(end + 4) == 0, bytes.u16(end + 6) == 0 else {
            throw Malformed(detail: "archives split over several disks are not supported")
        }
        guard var count = bytes.u16(end + 10), var directorySize = bytes.u32(end + 12),
            var directoryOffset = bytes.u32(end + 16), bytes.u16(end + 8) == count
        else { throw Malformed(detail: "damaged end of central directory record") }
        var directoryLimit = end
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF,
            let zip64 = try Self.zip64End(source, end: end)
        {
            (count, directorySize, directoryOffset, directoryLimit) = zip64
        }
        guard directoryOffset + directorySize <= directoryLimit, count <= directorySize / Self.centralLength else {
            throw Malformed(detail: "the central directory lies outside the archive")
        }
        guard directorySize <= Self.maximumDirectoryBytes else {
            throw Malformed(detail: "the central directory is too large")
        }
        let directory = try source.window(directoryOffset, count: directorySize)
        var members: [Member] = []
        var at = directoryOffset
        let directoryEnd = directoryOffset + directorySize
        for _ in 0..<count {
            let (member, next) = try Self.centralHeader(
                directory, at: at, directoryEnd: directoryEnd, dataEnd: directoryOffset, source: source)
            members.append(member)
            at = next
        }
        guard at == directoryEnd else {
            throw Malformed(detail: "the central directory does not match its size")
        }
        try Self.requireDisjoint(members)
        self.members = members
    }

    /// The end record: searched backwards from the end (its comment is at most 65,535 bytes),
    /// and accepted only where its comment length reaches exactly to the end of the file.
    private static func endRecord(_ bytes: ZipBytes) throws(Malformed) -> Int {
        guard bytes.count >= endLength else { throw Malformed(detail: "too short to be a zip archive") }
        let last = bytes.count - endLength
        for at in stride(from: last, through: max(0, last - 0xFFFF), by: -1)
        where bytes.u32(at) == endSignature && bytes.u16(at + 20) == last - at {
            return at
        }
        throw Malformed(detail: "no end of central directory record")
    }

    /// The central header at `at` and the offset just past it, with its local header checked.
    private static func centralHeader(
        _ bytes: ZipBytes, at: Int, directoryEnd: Int, dataEnd: Int, source: ZipSource
    ) throws(Malformed) -> (Member, Int) {
        guard at + centralLength <= directoryEnd, bytes.u32(at) == centralSignature,
            let flags = bytes.u16(at + 8), let method = bytes.u16(at + 10), let crc = bytes.u32(at + 16),
            var compressed = bytes.u32(at + 20), var size = bytes.u32(at + 24),
            let nameLength = bytes.u16(at + 28), let extraLength = bytes.u16(at + 30),
            let commentLength = bytes.u16(at + 32), var disk = bytes.u16(at + 34), var local = bytes.u32(at + 42)
        else { throw Malformed(detail: "damaged central directory") }
        let next = at + centralLength + nameLength + extraLength + commentLength
        guard next <= directoryEnd, let name = bytes.slice(at + centralLength, count: nameLength) else {
            throw Malformed(detail: "damaged central directory")
        }
        if compressed == 0xFFFF_FFFF || size == 0xFFFF_FFFF || local == 0xFFFF_FFFF || disk == 0xFFFF {
            let extra = at + centralLength + nameLength
            try applyZip64Extra(
                bytes, extra: extra..<(extra + extraLength), size: &size, compressed: &compressed, local: &local,
                disk: &disk)
        }
        let path = String(decoding: name, as: UTF8.self)
        guard disk == 0, local + localLength <= dataEnd else {
            throw Malformed(detail: "member \(path) has a damaged local header")
        }
        let header = try source.window(local, count: min(localLength + nameLength, dataEnd - local))
        guard header.u32(local) == localSignature,
            header.u16(local + 8) == method, let localNameLength = header.u16(local + 26),
            let localExtraLength = header.u16(local + 28),
            header.slice(local + localLength, count: localNameLength) == name
        else { throw Malformed(detail: "member \(path) has a damaged local header") }
        let start = local + localLength + localNameLength + localExtraLength
        guard start + compressed <= dataEnd else {
            throw Malformed(detail: "member \(path) reaches past its end into the central directory")
        }
        let member = Member(
            path: path, flags: UInt16(flags), method: UInt16(method), crc32: UInt32(crc), compressedSize: compressed,
            size: size,
            header: local, data: start..<(start + compressed))
        return (member, next)
    }

    /// Refuses members whose local header and data overlap another's.
    private static func requireDisjoint(_ members: [Member]) throws(Malformed) {
        // A member spans from its local header to the end of its data.
        let spans = members.map { ($0.header, $0.data.upperBound, $0.path) }
            .sorted { $0.0 < $1.0 }
        for (previous, next) in zip(spans, spans.dropFirst()) where next.0 < previous.1 {
            throw Malformed(detail: "members \(previous.2) and \(next.2) overlap")
        }
    }

    /// The member's bytes, inflated when deflated; refused when larger than `limit`, damaged,
    /// encrypted, or compressed with a method other than stored (0) or deflate (8).
    func contents(of member: Member, limit: Int) throws(Malformed) -> [UInt8] {
        guard member.flags & 0x41 == 0 else { throw Malformed(detail: "member \(member.path) is encrypted") }
        // Deflate's own overhead is 5 bytes per 64 KiB block: compressed data much larger than
        // the limit cannot inflate to within it, and is not read.
        guard member.size <= limit, member.compressedSize <= limit + limit / 1024 + 64 else {
            throw Malformed(detail: "too large")
        }
        let window = try source.window(member.data.lowerBound, count: member.compressedSize)
        guard let data = window.slice(member.data.lowerBound, count: member.compressedSize) else {
            throw Malformed(detail: "member \(member.path) is damaged")
        }
        let out: [UInt8]
        switch member.method {
        case 0:
            guard member.compressedSize == member.size else {
                throw Malformed(detail: "member \(member.path) is damaged")
            }
            out = Array(data)
        case 8:
            // Deflate expands at most 1032 to 1, so a larger claim is a lie; refusing it keeps
            // the output buffer (allocated at the claimed size) proportional to the archive.
            guard member.size <= (member.compressedSize + 1) * 1032 else {
                throw Malformed(detail: "member \(member.path) claims more bytes than its data can hold")
            }
            guard let inflated = Inflate.raw(data, size: member.size) else {
                throw Malformed(detail: "member \(member.path) is damaged")
            }
            out = inflated
        default:
            throw Malformed(
                detail:
                    "member \(member.path) uses compression method \(member.method); only stored and deflate are read")
        }
        guard Inflate.crc32(out) == member.crc32 else {
            throw Malformed(detail: "member \(member.path) is damaged")
        }
        return out
    }
}
