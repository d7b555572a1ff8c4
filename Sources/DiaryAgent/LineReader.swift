import DiaryCrypto
import Glibc

/// Collects bytes from a socket and hands out complete lines.
///
/// The storage is allocated once at its full size and never grows, so no reallocation can leave
/// a copy of a key (a `set` request, a `get` reply) behind in freed memory; consumed bytes are
/// zeroed, and so is everything on `deinit`.
final class LineReader {
    enum Fill { case data, endOfFile, wouldBlock }

    private var storage: [UInt8]
    private var filled = 0

    init(capacity: Int = AgentProtocol.maximumLineLength) {
        storage = [UInt8](repeating: 0, count: capacity)
    }

    deinit { secureZero(&storage) }

    /// True when the buffer is full and holds no complete line: the peer sent an overlong line.
    var isFullWithoutLine: Bool { filled == storage.count && newlineIndex() == nil }

    /// One `recv` into the free part of the buffer.
    func fill(from fd: Int32) throws -> Fill {
        guard filled < storage.count else { return .data }
        while true {
            let count = storage.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress! + filled, raw.count - filled, 0)
            }
            if count > 0 { filled += count; return .data }
            if count == 0 { return .endOfFile }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            default: throw AgentError.lastSystemError("recv")
            }
        }
    }

    /// Runs `body` with the next complete line (newline excluded) and then wipes it from the
    /// buffer; returns nil when no complete line has arrived yet.
    func withNextLine<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard let newline = newlineIndex() else { return nil }
        defer { consume(through: newline) }
        return try storage.withUnsafeBufferPointer { buffer in
            try body(UnsafeBufferPointer(rebasing: buffer[0..<newline]))
        }
    }

    private func newlineIndex() -> Int? {
        storage.withUnsafeBufferPointer { buffer in
            buffer[0..<filled].firstIndex(of: UInt8(ascii: "\n"))
        }
    }

    /// Drops bytes `0...index`, moves the rest to the front and zeroes the freed tail.
    private func consume(through index: Int) {
        let rest = filled - (index + 1)
        storage.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            if rest > 0 { memmove(base, base + index + 1, rest) }
            memset(base + rest, 0, filled - rest)
        }
        filled = rest
    }
}
