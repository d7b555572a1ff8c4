import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An import file read a chunk at a time, each chunk checked to be UTF-8 before the parser
/// sees it, so a file of any size costs one chunk of memory.
///
/// It refuses what `Importer.load` refuses, with the same errors: a directory, a missing or
/// unreadable file, one over `Importer.maximumFileBytes`, and (naming the line of the first bad
/// byte) one that is not UTF-8. Once it has failed it gives no more bytes: the parser then
/// sees the document end there, and the reader reports `failure` before anything the parser
/// found, as `load` would have refused the file before parsing it.
final class JSONChunks {
    static let defaultChunkBytes = 1 << 20

    let file: String
    private let chunkBytes: Int
    private let fd: Int32
    /// The bytes of a UTF-8 sequence the last chunk ended in the middle of.
    private var carry: [UInt8] = []
    /// Newlines in the bytes given so far (all valid UTF-8), for the line of a bad byte.
    private var newlines = 0
    private var total = 0
    private var atEnd = false
    private(set) var failure: ExchangeError?

    /// `chunkBytes` other than the default only in tests, to cut tokens at every place.
    init(_ url: URL, chunkBytes: Int = JSONChunks.defaultChunkBytes) throws {
        file = url.path
        self.chunkBytes = max(chunkBytes, 1)
        var info = stat()
        // lstat, as `Importer.load` reads the attributes of the name itself.
        guard lstat(file, &info) == 0 else {
            throw ExchangeError.unreadable(file: file, detail: "no such file or no permission")
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw ExchangeError.unreadable(file: file, detail: "is a directory") }
        // Checked before reading, so a huge file costs nothing.
        if Int(info.st_size) > Importer.maximumFileBytes {
            throw ExchangeError.tooLarge(file: file, bytes: Int(info.st_size), limit: Importer.maximumFileBytes)
        }
        fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ExchangeError.unreadable(file: file, detail: "no permission") }
    }

    deinit { close(fd) }

    /// The next chunk (never empty), or nil at the end of the file or after a failure.
    func next() -> [UInt8]? {
        while !atEnd, failure == nil {
            guard var chunk = read() else { return nil }
            if chunk.isEmpty {
                atEnd = true
                // A sequence cut off by the end of the file.
                if !carry.isEmpty { fail(carry) }
                return nil
            }
            if !carry.isEmpty {
                chunk = carry + chunk
                carry = []
            }
            let cut = Self.incompleteTail(chunk)
            if cut < chunk.count {
                carry = Array(chunk[cut...])
                chunk.removeSubrange(cut...)
            }
            if chunk.isEmpty { continue }
            guard String(validating: chunk, as: UTF8.self) != nil else {
                fail(chunk)
                return nil
            }
            newlines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            return chunk
        }
        return nil
    }

    /// Reads to the end of the file, checking the rest is UTF-8 too: a bad byte anywhere
    /// refuses the file before any error the parser found.
    func drain() {
        while next() != nil {}
    }

    private func read() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: chunkBytes)
        var count = 0
        repeat {
            count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            failure = .unreadable(file: file, detail: "no permission")
            return nil
        }
        total += count
        // The file grew since it was measured.
        guard total <= Importer.maximumFileBytes else {
            failure = .tooLarge(file: file, bytes: total, limit: Importer.maximumFileBytes)
            return nil
        }
        chunk.removeSubrange(count...)
        return chunk
    }

    /// Records the line of the first bad byte in `bytes`, which start where a scalar starts.
    private func fail(_ bytes: [UInt8]) {
        var line = newlines + 1
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): if s == "\n" { line += 1 }
            case .emptyInput, .error: break loop
            }
        }
        failure = .invalidUTF8(file: file, line: line)
    }

    /// Where a UTF-8 sequence begins that `bytes` holds only the start of (its count if none).
    static func incompleteTail(_ bytes: [UInt8]) -> Int {
        var k = 1
        while k <= min(3, bytes.count) {
            let b = bytes[bytes.count - k]
            if b & 0xC0 == 0x80 {
                k += 1
                continue
            }
            let needed = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            return needed > k ? bytes.count - k : bytes.count
        }
        return bytes.count
    }
}
