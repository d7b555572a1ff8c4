import Foundation
import XCTest

@testable import DiaryExchange

/// Zip64 archives (what an export past 4 GiB or 65,535 files is), written here by hand to
/// APPNOTE 4.3.14–4.5.3 with every size and offset in the zip64 records.
final class Zip64Tests: ExchangeTestCase {
    /// Stored members whose 32-bit sizes and offsets all say "see zip64".
    static func archive(_ members: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, data) in members {
            let offset = out.count
            let crc = StoredZip.crc32(data)
            let nameBytes = Array(name.utf8)
            var common = le16(45) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
            common += le32(crc) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(nameBytes.count)
            let localExtra = le16(1) + le16(16) + le64(data.count) + le64(data.count)
            out += le32(0x0403_4B50) + common + le16(localExtra.count) + nameBytes + localExtra + data
            let centralExtra = le16(1) + le16(24) + le64(data.count) + le64(data.count) + le64(offset)
            central += le32(0x0201_4B50) + le16(0x032D) + common + le16(centralExtra.count)
            central += le16(0) + le16(0) + le16(0) + le32(0o100644 << 16) + le32(0xFFFF_FFFF)
            central += nameBytes + centralExtra
        }
        let centralOffset = out.count
        out += central
        let recordOffset = out.count
        out += le32(0x0606_4B50) + le64(44) + le16(0x032D) + le16(45) + le32(0) + le32(0)
        out += le64(members.count) + le64(members.count) + le64(central.count) + le64(centralOffset)
        out += le32(0x0706_4B50) + le32(0) + le64(recordOffset) + le32(1)
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF)
        out += le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(0)
        return out
    }

    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    private static func le32(_ v: UInt32) -> [UInt8] { le32(Int(v)) }
    private static func le64(_ v: Int) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    let journal =
        #"{"entries": [{"uuid": "Z64", "creationDate": "2024-01-01T00:00:00Z", "text": "![](dayone-moment://P1)"}]}"#

    func testAZip64ExportImportsAndStreamsItsMembers() throws {
        let photo = (0..<100_000).map { UInt8($0 % 253) }
        let zip = Self.archive([("Journal.json", Array(journal.utf8)), ("photos/abcd.jpeg", photo)])
        let url = try fixture("z64.zip", bytes: zip)
        XCTAssertEqual(try ZipArchive(zip).members.map(\.size), [journal.utf8.count, photo.count])
        let archive = try ImportArchive(url: url)
        var reader = try archive.reader(for: "photos/abcd.jpeg")
        var buffer = [UInt8](repeating: 0, count: 30000)
        var out: [UInt8] = []
        while case let n = try reader.read(&buffer), n > 0 { out += buffer[0..<n] }
        XCTAssertEqual(out, photo)
        let batch = try Importer.read(.dayone, from: [url])
        XCTAssertEqual(batch.entries.map(\.source), ["dayone:Z64"])
    }

    func testDamagedZip64RecordsAreRefused() throws {
        let good = Self.archive([("Journal.json", Array(journal.utf8))])
        let end = good.count - 22
        let locator = end - 20
        // (offset, new byte, what is refused)
        let cases: [(Int, UInt8, String)] = [
            (locator + 8, 0xFF, "damaged zip64 end of central directory locator"),  // record offset
            (locator + 16, 2, "damaged zip64 end of central directory locator"),  // disks
            (locator - 56 + 4, 45, "damaged zip64 end of central directory record"),  // record size
            (locator - 56 + 24, 2, "damaged zip64 end of central directory record"),  // counts differ
            (locator - 56 + 40, 0xFF, "the central directory lies outside the archive"),  // directory size
            (locator - 56 + 55, 0x01, "the central directory lies outside the archive"),  // offset ≥ 2^56
        ]
        for (at, byte, detail) in cases {
            var bad = good
            bad[at] = byte
            XCTAssertThrowsError(try ZipArchive(bad), "\(at)") { error in
                XCTAssertEqual(error as? ZipArchive.Malformed, ZipArchive.Malformed(detail: detail), "\(at)")
            }
        }
        // The central header's zip64 extra field cut short.
        var bad = good
        let central = locator - 56 - (46 + 12 + 28)
        bad[central + 46 + 12 + 2] = 8
        XCTAssertThrowsError(try ZipArchive(bad)) { error in
            XCTAssertEqual(error as? ZipArchive.Malformed, ZipArchive.Malformed(detail: "damaged zip64 extra field"))
        }
    }
}
