/// A pull-style reader that strips a JPEG's metadata from the bytes another reader yields.
///
/// Both readers follow one convention: `read(&buffer)` writes up to `buffer.count` bytes at the
/// start of `buffer` and returns how many; 0 means the end. Memory stays flat: one source piece,
/// one held segment (`JPEGMetadataStripper`) and what that piece produced.
public struct JPEGStrippingReader {
    private var stripper = JPEGMetadataStripper()
    private let source: (inout [UInt8]) throws -> Int
    private var piece: [UInt8]
    private var ready: [UInt8] = []
    private var readyAt = 0
    /// What was removed; nil until the source has ended and the reader returned 0.
    public private(set) var report: JPEGMetadataReport?

    /// `pieceSize` bytes are asked of `source` at a time.
    public init(pieceSize: Int = 65536, source: @escaping (inout [UInt8]) throws -> Int) {
        self.source = source
        piece = [UInt8](repeating: 0, count: max(1, pieceSize))
    }

    /// Up to `buffer.count` stripped bytes at the start of `buffer`; 0 at the end. Throws what
    /// the source throws and `JPEGMetadataError`.
    public mutating func read(_ buffer: inout [UInt8]) throws -> Int {
        while readyAt == ready.count {
            guard report == nil else { return 0 }
            try refill()
        }
        let n = min(buffer.count, ready.count - readyAt)
        buffer.replaceSubrange(0..<n, with: ready[readyAt..<(readyAt + n)])
        readyAt += n
        return n
    }

    private mutating func refill() throws {
        ready.removeAll(keepingCapacity: true)
        readyAt = 0
        let n = try source(&piece)
        precondition(n >= 0 && n <= piece.count, "a source returned a count outside its buffer")
        var out: [UInt8] = []
        if n == 0 {
            report = try stripper.finish { out += $0 }
        } else {
            try stripper.feed(piece[0..<n]) { out += $0 }
        }
        ready = out
    }
}
