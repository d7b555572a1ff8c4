/// What `JPEGMetadataStripper` found and removed.
public struct JPEGMetadataReport: Equatable, Sendable {
    /// False when the input did not start with SOI and a marker (`FF D8 FF`): it was passed
    /// through untouched.
    public var isJPEG: Bool
    public var removed: Set<JPEGMetadataKind> = []
    /// Bytes removed, markers and lengths included, the trailer too.
    public var removedBytes = 0
    /// True when a removed Exif segment held a GPS position (a GPS IFD with a latitude or a
    /// longitude).
    public var exifHasGPSPosition = false
    /// Bytes after the image's EOI, removed (`.trailer`): MPF's secondary images, a Motion
    /// Photo's video, any other data appended.
    public var trailerBytes = 0

    public init(
        isJPEG: Bool, removed: Set<JPEGMetadataKind> = [], removedBytes: Int = 0, exifHasGPSPosition: Bool = false,
        trailerBytes: Int = 0
    ) {
        self.isJPEG = isJPEG
        self.removed = removed
        self.removedBytes = removedBytes
        self.exifHasGPSPosition = exifHasGPSPosition
        self.trailerBytes = trailerBytes
    }

    /// The kinds removed, in a fixed order (Exif, XMP, IPTC, comment, other APP1, MPF, trailer).
    public var removedKinds: [JPEGMetadataKind] { JPEGMetadataKind.allCases.filter(removed.contains) }
}

/// A kind of data the stripper removes.
public enum JPEGMetadataKind: String, CaseIterable, Sendable {
    /// APP1 starting `Exif\0` (any letter case): camera, time, GPS position, a thumbnail.
    case exif
    /// APP1 with Adobe's XMP packet, or its extension (extended XMP).
    case xmp
    /// APP13: Photoshop image resources, where IPTC lives.
    case iptc
    /// COM: a free-text comment.
    case comment
    /// Any other APP1: removed too, since APP1 carries only metadata.
    case otherAPP1
    /// APP2 starting `MPF\0`: the Multi-Picture Format index, whose offsets point at the images
    /// after EOI that are removed with the trailer.
    case mpf
    /// Everything after the image's EOI (`JPEGMetadataReport.trailerBytes`).
    case trailer
}

/// Why a JPEG could not be read; offsets count from the first byte of the input.
public enum JPEGMetadataError: Error, Equatable, Sendable {
    /// The input ended before the image's EOI.
    case truncated(offset: Int)
    /// A byte where a marker was expected, or a marker that cannot appear where it is.
    case badMarker(offset: Int, byte: UInt8)
    /// A segment length below 2 (it counts its own two bytes).
    case badSegmentLength(offset: Int)
}
