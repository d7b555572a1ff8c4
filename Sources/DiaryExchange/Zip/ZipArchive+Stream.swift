extension ZipArchive {
    /// Finds the member at `path` (exactly as the archive names it); nil when there is none.
    func member(at path: String) -> Member? {
        members.first { $0.path == path }
    }

    /// Calls `body` with the member's bytes in order, in pieces of at most 64 KiB, inflating a
    /// deflated member as it goes: memory stays flat whatever the member's size.
    ///
    /// The member's size and CRC-32 can only be checked at its end, so `body` sees bytes before
    /// they are known good: when this throws `Malformed`, the caller must throw away what `body`
    /// received. Errors `body` throws are passed on.
    func stream(_ member: Member, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var reader = try ZipMemberReader(archive: self, member: member)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = try reader.read(&buffer)
            if n == 0 { return }
            try body(buffer[0..<n])
        }
    }
}

/// Reads one member's bytes on demand (pull style), inflating a deflated member as it goes and
/// checking its size and CRC-32 when it ends.
///
/// `read(&buffer)` writes up to `buffer.count` bytes at the start of `buffer` and returns how
/// many; 0 means the end, and comes only once the member's size and CRC-32 have been checked
/// (a mismatch throws `ZipArchive.Malformed` instead). Memory: one 64 KiB compressed piece.
struct ZipMemberReader {
    private let archive: ZipArchive
    private let member: ZipArchive.Member
    private let inflater: InflateStream?
    /// The next compressed byte to read, as an archive offset.
    private var at: Int
    private var produced = 0
    private var crc: UInt32 = 0
    private var finished = false

    init(archive: ZipArchive, member: ZipArchive.Member) throws(ZipArchive.Malformed) {
        guard member.flags & 0x41 == 0 else { throw .init(detail: "member \(member.path) is encrypted") }
        switch member.method {
        case 0:
            guard member.compressedSize == member.size else { throw .init(detail: "member \(member.path) is damaged") }
            inflater = nil
        case 8:
            guard let stream = InflateStream() else { throw .init(detail: "member \(member.path) is damaged") }
            inflater = stream
        default:
            throw .init(
                detail:
                    "member \(member.path) uses compression method \(member.method); only stored and deflate are read")
        }
        self.archive = archive
        self.member = member
        at = member.data.lowerBound
    }

    private var damaged: ZipArchive.Malformed { .init(detail: "member \(member.path) is damaged") }

    mutating func read(_ buffer: inout [UInt8]) throws(ZipArchive.Malformed) -> Int {
        guard !finished, !buffer.isEmpty else { return 0 }
        let n: Int
        if let inflater { n = try next(from: inflater, into: &buffer) } else { n = try nextStored(into: &buffer) }
        guard n > 0 else {
            guard produced == member.size, crc == member.crc32 else { throw damaged }
            finished = true
            return 0
        }
        produced += n
        guard produced <= member.size else { throw damaged }
        crc = Inflate.crc32(crc, buffer[0..<n])
        return n
    }

    private mutating func nextStored(into buffer: inout [UInt8]) throws(ZipArchive.Malformed) -> Int {
        let n = min(buffer.count, InflateStream.pieceCapacity, member.data.upperBound - at)
        guard n > 0 else { return 0 }
        guard let piece = try archive.source.window(at, count: n).slice(at, count: n) else { throw damaged }
        buffer.replaceSubrange(0..<n, with: piece)
        at += n
        return n
    }

    private mutating func next(from inflater: InflateStream, into buffer: inout [UInt8]) throws(ZipArchive.Malformed)
        -> Int
    {
        while true {
            if inflater.needsInput, at < member.data.upperBound {
                let n = min(InflateStream.pieceCapacity, member.data.upperBound - at)
                guard let piece = try archive.source.window(at, count: n).slice(at, count: n) else { throw damaged }
                inflater.supply(piece)
                at += n
            }
            let made: Int
            do { made = try inflater.inflate(into: &buffer, count: buffer.count) } catch { throw damaged }
            if made > 0 { return made }
            if inflater.ended {
                // The stream must use the member's data exactly: nothing unread, nothing after it.
                guard inflater.pendingInput == 0, at == member.data.upperBound else { throw damaged }
                return 0
            }
            // Nothing made, not ended: it wants input, and there is none left.
            guard inflater.needsInput, at < member.data.upperBound else { throw damaged }
        }
    }
}
