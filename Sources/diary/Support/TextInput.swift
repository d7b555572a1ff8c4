import DiaryApp
import DiaryCrypto
import DiaryVault
import Foundation

/// Entry text from stdin, checked the way the vault will check it, before anything is stored.
enum TextInput {
    /// Reads all of stdin as raw bytes; refuses more than `limit` bytes or invalid UTF-8.
    ///
    /// Reading stops keeping bytes past the limit but keeps counting, so the error can say how
    /// large the input was without holding 20 MB in memory.
    static func readStdin(limit: Int) throws -> String {
        // Room for the whole limit up front: a growing array would leave copies of the text
        // in freed memory that nothing zeroes. (Pages are touched only as text arrives.)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(limit)
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        defer { secureZero(&chunk); secureZero(&bytes) }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw CLIError.system(what: "cannot read stdin", errno: errno) }
            if n == 0 { break }
            total += n
            if total <= limit { bytes.append(contentsOf: chunk[..<n]) }
        }
        guard total <= limit else { throw CLIError.tooLarge(bytes: total, limit: limit) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError.notUTF8(source: "stdin") }
        return text
    }

    /// Refuses text that is too large or empty after trimming whitespace.
    static func check(_ text: String, limit: Int) throws {
        let count = text.utf8.count
        guard count <= limit else { throw CLIError.tooLarge(bytes: count, limit: limit) }
        guard !EntryText.isBlank(text) else { throw CLIError.emptyText }
    }
}
