import Foundation

/// Where an archive's bytes come from: memory, or a file read a window at a time, so that an
/// archive of any size costs its central directory and one piece of a member, not its size.
enum ZipSource {
    case memory([UInt8])
    case file(FileHandle, size: Int)

    /// The archive's length in bytes.
    var count: Int {
        switch self {
        case .memory(let bytes): return bytes.count
        case .file(_, let size): return size
        }
    }

    /// Opens `url` for reading; its size is taken once, here.
    static func open(_ url: URL) throws(ZipArchive.Malformed) -> ZipSource {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            let size = try handle.seekToEnd()
            guard size <= UInt64(Int.max) else { throw ZipArchive.Malformed(detail: "too large") }
            return .file(handle, size: Int(size))
        } catch let error as ZipArchive.Malformed {
            throw error
        } catch {
            throw ZipArchive.Malformed(detail: "the file cannot be read")
        }
    }

    /// Bytes `at ..< at + count`, addressed by their offsets in the archive; refused when the
    /// range lies outside it (or the file changed under the reader and came up short).
    func window(_ at: Int, count: Int) throws(ZipArchive.Malformed) -> ZipBytes {
        guard at >= 0, count >= 0, at <= self.count, count <= self.count - at else {
            throw ZipArchive.Malformed(detail: "a record lies outside the archive")
        }
        switch self {
        case .memory(let bytes):
            return ZipBytes(bytes[at..<(at + count)], base: at, total: bytes.count)
        case .file(let handle, let size):
            let data: Data?
            do {
                try handle.seek(toOffset: UInt64(at))
                data = try handle.read(upToCount: count)
            } catch {
                throw ZipArchive.Malformed(detail: "the file cannot be read")
            }
            let bytes = [UInt8](data ?? Data())
            guard bytes.count == count else { throw ZipArchive.Malformed(detail: "the file ends early") }
            return ZipBytes(bytes[...], base: at, total: size)
        }
    }
}

/// A window on the archive's bytes, read only through bounds-checked accessors that take offsets
/// in the whole archive and answer nil outside the window.
struct ZipBytes {
    private let bytes: ArraySlice<UInt8>
    /// The archive offset of the window's first byte.
    private let base: Int
    /// The length of the whole archive.
    let count: Int

    init(_ bytes: ArraySlice<UInt8>, base: Int, total: Int) {
        self.bytes = bytes
        self.base = base
        count = total
    }

    /// A whole archive in memory.
    init(_ bytes: [UInt8]) { self.init(bytes[...], base: 0, total: bytes.count) }

    func u16(_ at: Int) -> Int? {
        guard let pair = slice(at, count: 2) else { return nil }
        return Int(pair[pair.startIndex]) | Int(pair[pair.startIndex + 1]) << 8
    }

    func u32(_ at: Int) -> Int? {
        guard let low = u16(at), let high = u16(at + 2) else { return nil }
        return low | high << 16
    }

    /// A little-endian u64, nil past 2^62 (no archive is that large: a bigger value is a lie,
    /// and refusing it keeps every sum of offsets and sizes from overflowing).
    func u64(_ at: Int) -> Int? {
        guard let low = u32(at), let high = u32(at + 4), high < 1 << 30 else { return nil }
        return low | high << 32
    }

    func slice(_ at: Int, count: Int) -> ArraySlice<UInt8>? {
        let offset = at - base
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
        let start = bytes.startIndex + offset
        return bytes[start..<(start + count)]
    }
}
