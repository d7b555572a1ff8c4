/// What a JPEG marker segment is, and the little of Exif's TIFF structure read to find a GPS
/// position.
enum JPEGSegment {
    static let exifIdentifier = Array("Exif\0".utf8)
    static let xmpIdentifier = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let extendedXMPIdentifier = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let mpfIdentifier = Array("MPF\0".utf8)

    /// The kind of metadata `segment` (marker, length and body) holds when it is one the
    /// stripper removes; nil when it is kept.
    static func removedKind(marker: UInt8, segment: [UInt8]) -> JPEGMetadataKind? {
        switch marker {
        case 0xE1:
            let body = segment.dropFirst(4)
            if isExif(body) { return .exif }
            if body.starts(with: xmpIdentifier) || body.starts(with: extendedXMPIdentifier) { return .xmp }
            return .otherAPP1
        case 0xE2: return segment.dropFirst(4).starts(with: mpfIdentifier) ? .mpf : nil
        case 0xED: return .iptc
        case 0xFE: return .comment
        default: return nil
        }
    }

    /// True when `body` starts with `Exif\0` in any letter case: writers disagree, and an
    /// `EXIF\0` segment carries the same TIFF data, GPS position included.
    static func isExif(_ body: ArraySlice<UInt8>) -> Bool {
        guard body.count >= exifIdentifier.count else { return false }
        // `| 0x20` lower-cases an ASCII letter; only `E` and `e` become `e`, and so on.
        return zip(body, exifIdentifier).allSatisfy { $0 == $1 || ($1 != 0 && $0 | 0x20 == $1 | 0x20) }
    }

    /// True when the Exif segment's IFD0 has a GPSInfo tag (0x8825) pointing at a GPS IFD that
    /// holds a latitude (0x0002) or a longitude (0x0004).
    ///
    /// Hostile input: every offset is checked against the TIFF data before it is read, and only
    /// two IFDs are visited (IFD0, then the GPS IFD), each at most its own entry count, which is
    /// itself bounded by the segment's size; nothing follows a chain, so nothing can loop.
    static func exifHasGPSPosition(_ segment: [UInt8]) -> Bool {
        // Marker (2), length (2), "Exif\0" and its pad byte (6), then the TIFF data.
        let tiff = TIFFReader(segment.dropFirst(10))
        guard let tiff, let ifd0 = tiff.u32(4),
            let gps = tiff.entries(at: ifd0).first(where: { $0.tag == 0x8825 }),
            gps.type == 4 || gps.type == 13, gps.count == 1
        else { return false }
        return tiff.entries(at: gps.value).contains { $0.tag == 0x0002 || $0.tag == 0x0004 }
    }
}

/// Bounds-checked reads of a TIFF structure (Exif's), in its own byte order.
struct TIFFReader {
    struct Entry {
        let tag: Int
        let type: Int
        let count: Int
        /// The value when it fits in four bytes (an offset for IFD pointers).
        let value: Int
    }

    private let bytes: [UInt8]
    private let littleEndian: Bool

    /// Nil unless `data` starts with a TIFF header (`II*\0` or `MM\0*`).
    init?(_ data: ArraySlice<UInt8>) {
        bytes = Array(data)
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            littleEndian = true
        } else if bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            littleEndian = false
        } else {
            return nil
        }
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at <= bytes.count - 2 else { return nil }
        let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
        return littleEndian ? a | b << 8 : a << 8 | b
    }

    func u32(_ at: Int) -> Int? {
        guard let first = u16(at), let second = u16(at + 2) else { return nil }
        return littleEndian ? first | second << 16 : first << 16 | second
    }

    /// The entries of the IFD at `at`: empty when its count or any entry lies outside the data.
    func entries(at: Int) -> [Entry] {
        guard let count = u16(at), count <= (bytes.count - at - 2) / 12 else { return [] }
        return (0..<count).compactMap { index in
            let start = at + 2 + index * 12
            guard let tag = u16(start), let type = u16(start + 2), let n = u32(start + 4), let value = u32(start + 8)
            else { return nil }
            return Entry(tag: tag, type: type, count: n, value: value)
        }
    }
}
