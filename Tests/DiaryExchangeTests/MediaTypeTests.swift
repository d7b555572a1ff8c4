import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Media types from magic bytes first, the extension second.
final class MediaTypeTests: XCTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    private func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let body = bytes("ftyp" + major) + [0, 0, 0, 0] + compatible.flatMap(bytes)
        let size = body.count + 4
        return [0, 0, 0, UInt8(size)] + body + [0, 0, 0, 8] + bytes("mdat")
    }

    func testMagicBytesNameTheFormatWhateverTheName() {
        let cases: [([UInt8], String)] = [
            ([0xFF, 0xD8, 0xFF, 0xE0, 0, 16], "image/jpeg"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], "image/png"),
            (bytes("GIF89a") + [1, 0], "image/gif"),
            (bytes("GIF87a"), "image/gif"),
            (bytes("RIFF") + [0, 0, 0, 0] + bytes("WEBPVP8 "), "image/webp"),
            (bytes("RIFF") + [0, 0, 0, 0] + bytes("WAVEfmt "), "audio/wav"),
            (ftyp("heic", ["mif1", "heic"]), "image/heic"),
            (ftyp("mif1", ["mif1", "heic"]), "image/heic"),
            (ftyp("mif1", ["mif1"]), "image/heif"),
            (ftyp("avif", ["mif1"]), "image/avif"),
            ([0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], "image/tiff"),
            ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "image/tiff"),
            (bytes("%PDF-1.7\n"), "application/pdf"),
            (bytes("ID3") + [4, 0, 0], "audio/mpeg"),
            ([0xFF, 0xFB, 0x90, 0x64], "audio/mpeg"),
            ([0xFF, 0xF1, 0x50, 0x80], "audio/aac"),
            (ftyp("M4A ", ["M4A ", "mp42", "isom"]), "audio/mp4"),
            (ftyp("isom", ["isom", "iso2", "mp41"]), "video/mp4"),
            (ftyp("qt  ", ["qt  "]), "video/quicktime"),
            (ftyp("zzzz", []), "video/mp4"),
            (bytes("OggS") + [0, 2], "audio/ogg"),
            (bytes("fLaC") + [0, 0, 0, 34], "audio/flac"),
            ([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84] + bytes("webm"), "video/webm"),
            ([0x1A, 0x45, 0xDF, 0xA3, 0xA3, 0x42, 0x82, 0x88] + bytes("matroska"), "video/x-matroska"),
            (bytes("PK") + [3, 4, 20, 0], "application/zip"),
        ]
        for (prefix, expected) in cases {
            for name in ["file", "file.txt", "file.bin"] {
                XCTAssertEqual(MediaType.sniff(prefix: prefix, fileName: name), expected, "\(prefix) \(name)")
            }
        }
    }

    func testTheExtensionDecidesWhenContentCannot() {
        XCTAssertEqual(MediaType.sniff(prefix: bytes("dear diary"), fileName: "note.TXT"), "text/plain")
        XCTAssertEqual(MediaType.sniff(prefix: bytes("# title"), fileName: "a.md"), "text/markdown")
        XCTAssertEqual(MediaType.sniff(prefix: bytes("<svg"), fileName: "x.svg"), "image/svg+xml")
        XCTAssertEqual(MediaType.sniff(prefix: [], fileName: "empty.csv"), "text/csv")
        XCTAssertEqual(MediaType.sniff(prefix: bytes("PK") + [3, 4], fileName: "book.epub"), "application/epub+zip")
        XCTAssertEqual(MediaType.sniff(prefix: [0x49, 0x49, 0x2A, 0], fileName: "raw.DNG"), "image/x-adobe-dng")
        XCTAssertEqual(MediaType.sniff(prefix: ftyp("isom", ["isom"]), fileName: "voice.m4a"), "audio/mp4")
        // A refinement only applies to its container: a PNG named .docx is a PNG.
        XCTAssertEqual(
            MediaType.sniff(prefix: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], fileName: "a.docx"), "image/png")
    }

    func testUnknownContentAndNameIsOctetStream() {
        for name in ["blob", "blob.xyz", ".bashrc", "a.", "x.\(String(repeating: "q", count: 40))"] {
            XCTAssertEqual(MediaType.sniff(prefix: [0, 1, 2, 3], fileName: name), "application/octet-stream", name)
        }
        // Near misses of weak magic are not taken for audio.
        XCTAssertEqual(MediaType.sniff(prefix: [0xFF, 0xFB, 0xF0, 0], fileName: "x"), "application/octet-stream")
        XCTAssertEqual(MediaType.sniff(prefix: [0xFF, 0xF9], fileName: "x"), "application/octet-stream")
        XCTAssertEqual(
            MediaType.sniff(prefix: bytes("RIFF") + [0, 0, 0, 0] + bytes("XXXX"), fileName: "x"),
            "application/octet-stream")
    }

    /// A hostile ftyp box (size past the prefix, or too small) is read within bounds.
    func testHostileBoxSizesStayInBounds() {
        var box = ftyp("mif1", ["heic"])
        box[3] = 0xFF
        XCTAssertEqual(MediaType.sniff(prefix: box, fileName: "x"), "image/heic")
        box[3] = 0
        XCTAssertEqual(MediaType.sniff(prefix: box, fileName: "x"), "image/heif")
        XCTAssertEqual(MediaType.sniff(prefix: Array(box.prefix(12)), fileName: "x"), "image/heif")
    }

    func testEveryAnswerIsAValidAttachmentMediaType() {
        let all = Set(MediaTypeTable.byExtension.values).union(MediaTypeTable.isoBrands.values)
            .union(MediaTypeTable.refinements.keys).union([MediaType.fallback, "audio/aac", "video/webm"])
        for type in all { XCTAssertTrue(AttachmentName.isValidMediaType(type), type) }
    }
}
