import DiaryCrypto
import DiaryStore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a backup file (docs/FORMAT.md §10) record by record, without holding the file.
///
/// Why record by record: one flipped bit must cost one record, not the whole backup. The end
/// record's checksum covers the file, but a mismatch only says *that* something changed; each
/// sealed object authenticates itself, so the reader walks the framing, hands every record it
/// can frame to its caller, and reports what it could not frame by byte offset. When the framing
/// breaks (a damaged type or length byte), it searches forward for the next plausible record
/// start; whatever it skipped is reported, and the entries lost there are named by the index.
///
/// Memory: the scan keeps the header, the index root and the pages (small), and only the id,
/// offset and length of each entry record; `payload(of:)` reads one entry back when needed.
/// No length is trusted before it is capped and checked against the file's size.
///
/// It is the only reader of the format: `verify`, `restore` and `--salvage` use it, and so do
/// the fuzzer (DiaryFuzzing, through `package` access) and the tests of what a reader MUST
/// reject (docs/FORMAT.md §10), which show as `findings`.
package final class BackupReader {
    /// One entry record found by the scan.
    package struct EntryRecord {
        package let id: UUID
        let offset: Int
        let payloadOffset: Int
        let length: Int
    }

    /// A problem with the file's framing or records, by byte offset; `entry` when the damaged
    /// record still names an entry.
    package struct Finding {
        package let offset: Int?
        package let entry: UUID?
        package let detail: String
    }

    package let url: URL
    private let fd: Int32
    let size: Int

    package private(set) var header: [UInt8]?
    package private(set) var index: [UInt8]?
    package private(set) var indexPages: [Int: [UInt8]] = [:]
    package private(set) var entries: [EntryRecord] = []
    package private(set) var findings: [Finding] = []
    /// The attachment objects (type 6 records), by where their pieces lie.
    package private(set) var attachments = BackupObjects()

    private let hasher = BLAKE2b.Hasher()
    private var hashed = 0
    private var recordCount: UInt64 = 0

    /// Opens `url` and checks the preamble (magic and version); a file without it is not a
    /// backup, and an unknown version is refused by name rather than read as version 1.
    package convenience init(_ url: URL) throws {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io(path: url.path, detail: String(cString: strerror(errno))) }
        try self.init(descriptor: fd, url: url)
    }

    /// Reads the open file `fd` (which it closes), named `url` in errors. The fuzzer hands it
    /// an in-memory file this way.
    package init(descriptor fd: Int32, url: URL) throws {
        self.url = url
        self.fd = fd
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw VaultError.notABackup(path: url.path)
        }
        size = Int(info.st_size)
        guard size >= 10, let preamble = try? Self.pread(fd, 0, 10, path: url.path),
            Array(preamble[0..<8]) == BackupFile.magic
        else {
            close(fd)
            throw VaultError.notABackup(path: url.path)
        }
        let version = Int(preamble[8]) << 8 | Int(preamble[9])
        guard version == Int(BackupFile.version) else {
            close(fd)
            throw VaultError.unsupportedVersion(found: version, supported: Int(BackupFile.version))
        }
    }

    deinit { close(fd) }

    /// Walks every record once, hashing the bytes before the end record. Afterwards the
    /// properties hold what was found; `findings` is empty for an undamaged backup.
    package func scan() throws {
        var offset = 10
        var sawEnd = false
        // Where the last framed record started: a damaged length can frame a record that
        // swallows the start of the next one, so the search for that one starts from here.
        var lastStart = 10
        while offset < size {
            if let next = try frame(at: offset, first: offset == 10, sawEnd: &sawEnd) {
                lastStart = offset
                offset = next
                continue
            }
            // The framing broke here: look for the next record we can frame.
            attachments.close()
            let resume = try resynchronise(after: offset == 10 ? offset : max(lastStart, 10))
            if offset + 45 == size && resume == size {
                findings.append(Finding(offset: nil, entry: nil, detail: "the end record is damaged"))
            } else if resume > offset {
                findings.append(
                    Finding(
                        offset: offset, entry: nil,
                        detail: "\(resume - offset) bytes cannot be read as records (damaged framing)"))
            }
            // `resume` is past `lastStart`, so the walk always moves on; it may lie before
            // `offset` when the last record swallowed the next one's start.
            lastStart = resume
            offset = resume == offset ? offset + 1 : resume
        }
        attachments.close()
        if !sawEnd { findings.append(Finding(offset: nil, entry: nil, detail: "no end record (truncated?)")) }
        if header == nil {
            findings.append(Finding(offset: nil, entry: nil, detail: "no header record first in the file"))
        }
    }

    /// The header record's payload, read alone (without the scan), or nil when the first
    /// record is not a header.
    package func headerRecord() throws -> [UInt8]? {
        guard let (type, length) = try recordHead(at: 10), type == BackupFile.headerType else { return nil }
        return try Self.pread(fd, 15, length, path: url.path)
    }

    /// The sealed entry of `record`, read again from the file.
    package func payload(of record: EntryRecord) throws -> [UInt8] {
        try Self.pread(fd, record.payloadOffset, record.length, path: url.path)
    }

    /// The bytes of one piece of an attachment object, read again from the file.
    package func bytes(of piece: BackupObjects.Piece) throws -> [UInt8] {
        try Self.pread(fd, piece.offset, piece.length, path: url.path)
    }

    // MARK: - Framing

    /// Reads the record at `offset` if its framing holds and returns where the next one
    /// starts; nil when it cannot be framed.
    private func frame(at offset: Int, first: Bool, sawEnd: inout Bool) throws -> Int? {
        guard let (type, length) = try recordHead(at: offset) else { return nil }
        let payloadOffset = offset + 5
        if type == BackupFile.endType {
            // The end record is 40 bytes and the last thing in the file.
            guard length == 40, payloadOffset + 40 == size else { return nil }
            try checkEndRecord(at: offset)
            sawEnd = true
            return size
        }
        guard type != BackupFile.headerType || first else {
            return try skip(offset, length, "a second header record")
        }
        guard first == (type == BackupFile.headerType) else {
            // The first record must be the header; anything else means its framing is gone.
            return nil
        }
        let framed = [
            BackupFile.indexType, BackupFile.indexPageType, BackupFile.wideIndexPageType, BackupFile.entryType,
            BackupFile.attachmentType,
        ]
        .contains(type)
        if framed { guard try framesWell(at: payloadOffset, length: length, type: type) else { return nil } }
        guard try take(type, at: offset, length: length) else { return nil }
        recordCount += 1
        return payloadOffset + length
    }

    /// Compares the end record at `offset` with the records read: their count and the hash of
    /// every byte before it.
    private func checkEndRecord(at offset: Int) throws {
        try hash(upTo: offset)
        let payload = try Self.pread(fd, offset + 5, 40, path: url.path)
        var r = ByteReader(payload)
        let count = try r.u64()
        let sum = try r.take(32)
        if count != recordCount {
            findings.append(Finding(offset: nil, entry: nil, detail: "end record: record count mismatch"))
        }
        if !constantTimeEquals(sum, hasher.finish()) {
            findings.append(Finding(offset: nil, entry: nil, detail: "end record: checksum mismatch"))
        }
    }

    /// Keeps what a well-framed record of `type` at `offset` holds; false for a type no
    /// backup has.
    private func take(_ type: UInt8, at offset: Int, length: Int) throws -> Bool {
        let payloadOffset = offset + 5
        // An object's pieces follow one another: any other record ends it.
        if type != BackupFile.attachmentType { attachments.close() }
        switch type {
        case BackupFile.headerType:
            header = try read(payloadOffset, length, recordAt: offset)
        case BackupFile.indexType:
            let payload = try read(payloadOffset, length, recordAt: offset)
            if index == nil {
                index = payload
            } else {
                findings.append(Finding(offset: offset, entry: nil, detail: "a second index record"))
            }
        case BackupFile.indexPageType, BackupFile.wideIndexPageType:
            let payload = try read(payloadOffset, length, recordAt: offset)
            let width = Self.pageNumberWidth(type)
            let page = payload[0..<width].reduce(0) { $0 << 8 | Int($1) }
            if type == BackupFile.wideIndexPageType, !IndexLayout.isPageNumber(page),
                !IndexDirectory.isStoreNumber(page)
            {
                // A page of version 2 has its own record type: one number, one name.
                findings.append(Finding(offset: offset, entry: nil, detail: "index page \(page) in a wide record"))
            } else if indexPages[page] == nil {
                indexPages[page] = Array(payload[width...])
            } else {
                findings.append(Finding(offset: offset, entry: nil, detail: "index page \(page) appears twice"))
            }
        case BackupFile.entryType:
            // Only the id is kept; the sealed bytes are hashed in passing and read again later.
            let payload = try read(payloadOffset, length, recordAt: offset)
            let id = UUID(bytes: Array(payload[0..<16]))
            if seenIDs.insert(id).inserted {
                entries.append(
                    EntryRecord(id: id, offset: offset, payloadOffset: payloadOffset + 16, length: length - 16))
            } else {
                findings.append(Finding(offset: offset, entry: id, detail: "a second record for this entry"))
            }
        case BackupFile.attachmentType:
            let payload = try read(payloadOffset, length, recordAt: offset)
            attachments.take(
                id: UUID(bytes: Array(payload[0..<16])), number: payload[16..<20].reduce(0) { $0 << 8 | UInt32($1) },
                offset: payloadOffset + 20, length: length - 20, prefix: Array(payload[20..<22]))
        default:
            return false
        }
        return true
    }

    private var seenIDs = Set<UUID>()

    /// Whether a record of `type` and `length` holds: its sealed object has the shape of its
    /// kind, or, if not, the record after it frames (so the damage is inside this record, and
    /// authentication will name it). A page or entry record too short for its number or id
    /// never holds.
    private func framesWell(at payloadOffset: Int, length: Int, type: UInt8) throws -> Bool {
        if try Self.plausible(at: payloadOffset, length: length, type: type, fd: fd, path: url.path) { return true }
        let needed =
            type == BackupFile.entryType ? 16 : type == BackupFile.attachmentType ? 22 : Self.pageNumberWidth(type)
        guard length >= needed else { return false }
        return try nextFrames(at: payloadOffset + length)
    }

    /// Whether a record (or the end record, or the end of the file) starts at `next`.
    private func nextFrames(at next: Int) throws -> Bool {
        if next == size { return true }
        guard let (type, length) = try recordHead(at: next) else { return false }
        if type == BackupFile.endType { return length == 40 && next + 45 == size }
        return try Self.plausible(at: next + 5, length: length, type: type, fd: fd, path: url.path)
    }

    /// Counts a record that frames but must not be used, and reports it.
    private func skip(_ offset: Int, _ length: Int, _ what: String) throws -> Int {
        _ = try read(offset + 5, length, recordAt: offset)
        recordCount += 1
        findings.append(Finding(offset: offset, entry: nil, detail: what))
        return offset + 5 + length
    }

    /// A record's type and length, if the length is within the cap and inside the file.
    private func recordHead(at offset: Int) throws -> (UInt8, Int)? {
        guard offset + 5 <= size else { return nil }
        let head = try Self.pread(fd, offset, 5, path: url.path)
        let length = head[1...4].reduce(0) { $0 << 8 | Int($1) }
        guard length <= BackupFile.maximumRecordLength, offset + 5 + length <= size else { return nil }
        return (head[0], length)
    }

    /// Reads a record's payload, hashing the record (and anything skipped before it).
    private func read(_ payloadOffset: Int, _ length: Int, recordAt offset: Int) throws -> [UInt8] {
        try hash(upTo: payloadOffset)
        let payload = try Self.pread(fd, payloadOffset, length, path: url.path)
        hasher.update(payload)
        hashed = payloadOffset + length
        return payload
    }

    /// Feeds the file's bytes up to `offset` into the checksum, in bounded chunks.
    private func hash(upTo offset: Int) throws {
        while hashed < offset {
            let n = min(offset - hashed, 1 << 20)
            hasher.update(try Self.pread(fd, hashed, n, path: url.path))
            hashed += n
        }
    }

    /// The first offset after `offset` where a plausible record (or the end record) starts,
    /// or the file's size. A candidate must frame, its sealed object must have the shape of
    /// its kind, and the record after it must frame too (or be the end of the file), so that
    /// ciphertext that happens to look like a record head is not taken for one.
    private func resynchronise(after offset: Int) throws -> Int {
        var p = offset + 1
        while p < size {
            let window = try Self.pread(fd, p, min(1 << 16, size - p), path: url.path)
            var i = 0
            while i < window.count {
                let at = p + i
                let byte = window[i]
                i += 1
                switch byte {
                case BackupFile.endType:
                    if at + 45 == size, try recordHead(at: at)?.1 == 40 { return at }
                case BackupFile.indexType, BackupFile.entryType, BackupFile.indexPageType, BackupFile.wideIndexPageType,
                    BackupFile.attachmentType:
                    guard let (type, length) = try recordHead(at: at),
                        try Self.plausible(at: at + 5, length: length, type: type, fd: fd, path: url.path)
                    else { continue }
                    if try nextFrames(at: at + 5 + length) { return at }
                default: continue
                }
            }
            p += window.count
        }
        return size
    }

    /// Whether a payload of `length` at `payloadOffset` has the shape of a record of `type`:
    /// its sealed object passes `Envelope.peek` for its kind, and a page number is in range.
    static func plausible(at payloadOffset: Int, length: Int, type: UInt8, fd: Int32, path: String) throws -> Bool {
        if type == BackupFile.attachmentType {
            return try plausiblePiece(at: payloadOffset, length: length, fd: fd, path: path)
        }
        let prefix: Int
        let kind: ObjectKind
        switch type {
        case BackupFile.indexType: (prefix, kind) = (0, .index)
        case BackupFile.entryType: (prefix, kind) = (16, .entry)
        case BackupFile.indexPageType, BackupFile.wideIndexPageType:
            (prefix, kind) = (pageNumberWidth(type), .indexPage)
        default: return false
        }
        guard length >= prefix + Envelope.overhead + LengthPadding.minimumBucket else { return false }
        let head = try pread(fd, payloadOffset, prefix + Envelope.prefixLength, path: path)
        if type == BackupFile.indexPageType, !StoreChange.indexPageRange.contains(Int(head[0])) { return false }
        // A wide page number names a page of version 3 (below 64 it would have a second name)
        // or a directory of version 5, each sealed as its own kind.
        if type == BackupFile.wideIndexPageType {
            let number = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
            guard IndexLayout.isPageNumber(number) || IndexDirectory.isStoreNumber(number) else { return false }
            return plausibleEnvelope(
                head[prefix...], sealedLength: length - prefix, kind: IndexDirectory.kind(ofStored: number))
        }
        return plausibleEnvelope(head[prefix...], sealedLength: length - prefix, kind: kind)
    }

    /// Whether a type 6 payload has the shape of a piece: the 26-byte prefix (version 1, kind
    /// 4) as piece 0, else one stored chunk (18 bytes up to a whole chunk).
    private static func plausiblePiece(at payloadOffset: Int, length: Int, fd: Int32, path: String) throws -> Bool {
        guard length >= 20 + AttachmentObject.chunkOverhead + 1,
            length <= 20 + AttachmentObject.storedChunkLength
        else { return false }
        let head = try pread(fd, payloadOffset, 22, path: path)
        guard head[16..<20].allSatisfy({ $0 == 0 }) else { return true }
        return length == 20 + AttachmentObject.prefixLength && head[20] == AttachmentObject.version
            && head[21] == AttachmentObject.kind
    }

    /// The bytes of the page number that starts an index page record's payload (0 for others).
    static func pageNumberWidth(_ type: UInt8) -> Int {
        type == BackupFile.indexPageType ? 1 : type == BackupFile.wideIndexPageType ? 4 : 0
    }

    /// `Envelope.peek`'s rules on the clear prefix alone (version, kind, a bucket-sized body).
    static func plausibleEnvelope(_ prefix: ArraySlice<UInt8>, sealedLength: Int, kind: ObjectKind) -> Bool {
        let p = Array(prefix)
        return p.count >= 2 && p[0] == Envelope.version && p[1] == kind.rawValue
            && sealedLength >= Envelope.overhead + LengthPadding.minimumBucket
            && LengthPadding.isBucketSize(sealedLength - Envelope.overhead)
    }

    /// Exactly `count` bytes at `offset`, or an error.
    static func pread(_ fd: Int32, _ offset: Int, _ count: Int, path: String) throws -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, done in
            done = 0
            while done < count {
                let n = Glibc.pread(fd, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if n == 0 { break }
                done += n
            }
        }
        if failure != 0 { throw VaultError.io(path: path, detail: String(cString: strerror(failure))) }
        guard bytes.count == count else { throw VaultError.io(path: path, detail: "changed while being read") }
        return bytes
    }
}
