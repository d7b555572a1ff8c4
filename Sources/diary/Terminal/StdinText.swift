import DiaryApp
import DiaryCrypto
import Foundation

/// Entry text from stdin, checked by DiaryApp's `TextInput` before anything is stored.
enum StdinText {
    /// Reads all of stdin as raw bytes; refuses more than `limit` bytes or invalid UTF-8.
    ///
    /// Reading stops keeping bytes past the limit but keeps counting, so the error can say how
    /// large the input was without holding 20 MB in memory.
    static func read(limit: Int) throws -> String {
        // Room for the whole limit up front: a growing array would leave copies of the text
        // in freed memory that nothing zeroes. (Pages are touched only as text arrives.)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limit)
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        defer { secureZero(&chunk); secureZero(&bytes) }
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CLIError.system(what: "cannot read stdin", errno: errno) }
            if n == 0 { break }
            total += n
            if total <= limit { bytes.append(contentsOf: chunk[..<n]) }
        }
        return try TextInput.decode(bytes, total: total, limit: limit, source: "stdin")
    }
}
