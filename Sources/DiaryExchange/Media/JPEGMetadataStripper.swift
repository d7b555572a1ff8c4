import Foundation

/// Removes a JPEG's metadata as the bytes stream through, without touching the image.
///
/// A JPEG is a list of marker segments, each at most 65,537 bytes, with entropy-coded image
/// data after each start-of-scan (SOS) segment; a progressive JPEG has several scans with
/// segments between them, and EOI ends the image. The stripper follows that structure up to
/// EOI. Wherever segments appear it drops APP1 (Exif, XMP, extended XMP and any other APP1),
/// APP2 holding an MPF index, APP13 (Photoshop/IPTC) and COM, and keeps every other segment
/// (APP0/JFIF, APP2/ICC, APP14/Adobe, the tables, the frame and scan headers) byte for byte.
/// The entropy-coded data is copied verbatim: the image is not decoded or re-encoded. Within
/// it `FF 00` is data, `FF D0`–`FF D7` are restart markers and `FF FF` a fill byte; any other
/// marker ends the scan. Everything after EOI (the trailer) is dropped: phones append MPF's
/// secondary images there, each with its own Exif and GPS position, or a Motion Photo's video.
///
/// Memory stays flat: it holds at most one marker segment (≤ 65,537 bytes) plus what a single
/// `feed` emits. Input that does not start with SOI and a marker (`FF D8 FF`) is passed
/// through untouched and reported as not a JPEG. A broken JPEG (a bad marker, a length below
/// 2, SOI again, the input ending before EOI) throws `JPEGMetadataError`; by then some output
/// may have been emitted, so the caller must discard it.
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
        /// Copying entropy-coded data; `pending` holds an `FF` whose next byte decides what it is.
        case scan
        /// Dropping everything after EOI.
        case trailer
        /// Copying input that is not a JPEG as it comes.
        case verbatim
    }

    private var state = State.signature
    /// The bytes of the unit being read: the signature, one whole marker segment, or an `FF`
    /// met in the entropy-coded data.
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
            case .trailer:
                let n = input.endIndex - at
                offset += n
                report.removed.insert(.trailer)
                report.trailerBytes += n
                report.removedBytes += n
                return
            case .body(let remaining):
                let n = min(remaining, input.endIndex - at)
                pending += input[at..<(at + n)]
                at += n
                offset += n
                if n == remaining { try finishSegment(emit) } else { state = .body(remaining: remaining - n) }
            case .scan where pending.isEmpty:
                let next = try copyScan(input[at...], emit)
                offset += next - at
                at = next
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
    /// input was a JPEG that ended before its EOI.
    public mutating func finish(emit: (ArraySlice<UInt8>) throws -> Void) throws -> JPEGMetadataReport {
        switch state {
        case .signature:
            // Shorter than a signature: not a JPEG, passed through.
            try emit(pending[...])
            pending = []
            state = .verbatim
        case .verbatim, .trailer:
            break
        default:
            throw JPEGMetadataError.truncated(offset: offset)
        }
        return report
    }

    /// Emits the entropy-coded data at the start of `data` up to an `FF` that is not followed,
    /// within `data`, by a stuffed zero or a restart marker; that `FF` is kept in `pending`.
    /// Returns the index of the first byte not consumed.
    private mutating func copyScan(_ data: ArraySlice<UInt8>, _ emit: (ArraySlice<UInt8>) throws -> Void) throws
        -> Int
    {
        var at = data.startIndex
        while let ff = data[at...].firstIndex(of: 0xFF) {
            if ff + 1 < data.endIndex, Self.continuesScan(data[ff + 1]) {
                at = ff + 2
                continue
            }
            if ff > data.startIndex { try emit(data[..<ff]) }
            pending = [0xFF]
            return ff + 1
        }
        try emit(data)
        return data.endIndex
    }

    /// True for the byte after `FF` that keeps the entropy-coded data going: a stuffed zero or
    /// a restart marker.
    private static func continuesScan(_ code: UInt8) -> Bool { code == 0x00 || (0xD0...0xD7).contains(code) }

    /// One byte while reading the signature, a marker, a length, or after an `FF` in a scan.
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
        case .scan:
            if Self.continuesScan(byte) {
                try emit(pending[...])
                pending = []
            } else if byte == 0xFF {
                // A fill byte: kept, and the second FF decides in its turn.
                try emit(pending[0..<1])
                pending.removeFirst()
            } else {
                // A marker ends the scan: a segment (kept or dropped by the same rules as before
                // the first scan), another SOS, or EOI.
                state = .marker
                try markerByte(emit)
            }
        default:
            preconditionFailure("step is only called while reading a signature, marker, length or scan marker")
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
        case 0xD9:
            // EOI: the image ends; whatever follows is dropped.
            try emit(pending[...])
            pending = []
            state = .trailer
        case 0x01:
            // TEM stands alone (no length).
            try emit(pending[...])
            pending = []
        case 0x00, 0xD0...0xD8:
            // A stuffed zero, a restart marker or a second SOI cannot appear outside a scan.
            throw JPEGMetadataError.badMarker(offset: offset, byte: code)
        default:
            // A segment with a length, SOS included (its header is a segment; the scan follows).
            state = .length
        }
    }

    /// `pending` holds one whole segment: keep it or drop it. After SOS the scan follows.
    private mutating func finishSegment(_ emit: (ArraySlice<UInt8>) throws -> Void) throws {
        let marker = pending[1]
        if let kind = JPEGSegment.removedKind(marker: marker, segment: pending) {
            report.removed.insert(kind)
            report.removedBytes += pending.count
            if kind == .exif, JPEGSegment.exifHasGPSPosition(pending) { report.exifHasGPSPosition = true }
        } else {
            try emit(pending[...])
        }
        pending = []
        state = marker == 0xDA ? .scan : .marker
    }
}
