import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange

/// The JPEG metadata stripper against files PIL wrote (Resources/JPEG/generate.py), each with
/// the bytes PIL's side expects after stripping and has checked to decode to the same pixels.
final class JPEGMetadataStripperTests: XCTestCase {
    static func resource(_ name: String) throws -> [UInt8] {
        let directory = try XCTUnwrap(Bundle.module.url(forResource: "Resources", withExtension: nil))
        return [UInt8](try Data(contentsOf: directory.appendingPathComponent("JPEG/" + name)))
    }

    /// Strips `input` fed in pieces of `piece` bytes (the last may be shorter).
    static func strip(_ input: [UInt8], piece: Int = 65536) throws -> ([UInt8], JPEGMetadataReport) {
        var stripper = JPEGMetadataStripper()
        var out: [UInt8] = []
        var at = 0
        while at < input.count {
            let end = min(input.count, at + piece)
            try stripper.feed(input[at..<end]) { out += $0 }
            at = end
        }
        let report = try stripper.finish { out += $0 }
        return (out, report)
    }

    /// Where the first SOS marker starts (the fixtures have no fill bytes or stray FF DA).
    static func sos(_ bytes: [UInt8]) throws -> Int {
        var at = 2
        while bytes[at + 1] != 0xDA { at += 2 + (Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])) }
        return at
    }

    func testEveryMetadataSegmentIsCutAndTheRestIsKeptByteForByte() throws {
        let input = try Self.resource("gps-all.jpg")
        let (out, report) = try Self.strip(input)
        XCTAssertEqual(out, try Self.resource("gps-all.stripped.jpg"))
        XCTAssertEqual(report.removedKinds, [.exif, .xmp, .iptc, .comment])
        XCTAssertTrue(report.isJPEG)
        XCTAssertTrue(report.exifHasGPSPosition)
        XCTAssertEqual(report.removedBytes, input.count - out.count)
        // The image data, from SOS to the end, is untouched.
        XCTAssertEqual(input[try Self.sos(input)...], out[try Self.sos(out)...])
        // JFIF, ICC (APP2) and Adobe (APP14) stay.
        for kept in [0xE0, 0xE2, 0xEE] as [UInt8] {
            XCTAssertTrue(out[..<(try Self.sos(out))].windows(ofCount: 2).contains([0xFF, kept]), "\(kept)")
        }
    }

    func testExifWithoutAGPSPositionIsRemovedAndSaysSo() throws {
        for name in ["exif-no-gps", "gps-version-only"] {
            let (out, report) = try Self.strip(try Self.resource(name + ".jpg"))
            XCTAssertEqual(out, try Self.resource(name + ".stripped.jpg"), name)
            XCTAssertEqual(report.removedKinds, [.exif], name)
            XCTAssertFalse(report.exifHasGPSPosition, name)
        }
    }

    func testAJPEGWithoutMetadataComesOutIdentical() throws {
        let input = try Self.resource("plain.jpg")
        let (out, report) = try Self.strip(input)
        XCTAssertEqual(out, input)
        XCTAssertEqual(report, JPEGMetadataReport(isJPEG: true))
    }

    func testPiecesOfAnySizeGiveTheSameOutput() throws {
        let input = try Self.resource("gps-all.jpg")
        let whole = try Self.strip(input)
        for piece in [1, 2, 3, 7, 64, 1000] {
            let pieced = try Self.strip(input, piece: piece)
            XCTAssertEqual(pieced.0, whole.0, "piece \(piece)")
            XCTAssertEqual(pieced.1, whole.1, "piece \(piece)")
        }
    }

    func testInputThatIsNotAJPEGPassesThroughUntouched() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0xFF, 0xE1, 0, 4, 1, 2]
        for input in [png, [], [0xFF], [0xFF, 0xD8], [0xFF, 0xD8, 0x00, 0xFF, 0xE1], Array("hello".utf8)] {
            for piece in [1, 5] {
                let (out, report) = try Self.strip(input, piece: piece)
                XCTAssertEqual(out, input)
                XCTAssertEqual(report, JPEGMetadataReport(isJPEG: false))
            }
        }
    }

    func testFillBytesAndATablesOnlyStreamAreAccepted() throws {
        // SOI, fill bytes before a COM, a DQT-like segment, EOI without any scan.
        let input: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFF, 0xFE, 0, 3, 0x41, 0xFF, 0xDB, 0, 3, 7, 0xFF, 0xD9]
        let (out, report) = try Self.strip(input, piece: 1)
        XCTAssertEqual(out, [0xFF, 0xD8, 0xFF, 0xFF, 0xDB, 0, 3, 7, 0xFF, 0xD9])
        XCTAssertEqual(report.removedKinds, [.comment])
        XCTAssertEqual(report.removedBytes, 5)
    }

    func testBrokenSegmentListsThrowTypedErrors() {
        let cases: [([UInt8], JPEGMetadataError)] = [
            ([0xFF, 0xD8, 0xFF], .truncated(offset: 3)),
            ([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10, 1, 2], .truncated(offset: 8)),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 2, 0x12], .badMarker(offset: 6, byte: 0x12)),
            ([0xFF, 0xD8, 0xFF, 0x00], .badMarker(offset: 3, byte: 0x00)),
            ([0xFF, 0xD8, 0xFF, 0xD8], .badMarker(offset: 3, byte: 0xD8)),
            ([0xFF, 0xD8, 0xFF, 0xD3], .badMarker(offset: 3, byte: 0xD3)),
            ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], .badSegmentLength(offset: 4)),
        ]
        for (input, expected) in cases {
            XCTAssertThrowsError(try Self.strip(input, piece: 1)) { error in
                XCTAssertEqual(error as? JPEGMetadataError, expected, "\(input)")
            }
        }
    }

    /// Truncations and corruptions of a real file either strip or throw a typed error: never a
    /// trap, and the image data after SOS is always copied through unchanged.
    func testDamagedFilesNeverTrap() throws {
        let input = try Self.resource("gps-all.jpg")
        var random = SeededGenerator(seed: SeededGenerator.announcedSeed("JPEG damage"))
        for round in 0..<400 {
            var damaged = Array(input.prefix(Int.random(in: 0...input.count, using: &random)))
            if round % 2 == 0, !damaged.isEmpty {
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
            }
            do {
                let (out, report) = try Self.strip(damaged, piece: Int.random(in: 1...300, using: &random))
                XCTAssertLessThanOrEqual(out.count, damaged.count)
                XCTAssertEqual(report.removedBytes, report.isJPEG ? damaged.count - out.count : 0)
            } catch is JPEGMetadataError {
                // Refused as malformed: what the caller is told.
            }
        }
    }

    func testTheGPSCheckReadsLittleEndianExifAndIgnoresHostileOffsets() {
        func segment(_ tiff: [UInt8]) -> [UInt8] {
            let body = Array("Exif\0\0".utf8) + tiff
            return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        // IFD0 at 8: one entry 0x8825 LONG 1 → 26; GPS IFD at 26: one entry 0x0004.
        let header: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        let ifd0: [UInt8] = [1, 0, 0x25, 0x88, 4, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0, 0, 0, 0]
        let gps: [UInt8] = [1, 0, 0x04, 0x00, 5, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertTrue(JPEGSegment.exifHasGPSPosition(segment(header + ifd0 + gps)))
        // The GPS IFD pointer past the end, at itself, or an IFD count larger than the data.
        var pastEnd = ifd0
        pastEnd[10] = 0xF0
        XCTAssertFalse(JPEGSegment.exifHasGPSPosition(segment(header + pastEnd + gps)))
        var selfPointing = ifd0
        selfPointing[10] = 8
        XCTAssertFalse(JPEGSegment.exifHasGPSPosition(segment(header + selfPointing)))
        XCTAssertFalse(JPEGSegment.exifHasGPSPosition(segment(header + [0xFF, 0xFF] + ifd0.dropFirst(2))))
        XCTAssertFalse(JPEGSegment.exifHasGPSPosition(segment([0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0xFF, 0xFF])))
        XCTAssertFalse(JPEGSegment.exifHasGPSPosition(segment([])))
    }

    func testThePullReaderYieldsTheStrippedBytesAndTheReport() throws {
        let input = try Self.resource("gps-all.jpg")
        var at = 0
        var reader = JPEGStrippingReader(pieceSize: 100) { buffer in
            let n = min(buffer.count, input.count - at)
            buffer.replaceSubrange(0..<n, with: input[at..<(at + n)])
            at += n
            return n
        }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 33)
        while true {
            let n = try reader.read(&buffer)
            if n == 0 { break }
            out += buffer[0..<n]
        }
        XCTAssertEqual(out, try Self.resource("gps-all.stripped.jpg"))
        XCTAssertEqual(reader.report?.exifHasGPSPosition, true)
        XCTAssertEqual(try reader.read(&buffer), 0)
    }
}

extension ArraySlice where Element == UInt8 {
    /// Every run of `count` consecutive bytes.
    fileprivate func windows(ofCount count: Int) -> [[UInt8]] {
        guard self.count >= count else { return [] }
        return (startIndex...(endIndex - count)).map { Array(self[$0..<($0 + count)]) }
    }
}
