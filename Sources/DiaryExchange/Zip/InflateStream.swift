internal import CZlibInflate

/// Raw deflate (RFC 1951) inflated on demand: compressed pieces in (at most 64 KiB, copied into
/// a buffer of its own so zlib's pointer stays valid between calls), output into whatever room
/// the caller gives. Memory is flat whatever the ratio: nothing is inflated until asked for.
final class InflateStream {
    static let pieceCapacity = 65536

    private var stream = z_stream()
    private let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: pieceCapacity)
    /// True once the deflate stream's final block has ended.
    private(set) var ended = false

    /// Why inflating stopped short.
    enum Failure: Error { case damaged }

    init?() {
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            input.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(&stream)
        input.deallocate()
    }

    /// True when every supplied byte has been consumed and the stream wants more.
    var needsInput: Bool { stream.avail_in == 0 && !ended }

    /// Unconsumed input bytes (after the end: bytes that do not belong to the stream).
    var pendingInput: Int { Int(stream.avail_in) }

    /// Hands zlib the next compressed piece; only when `needsInput`.
    func supply(_ piece: ArraySlice<UInt8>) {
        precondition(needsInput && piece.count <= Self.pieceCapacity, "supply called with input pending or too much")
        _ = UnsafeMutableBufferPointer(rebasing: input[0..<piece.count]).initialize(from: piece)
        stream.next_in = input.baseAddress
        stream.avail_in = UInt32(piece.count)
    }

    /// Inflates into `buffer[0..<count]` (count ≤ buffer.count); returns how many bytes it made,
    /// 0 when it needs input or has ended. Throws when the data is not valid deflate.
    func inflate(into buffer: inout [UInt8], count: Int) throws(Failure) -> Int {
        let room = min(count, buffer.count, Int(UInt32.max))
        guard room > 0, !ended else { return 0 }
        let (result, made) = buffer.withUnsafeMutableBufferPointer { out in
            stream.next_out = out.baseAddress!
            stream.avail_out = UInt32(room)
            let result = CZlibInflate.inflate(&stream, Z_NO_FLUSH)
            return (result, room - Int(stream.avail_out))
        }
        switch result {
        case Z_STREAM_END: ended = true
        case Z_OK: break
        // No progress possible: fine when zlib has consumed everything and wants more.
        case Z_BUF_ERROR where stream.avail_in == 0: break
        default: throw .damaged
        }
        return made
    }
}
