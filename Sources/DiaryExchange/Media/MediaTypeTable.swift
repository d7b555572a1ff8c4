/// The tables behind `MediaType.sniff`.
enum MediaTypeTable {
    /// By lowercase extension: what content sniffing cannot tell (text) and what it leaves to
    /// the name (formats without magic here).
    static let byExtension: [String: String] = [
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "md": "text/markdown",
        "markdown": "text/markdown", "csv": "text/csv", "tsv": "text/tab-separated-values", "html": "text/html",
        "htm": "text/html", "css": "text/css", "xml": "application/xml", "json": "application/json",
        "yaml": "application/yaml", "yml": "application/yaml", "ics": "text/calendar", "vcf": "text/vcard",
        "rtf": "application/rtf", "svg": "image/svg+xml",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "webp": "image/webp", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif",
        "tif": "image/tiff", "tiff": "image/tiff", "bmp": "image/bmp", "dng": "image/x-adobe-dng",
        "pdf": "application/pdf",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/ogg", "flac": "audio/flac",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "ogv": "video/ogg", "avi": "video/x-msvideo", "3gp": "video/3gpp",
        "zip": "application/zip", "epub": "application/epub+zip",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
    ]

    /// A type found by content, and the more precise types an extension may give a file of it.
    static let refinements: [String: Set<String>] = [
        "application/zip": [
            "application/epub+zip", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "application/vnd.openxmlformats-officedocument.presentationml.presentation",
            "application/vnd.oasis.opendocument.text", "application/vnd.oasis.opendocument.spreadsheet",
        ],
        "image/tiff": ["image/x-adobe-dng"],
        "audio/ogg": ["video/ogg"],
        // An MPEG-4 file with audio only is often branded like a video (isom, mp42).
        "video/mp4": ["audio/mp4"],
    ]

    /// ISO base media brands (the `ftyp` box), major or compatible.
    static let isoBrands: [String: String] = [
        "heic": "image/heic", "heix": "image/heic", "heim": "image/heic", "heis": "image/heic",
        "hevc": "image/heic-sequence", "hevx": "image/heic-sequence",
        "mif1": "image/heif", "msf1": "image/heif-sequence", "avif": "image/avif", "avis": "image/avif",
        "M4A ": "audio/mp4", "M4B ": "audio/mp4", "M4P ": "audio/mp4", "qt  ": "video/quicktime",
        "3gp4": "video/3gpp", "3gp5": "video/3gpp", "3gp6": "video/3gpp", "3g2a": "video/3gpp2",
        "isom": "video/mp4", "iso2": "video/mp4", "mp41": "video/mp4", "mp42": "video/mp4", "avc1": "video/mp4",
        "M4V ": "video/mp4", "dash": "video/mp4",
    ]
}
