import Foundation

/// Removes a JPEG's metadata segments as the bytes stream through, without touching the image.
///
/// Before the first start-of-scan (SOS) marker a JPEG is a list of marker segments, each at
/// most 65,537 bytes; from SOS on it is entropy-coded image data. The stripper drops APP1
/// (Exif, XMP, extended XMP and any other APP1), APP13 (Photoshop/IPTC) and COM segments from
/// that list, keeps every other segment (APP0/JFIF, APP2/ICC, APP14/Adobe, the tables, the
/// frame header) byte for byte, and copies everything from SOS to the end verbatim: the image
/// is not decoded or re-encoded. Metadata after the first SOS (rare: between the scans of a
/// progressive JPEG, or in images appended after EOI such as MPF's secondary images) stays.
///
/// Memory stays flat: it holds at most one marker segment (≤ 65,537 bytes) plus what a single
/// `feed` emits. Input that does not start with SOI and a marker (`FF D8 FF`) is passed
/// through untouched and reported as not a JPEG. A JPEG whose segment list is broken (a bad marker, a length below 2,
/// SOI again, the input ending before SOS) throws `JPEGMetadataError`; by then some output may
/// have been emitted, so the caller must discard it.
public struct JPEGMetadataStripper {
    private enum State {
        /// Reading the first two bytes.
        case signature
        /// Expecting `FF`, then a marker code (fill bytes `FF` in between are kept).
        case marker
        /// Reading the two length bytes of a segment.
        case length
        /// Reading `remaining` more bytes of the segment body.
        case body(remaining: Int)
        /// Copying everything as it comes: the image data, or input that is not a JPEG.
        case verbatim
    }

    private var state = State.signature
    /// The bytes of the unit being read: the signature, or one whole marker segment.
    private var pending: [UInt8] = []
    /// Bytes consumed so far, for the offsets in errors.
    private var offset = 0
    private var report = JPEGMetadataReport(isJPEG: false)

    public init() {}

    /// Consumes `input` (a piece of any size, in order) and calls `emit` with the output it
    /// makes; `emit` may be called several times or not at all.
    public mutating func feed(_ input: ArraySlice<UInt8>, emit: (ArraySlice<UInt8>) throws -> Void) throws {
        var at = input.startIndex
        while at < input.endIndex {
            switch state {
            case .verbatim:
                offset += input.endIndex - at
                try emit(input[at...])
                return
            case .body(let remaining):
                let n = min(remaining, input.endIndex - at)
                pending += input[at..<(at + n)]
                at += n
                offset += n
                if n == remaining { try finishSegment(emit) } else { state = .body(remaining: remaining - n) }
            default:
                try step(input[at], emit)
                at += 1
                offset += 1
            }
        }
    }

    /// Convenience for a whole array.
    public mutating func feed(_ input: [UInt8], emit: (ArraySlice<UInt8>) throws -> Void) throws {
        try feed(input[...], emit: emit)
    }

    /// Ends the input: emits what is still held and returns what was removed. Throws when the
    /// input was a JPEG that ended before its first SOS (or EOI).
    public mutating func finish(emit: (ArraySlice<UInt8>) throws -> Void) throws -> JPEGMetadataReport {
        switch state {
        case .signature:
            // Shorter than a signature: not a JPEG, passed through.
            try emit(pending[...])
            pending = []
            state = .verbatim
        case .verbatim:
            break
        default:
            throw JPEGMetadataError.truncated(offset: offset)
        }
        return report
    }

    /// One byte while reading the signature, a marker or a length.
    private mutating func step(_ byte: UInt8, _ emit: (ArraySlice<UInt8>) throws -> Void) throws {
        pending.append(byte)
        switch state {
        case .signature:
            // SOI and the first marker's FF: the magic `MediaType` takes for a JPEG, so the two
            // agree on what is one.
            guard pending.count == 3 else { return }
            report.isJPEG = pending == [0xFF, 0xD8, 0xFF]
            state = report.isJPEG ? .marker : .verbatim
            try emit(pending[0..<(report.isJPEG ? 2 : 3)])
            pending = report.isJPEG ? [0xFF] : []
        case .marker:
            try markerByte(emit)
        case .length:
            guard pending.count == 4 else { return }
            let length = Int(pending[2]) << 8 | Int(pending[3])
            guard length >= 2 else { throw JPEGMetadataError.badSegmentLength(offset: offset - 1) }
            if length == 2 { try finishSegment(emit) } else { state = .body(remaining: length - 2) }
        default:
            preconditionFailure("step is only called while reading a signature, marker or length")
        }
    }

    /// `pending` holds `FF` and possibly a marker code.
    private mutating func markerByte(_ emit: (ArraySlice<UInt8>) throws -> Void) throws {
        guard pending[0] == 0xFF else { throw JPEGMetadataError.badMarker(offset: offset, byte: pending[0]) }
        guard pending.count == 2 else { return }
        let code = pending[1]
        switch code {
        case 0xFF:
            // A fill byte before the marker: kept, and the second FF may start the marker.
            try emit(pending[0..<1])
            pending.removeFirst()
        case 0xDA, 0xD9:
            // SOS: the image data follows; EOI: nothing more to parse. Either way, copy the rest.
            try emit(pending[...])
            pending = []
            state = .verbatim
        case 0x01:
            // TEM stands alone (no length).
            try emit(pending[...])
            pending = []
        case 0x00, 0xD0...0xD8:
            // A stuffed zero, a restart marker or a second SOI cannot appear before the scan.
            throw JPEGMetadataError.badMarker(offset: offset, byte: code)
        default:
            state = .length
        }
    }

    /// `pending` holds one whole segment: keep it or drop it.
    private mutating func finishSegment(_ emit: (ArraySlice<UInt8>) throws -> Void) throws {
        if let kind = JPEGSegment.removedKind(marker: pending[1], segment: pending) {
            report.removed.insert(kind)
            report.removedBytes += pending.count
            if kind == .exif, JPEGSegment.exifHasGPSPosition(pending) { report.exifHasGPSPosition = true }
        } else {
            try emit(pending[...])
        }
        pending = []
        state = .marker
    }
}

/// What `JPEGMetadataStripper` found and removed.
public struct JPEGMetadataReport: Equatable, Sendable {
    /// False when the input did not start with SOI and a marker (`FF D8 FF`): it was passed
    /// through untouched.
    public var isJPEG: Bool
    public var removed: Set<JPEGMetadataKind> = []
    /// Bytes removed, markers and lengths included.
    public var removedBytes = 0
    /// True when a removed Exif segment held a GPS position (a GPS IFD with a latitude or a
    /// longitude).
    public var exifHasGPSPosition = false

    public init(
        isJPEG: Bool, removed: Set<JPEGMetadataKind> = [], removedBytes: Int = 0, exifHasGPSPosition: Bool = false
    ) {
        self.isJPEG = isJPEG
        self.removed = removed
        self.removedBytes = removedBytes
        self.exifHasGPSPosition = exifHasGPSPosition
    }

    /// The kinds removed, in a fixed order (Exif, XMP, IPTC, comment, other).
    public var removedKinds: [JPEGMetadataKind] { JPEGMetadataKind.allCases.filter(removed.contains) }
}

/// A kind of metadata segment the stripper removes.
public enum JPEGMetadataKind: String, CaseIterable, Sendable {
    /// APP1 starting `Exif\0`: camera, time, GPS position, a thumbnail.
    case exif
    /// APP1 with Adobe's XMP packet, or its extension (extended XMP).
    case xmp
    /// APP13: Photoshop image resources, where IPTC lives.
    case iptc
    /// COM: a free-text comment.
    case comment
    /// Any other APP1: removed too, since APP1 carries only metadata.
    case otherAPP1
}

/// Why a JPEG's segments could not be read; offsets count from the first byte of the input.
public enum JPEGMetadataError: Error, Equatable, Sendable {
    /// The input ended inside the segment list, before the first SOS.
    case truncated(offset: Int)
    /// A byte where a marker was expected, or a marker that cannot appear before the scan.
    case badMarker(offset: Int, byte: UInt8)
    /// A segment length below 2 (it counts its own two bytes).
    case badSegmentLength(offset: Int)
}
