import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// The exports written straight from a vault, a batch at a time, give exactly the bytes the
/// JSONEncoder-based export gave, on entries chosen to exercise every escape and date form.
final class ExchangeStreamedExportTests: ExchangeTestCase {
    /// Every ASCII character, separators JSON allows raw, emoji, and the odd dates.
    func variedEntries(_ count: Int) -> [Entry] {
        var ascii = ""
        for byte in 1..<0x80 { ascii.unicodeScalars.append(Unicode.Scalar(UInt8(byte))) }
        let texts = [
            "plain", ascii, "é \u{2028}\u{2029}\u{FEFF} 서울 👩‍💻 / \\ \"q\"", "line\nline\r\n\ttab",
            "\u{7F}\u{80}\u{9F}\u{A0} end",
        ]
        let dates: [Int64] = [
            0, -1, -86_400_001, 1_708_614_000_123, 253_402_300_799_999, -62_135_596_800_000, -62_198_755_200_000,
        ]
        let tagSets: [[String]] = [[], ["a"], ["tag \"x\"", "b\\c", "ü/ß"]]
        return (0..<count).map { i in
            let id = UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", i, i * 7919))!
            let date = Date(millisecondsSince1970: dates[i % dates.count] + Int64(i))
            let created = Date(millisecondsSince1970: dates[(i + 3) % dates.count])
            let modified = Date(millisecondsSince1970: dates[(i + 5) % dates.count] + 999)
            let source: String? = i % 4 == 0 ? "jrnl:\(i) \"src\"" : nil
            return Entry(
                id: id, text: texts[i % texts.count] + " \(i)", date: date, created: created, modified: modified,
                starred: i % 3 == 0, tags: tagSets[i % 3], source: source, isCalendarDay: i % 5 == 0)
        }
    }

    func testWriterGivesJSONEncodersBytes() throws {
        for count in [0, 1, 2, 37] {
            let entries = variedEntries(count)
            XCTAssertEqual(
                String(decoding: Exporter.json(entries), as: UTF8.self),
                String(decoding: Self.encoderExport(entries), as: UTF8.self), "\(count) entries")
        }
    }

    func testStreamedExportsEqualTheWholeOnes() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "stream-\(kind)")
            // More than two batches, so batches follow one another while one is being opened.
            let outcome = try vault.importEntries(variedEntries(600))
            XCTAssertEqual(outcome.imported.count, 600)
            let listed = try vault.list().map(\.id)
            for ids in [listed, listed.reversed()] {
                let entries = try ids.map { try vault.entry($0) }
                let url = path("export-\(kind)-\(ids.first!).json")
                try Exporter.json(vault, ids: ids, to: ExportOutput(newFile: url))
                let streamed = try Data(contentsOf: url)
                XCTAssertEqual(streamed, Self.encoderExport(entries))
                let mdURL = path("export-\(kind)-\(ids.first!).md")
                try Exporter.markdownDocument(
                    vault, ids: ids, to: ExportOutput(newFile: mdURL), timeZone: utc,
                    locale: Locale(identifier: "en_US_POSIX"))
                let expected = Exporter.markdownDocument(
                    entries, timeZone: utc, locale: Locale(identifier: "en_US_POSIX"), oldestFirst: ids != listed)
                XCTAssertEqual(try String(contentsOf: mdURL, encoding: .utf8), expected)
            }
        }
    }

    /// A damaged entry stops the export with `entryDamaged`, and the half-written file is gone.
    func testDamagedEntryStopsTheExportAndRemovesTheFile() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "damaged-\(kind)")
            _ = try vault.importEntries(variedEntries(700))
            let ids = try vault.list().map(\.id)
            var sealed = try XCTUnwrap(try vault.backend.readEntry(ids[650]))
            sealed[sealed.count / 2] ^= 1
            try vault.backend.apply(StoreChange(putEntries: [ids[650]: sealed]))
            let url = path("damaged-\(kind).json")
            XCTAssertThrowsError(try Exporter.json(vault, ids: ids, to: ExportOutput(newFile: url))) { error in
                guard case .entryDamaged(let id, _)? = error as? VaultError else { return XCTFail("\(error)") }
                XCTAssertEqual(id, ids[650])
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
        }
    }

    /// A date as the export wrote it through `String(format:)`.
    static func formatUTC(_ date: Date) -> String {
        let ms = date.millisecondsSince1970
        let millis = ((ms % 1000) + 1000) % 1000
        let seconds = (ms - millis) / 1000
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        let day = CalendarDay(ordinal: Int((seconds - secondOfDay) / 86_400))
        let sod = Int(secondOfDay)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", day.year, day.month, day.day, sod / 3600, sod / 60 % 60,
            sod % 60, Int(millis))
    }

    /// The export as `JSONEncoder` wrote it before the streaming writer replaced it.
    static func encoderExport(_ entries: [Entry]) -> Data {
        struct File: Encodable {
            let entries: [Record]
            let format: String
            let version: Int
        }
        struct Record: Encodable {
            let created, date, id, modified: String
            let source: String?
            let starred: Bool
            let tags: [String]
            let text: String
        }
        let file = File(
            entries: entries.map {
                Record(
                    created: formatUTC($0.created),
                    date: $0.isCalendarDay
                        ? ExchangeDates.day($0.date, timeZone: .current) : formatUTC($0.date),
                    id: $0.id.uuidString.lowercased(), modified: formatUTC($0.modified),
                    source: $0.source, starred: $0.starred, tags: $0.tags, text: $0.text)
            }, format: "diary-export", version: 1)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try! encoder.encode(file)
        data.append(0x0A)
        return data
    }
}
