/// The media type of a file: from its first bytes when they say, else from its name's
/// extension, else `application/octet-stream`.
///
/// Content comes first because names lie (a `.jpg` that is a PNG, an extension missing); the
/// extension decides only what content cannot: plain text, and formats built on another
/// (an `.docx` or `.epub` is a zip, a `.dng` is a TIFF). Every answer is lowercase ASCII
/// `type/subtype` (`AttachmentName.isValidMediaType`).
public enum MediaType {
    /// How many leading bytes `sniff` looks at; a shorter prefix (a short file) is fine.
    public static let sniffLength = 512

    public static let fallback = "application/octet-stream"

    /// The media type of a file whose first bytes are `prefix` (at most `sniffLength` are read)
    /// and whose name is `fileName` (only its extension is used).
    public static func sniff(prefix: [UInt8], fileName: String) -> String {
        let ext = fileExtension(fileName)
        let byExtension = ext.flatMap { MediaTypeTable.byExtension[$0] }
        guard let byContent = MediaMagic.type(of: prefix.prefix(sniffLength)) else {
            return byExtension ?? fallback
        }
        // A container whose extension names a format built on it: the extension is more precise.
        if let byExtension, MediaTypeTable.refinements[byContent]?.contains(byExtension) == true {
            return byExtension
        }
        return byContent
    }

    /// The lowercase extension of a base name (`photo.JPG` → `jpg`); nil without one (`.bashrc`
    /// is a hidden name, not an extension).
    static func fileExtension(_ name: String) -> String? {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return nil }
        let ext = base[base.index(after: dot)...]
        guard !ext.isEmpty, ext.utf8.count <= 16 else { return nil }
        return ext.lowercased()
    }
}

/// Magic numbers.
enum MediaMagic {
    static func type(of p: ArraySlice<UInt8>) -> String? {
        let b = Array(p)
        if b.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if b.starts(with: ascii("GIF87a")) || b.starts(with: ascii("GIF89a")) { return "image/gif" }
        if b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            return "image/tiff"
        }
        if b.starts(with: ascii("%PDF-")) { return "application/pdf" }
        if b.starts(with: ascii("RIFF")), b.count >= 12 { return riff(Array(b[8..<12])) }
        if b.count >= 12, b[4..<8].elementsEqual(ascii("ftyp")) { return isoMedia(b) }
        if b.starts(with: ascii("OggS")) { return "audio/ogg" }
        if b.starts(with: ascii("fLaC")) { return "audio/flac" }
        if b.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
            return contains(b, ascii("webm")) ? "video/webm" : "video/x-matroska"
        }
        if b.starts(with: ascii("ID3")) { return "audio/mpeg" }
        if b.starts(with: ascii("PK")), b.count >= 4, [[3, 4], [5, 6], [7, 8]].contains([b[2], b[3]]) {
            return "application/zip"
        }
        return frameSync(b)
    }

    /// RIFF's form type: WebP, WAVE or AVI.
    private static func riff(_ form: [UInt8]) -> String? {
        switch form {
        case ascii("WEBP"): return "image/webp"
        case ascii("WAVE"): return "audio/wav"
        case ascii("AVI "): return "video/x-msvideo"
        default: return nil
        }
    }

    /// ISO base media (MP4, QuickTime, HEIF): the `ftyp` box's major brand, then its compatible
    /// brands, read only within the box and the prefix.
    private static func isoMedia(_ b: [UInt8]) -> String? {
        let boxEnd = min(b.count, Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]))
        var brands = [Array(b[8..<12])]
        var at = 16
        while at + 4 <= boxEnd {
            brands.append(Array(b[at..<(at + 4)]))
            at += 4
        }
        let types = brands.compactMap { MediaTypeTable.isoBrands[String(decoding: $0, as: UTF8.self)] }
        // A generic HEIF brand (mif1) first, then the codec's (heic, avif): the codec's is more precise.
        if types.first?.hasPrefix("image/heif") == true,
            let specific = types.first(where: { $0.hasPrefix("image/heic") || $0.hasPrefix("image/avif") })
        {
            return specific
        }
        return types.first ?? "video/mp4"
    }

    /// An MPEG audio frame header: ADTS (AAC: 12 sync bits, layer 0, a known sampling rate), or
    /// MPEG-1/2 layer I–III (11 sync bits, a layer other than "reserved", a bitrate other than
    /// "bad", a known sample rate).
    private static func frameSync(_ b: [UInt8]) -> String? {
        guard b.count >= 3, b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        if b[1] & 0xF6 == 0xF0 { return (b[2] >> 2) & 0xF < 13 ? "audio/aac" : nil }
        guard (b[1] >> 1) & 3 != 0, b[2] >> 4 != 0xF, (b[2] >> 2) & 3 != 3 else { return nil }
        return "audio/mpeg"
    }

    private static func contains(_ b: [UInt8], _ needle: [UInt8]) -> Bool {
        guard b.count >= needle.count else { return false }
        return (0...(b.count - needle.count)).contains { b[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    private static func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
}
