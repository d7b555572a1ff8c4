import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Helpers for the import and export tests: fixture files written into the scratch directory.
class ExchangeTestCase: VaultTestCase {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let utc = TimeZone(identifier: "UTC")!

    /// Writes `text` to a new file in the scratch directory.
    @discardableResult
    func fixture(_ name: String, _ text: String) throws -> URL {
        try fixture(name, bytes: Array(text.utf8))
    }

    @discardableResult
    func fixture(_ name: String, bytes: [UInt8]) throws -> URL {
        let url = path(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return url
    }

    /// Asserts that `body` throws exactly `expected`.
    func XCTAssertThrowsExchangeError<T>(
        _ expected: ExchangeError, _ body: @autoclosure () throws -> T, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? ExchangeError, expected, "\(error)", file: file, line: line)
        }
    }
}

/// A minimal zip writer (stored members, no compression) for Day One fixtures, written by hand
/// to PKWARE's APPNOTE so the importer is tested against a real archive layout, not against the
/// library that reads it.
enum StoredZip {
    static func archive(_ members: [(String, [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, data) in members {
            let offset = UInt32(out.count)
            let crc = crc32(data)
            let nameBytes = Array(name.utf8)
            var common: [UInt8] = []
            common += le16(20) + le16(0x0800) + le16(0)  // version, flags (UTF-8 names), stored
            common += le16(0) + le16(0x21)  // time, date (1980-01-01)
            common += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            common += le16(UInt16(nameBytes.count)) + le16(0)
            out += le32(0x0403_4B50) + common + nameBytes + data
            central += le32(0x0201_4B50) + le16(0x031E) + common
            central += le16(0) + le16(0) + le16(0) + le32(0o100644 << 16) + le32(offset) + nameBytes
        }
        let centralOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(members.count)) + le16(UInt16(members.count))
        out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return out
    }

    static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    private static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}
