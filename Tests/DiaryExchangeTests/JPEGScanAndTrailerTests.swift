import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange

/// The stripper past the first scan: progressive JPEGs with metadata between scans, MPF files
/// and Motion Photos whose appended images and video are dropped, and Exif in any letter case.
/// The fixtures and what is expected of them come from Resources/JPEG/generate.py
/// (expected.json: the kinds removed, the GPS flag and the trailer's length per file).
final class JPEGScanAndTrailerTests: XCTestCase {
    private struct Expected: Decodable {
        let kinds: [String]
        let gps: Bool
        let trailer: Int
    }

    private static func expectations() throws -> [String: Expected] {
        try JSONDecoder().decode(
            [String: Expected].self, from: Data(JPEGMetadataStripperTests.resource("expected.json")))
    }

    private static func strip(_ input: [UInt8], piece: Int) throws -> ([UInt8], JPEGMetadataReport) {
        try JPEGMetadataStripperTests.strip(input, piece: piece)
    }

    func testEveryFixtureStripsToTheBytesAndReportPILsSideExpects() throws {
        let expectations = try Self.expectations()
        XCTAssertTrue(
            Set(["mpf", "motion-photo", "progressive", "progressive-exif-between-scans", "uppercase-exif"])
                .isSubset(of: expectations.keys), "\(expectations.keys)")
        for (name, expected) in expectations {
            let input = try JPEGMetadataStripperTests.resource(name + ".jpg")
            let clean = try JPEGMetadataStripperTests.resource(name + ".stripped.jpg")
            for piece in [1, 2, 7, 4096] {
                let (out, report) = try Self.strip(input, piece: piece)
                XCTAssertEqual(out, clean, "\(name) piece \(piece)")
                XCTAssertTrue(report.isJPEG, name)
                XCTAssertEqual(report.removedKinds.map(\.rawValue), expected.kinds, name)
                XCTAssertEqual(report.exifHasGPSPosition, expected.gps, name)
                XCTAssertEqual(report.trailerBytes, expected.trailer, name)
                XCTAssertEqual(report.removedBytes, input.count - out.count, name)
            }
        }
    }

    /// Every prefix of a file is refused as cut short until the primary image's EOI; from there
    /// on the output is the whole stripped image and the rest counts as the trailer.
    func testEveryCutBeforeThePrimaryImageEndsIsRefused() throws {
        let expectations = try Self.expectations()
        for name in ["mpf", "motion-photo", "progressive"] {
            let input = try JPEGMetadataStripperTests.resource(name + ".jpg")
            let clean = try JPEGMetadataStripperTests.resource(name + ".stripped.jpg")
            let imageEnd = input.count - (try XCTUnwrap(expectations[name])).trailer
            for cut in 3...input.count {
                let prefix = Array(input.prefix(cut))
                if cut < imageEnd {
                    XCTAssertThrowsError(try Self.strip(prefix, piece: 1 + cut % 97)) {
                        XCTAssertEqual($0 as? JPEGMetadataError, .truncated(offset: cut), "\(name) cut \(cut)")
                    }
                } else {
                    let (out, report) = try Self.strip(prefix, piece: 1 + cut % 97)
                    XCTAssertEqual(out, clean, "\(name) cut \(cut)")
                    XCTAssertEqual(report.trailerBytes, cut - imageEnd, "\(name) cut \(cut)")
                    XCTAssertEqual(report.removed.contains(.trailer), cut > imageEnd, "\(name) cut \(cut)")
                }
            }
        }
    }

    func testTheScanIsFollowedMarkerByMarker() throws {
        let input: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xDB, 0, 3, 7, 0xFF, 0xDA, 0, 3, 1]
            // Data: a stuffed zero, a restart marker, a fill byte before a stuffed zero, two fill
            // bytes before the marker that ends the scan.
            + [0x11, 0xFF, 0x00, 0x22, 0xFF, 0xD3, 0x33, 0xFF, 0xFF, 0x00, 0x44, 0xFF, 0xFF]
            // Between the scans: a comment and a short APP1, dropped; then a second scan, EOI
            // and what a phone appends.
            + [0xFF, 0xFE, 0, 4, 0x68, 0x69, 0xFF, 0xE1, 0, 4, 0x45, 0x58]
            + [0xFF, 0xDA, 0, 2, 0x55, 0xFF, 0xD9, 0x4D, 0x50, 0x34]
        let expected: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xDB, 0, 3, 7, 0xFF, 0xDA, 0, 3, 1]
            + [0x11, 0xFF, 0x00, 0x22, 0xFF, 0xD3, 0x33, 0xFF, 0xFF, 0x00, 0x44, 0xFF, 0xFF]
            + [0xFF, 0xDA, 0, 2, 0x55, 0xFF, 0xD9]
        for piece in [1, 2, 3, 5, 100] {
            let (out, report) = try Self.strip(input, piece: piece)
            XCTAssertEqual(out, expected, "piece \(piece)")
            XCTAssertEqual(report.removedKinds, [.comment, .otherAPP1, .trailer])
            XCTAssertEqual(report.trailerBytes, 3)
            XCTAssertEqual(report.removedBytes, 6 + 6 + 3)
        }
    }

    func testMarkersThatCannotEndAScanAreRefused() {
        let scan: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA, 0, 2, 0x11]
        let cases: [([UInt8], JPEGMetadataError)] = [
            (scan + [0xFF, 0xD8], .badMarker(offset: 8, byte: 0xD8)),
            (scan + [0xFF], .truncated(offset: 8)),
            (scan + [0xFF, 0xFF], .truncated(offset: 9)),
            (scan + [0xFF, 0xC4, 0, 1], .badSegmentLength(offset: 9)),
            (scan + [0xFF, 0xFE, 0, 2, 0xD0], .badMarker(offset: 11, byte: 0xD0)),
            (scan + [0xFF, 0xFE, 0, 2, 0xFF, 0xD5], .badMarker(offset: 12, byte: 0xD5)),
        ]
        for (input, expected) in cases {
            for piece in [1, 4] {
                XCTAssertThrowsError(try Self.strip(input, piece: piece)) {
                    XCTAssertEqual($0 as? JPEGMetadataError, expected, "\(input)")
                }
            }
        }
    }

    func testExifInAnyLetterCaseIsExifAndAnMPFIndexIsDropped() throws {
        // Big-endian TIFF: IFD0 at 8 with one entry 0x8825 LONG 1 → 26; at 26 a GPS IFD with 0x0002.
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, 0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]
            + [0, 1, 0, 2, 0, 5, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0]
        func app(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        }
        let image: [UInt8] = [0xFF, 0xDA, 0, 2, 0x11, 0xFF, 0xD9]
        for identifier in ["EXIF", "exif", "eXiF", "Exif"] {
            let input = [0xFF, 0xD8] + app(0xE1, Array(identifier.utf8) + [0, 0] + tiff) + image
            let (out, report) = try Self.strip(input, piece: 3)
            XCTAssertEqual(out, [0xFF, 0xD8] + image, identifier)
            XCTAssertEqual(report.removedKinds, [.exif], identifier)
            XCTAssertTrue(report.exifHasGPSPosition, identifier)
        }
        // Not Exif: the NUL must be there (still dropped, as any APP1).
        let spaced = [0xFF, 0xD8] + app(0xE1, Array("EXIF ".utf8) + tiff) + image
        XCTAssertEqual(try Self.strip(spaced, piece: 1).1.removedKinds, [.otherAPP1])
        // APP2: the MPF index goes, an ICC profile (any other APP2) stays.
        let icc = app(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1, 0])
        let mpf = [0xFF, 0xD8] + app(0xE2, Array("MPF\0".utf8) + tiff) + icc + image
        let (out, report) = try Self.strip(mpf, piece: 2)
        XCTAssertEqual(out, [0xFF, 0xD8] + icc + image)
        XCTAssertEqual(report.removedKinds, [.mpf])
        XCTAssertFalse(report.exifHasGPSPosition)
    }

    /// Damaged multi-image and progressive files strip or throw a typed error, never trap, and
    /// the result is the same whatever the piece size.
    func testDamagedFilesNeverTrapAndPiecesAgree() throws {
        var random = SeededGenerator(seed: SeededGenerator.announcedSeed("JPEG scan damage"))
        for name in ["mpf", "motion-photo", "progressive-exif-between-scans"] {
            let input = try JPEGMetadataStripperTests.resource(name + ".jpg")
            for _ in 0..<300 {
                var damaged = Array(input.prefix(Int.random(in: 0...input.count, using: &random)))
                if !damaged.isEmpty {
                    for _ in 0..<Int.random(in: 1...6, using: &random) {
                        let at = Int.random(in: 0..<damaged.count, using: &random)
                        // Marker-like bytes half the time: they are what the parser decides on.
                        damaged[at] = Bool.random(using: &random) ? 0xFF : UInt8.random(in: 0...255, using: &random)
                    }
                }
                let whole = Result { try Self.strip(damaged, piece: damaged.count + 1) }
                let pieced = Result { try Self.strip(damaged, piece: Int.random(in: 1...64, using: &random)) }
                switch (whole, pieced) {
                case (.success(let a), .success(let b)):
                    XCTAssertEqual(a.0, b.0)
                    XCTAssertEqual(a.1, b.1)
                    XCTAssertEqual(a.1.removedBytes, a.1.isJPEG ? damaged.count - a.0.count : 0)
                case (.failure(let a), .failure(let b)):
                    XCTAssertNotNil(a as? JPEGMetadataError, "\(a)")
                    XCTAssertEqual(a as? JPEGMetadataError, b as? JPEGMetadataError)
                default:
                    XCTFail("one piece size stripped, the other threw: \(whole), \(pieced)")
                }
            }
        }
    }
}
