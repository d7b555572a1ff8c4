internal import CZlibInflate

/// Raw deflate (RFC 1951, as in zip members) and CRC-32, through zlib.
///
/// zlib is called directly rather than through a zip library's wrapper: it is told exactly
/// how many input bytes there are and exactly how much room there is for output, so a crafted
/// stream can neither make it read past the member nor write more than the size the archive
/// claims (which the caller has already checked against the import limit).
enum Inflate {
    /// The inflated bytes of `input`, which must be one complete deflate stream producing
    /// exactly `size` bytes and using all of `input`; nil otherwise.
    static func raw(_ input: ArraySlice<UInt8>, size: Int) -> [UInt8]? {
        guard !input.isEmpty, size >= 0, input.count <= Int(UInt32.max), size < Int(UInt32.max) else { return nil }
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        // One byte more than claimed, so a stream that would produce more is caught.
        var output = [UInt8](repeating: 0, count: size + 1)
        let result = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress!)
                stream.avail_in = UInt32(inBuffer.count)
                stream.next_out = outBuffer.baseAddress!
                stream.avail_out = UInt32(outBuffer.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END, stream.avail_in == 0, Int(stream.total_out) == size else { return nil }
        output.removeLast()
        return output
    }

    /// The CRC-32 zip records for each member.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        crc32(0, bytes[...])
    }

    /// `crc` (of the bytes before) updated with `bytes`; `crc32(0, [])` starts a new one.
    static func crc32(_ start: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            // zlib takes a uInt length: feed it in pieces no longer than that.
            var crc = UInt(start)
            guard let base = buffer.baseAddress else { return UInt32(crc) }
            var at = 0
            while at < buffer.count {
                let n = min(buffer.count - at, 1 << 30)
                crc = CZlibInflate.crc32(crc, base + at, UInt32(n))
                at += n
            }
            return UInt32(crc)
        }
    }
}
