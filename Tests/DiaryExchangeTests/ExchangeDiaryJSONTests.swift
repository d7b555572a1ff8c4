import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// The lossless diary JSON export: export, import into a new vault, and nothing differs.
final class ExchangeDiaryJSONTests: ExchangeTestCase {
    func testExportThenImportIntoNewVaultReproducesEveryEntryExactly() throws {
        forEachStoreKind { kind in
            let source = try makeVault(kind, name: "source-\(kind)")
            try source.add(
                text: "서울의 봄 🌸\n오늘은 날씨가 좋았다.\n\n👩‍💻 multi\nline", date: date("2023-09-15T10:30:00Z"), starred: true,
                tags: ["여행", "korea"])
            try source.add(text: "Title only", date: Date(millisecondsSince1970: 1_708_614_000_123), tags: [])
            try source.add(
                text: "Before 1970 \"quoted\" \\ slash / tab\t", date: Date(millisecondsSince1970: -86_400_001))
            _ = try source.importEntries(
                Importer.read(
                    .jrnl,
                    from: [
                        try fixture(
                            "j-\(kind).json",
                            #"{"entries": [{"title": "from jrnl", "body": "", "date": "2022-05-05", "time": "07:07", "tags": ["@x"]}]}"#
                        )
                    ]
                ).entries)
            let originals = try source.list().map { try source.entry($0.id) }
            XCTAssertEqual(originals.count, 4)

            let url = try fixture("export-\(kind).json", bytes: Array(Exporter.json(originals)))
            let batch = try Importer.read(.diary, from: [url])
            XCTAssertEqual(batch.entries, originals)

            let target = try makeVault(kind, name: "target-\(kind)")
            let outcome = try target.importEntries(batch.entries)
            XCTAssertEqual(Set(outcome.imported), Set(originals.map(\.id)))
            let restored = try target.list().map { try target.entry($0.id) }
            XCTAssertEqual(restored, originals)

            let again = try target.importEntries(Importer.read(.diary, from: [url]).entries)
            XCTAssertEqual(again.imported, [])
            XCTAssertEqual(again.duplicates, 4)
        }
    }

    func testExportHasSortedKeysAndMillisecondUTCDates() throws {
        let id = UUID(uuidString: "0A1B2C3D-0000-4000-8000-000000000001")!
        let entry = Entry(
            id: id, text: "a", date: Date(millisecondsSince1970: 1_708_614_000_123),
            created: Date(millisecondsSince1970: 0), modified: Date(millisecondsSince1970: -1), starred: false,
            tags: ["t"])
        let text = String(decoding: Exporter.json([entry]), as: UTF8.self)
        XCTAssertEqual(
            text,
            """
            {
              "entries" : [
                {
                  "created" : "1970-01-01T00:00:00.000Z",
                  "date" : "2024-02-22T15:00:00.123Z",
                  "id" : "0a1b2c3d-0000-4000-8000-000000000001",
                  "modified" : "1969-12-31T23:59:59.999Z",
                  "starred" : false,
                  "tags" : [
                    "t"
                  ],
                  "text" : "a"
                }
              ],
              "format" : "diary-export",
              "version" : 1
            }

            """)
    }

    func testUnknownVersionAndForeignFilesAreRefused() throws {
        let future = try fixture("v2.json", #"{"format": "diary-export", "version": 2, "entries": []}"#)
        XCTAssertThrowsExchangeError(
            .unsupportedVersion(file: future.path, found: 2, supported: 1), try Importer.read(.diary, from: [future]))
        let jrnl = try fixture("jrnl.json", #"{"tags": {}, "entries": []}"#)
        XCTAssertThrowsExchangeError(
            .notAnExport(file: jrnl.path, expected: "diary json", detail: "no \"format\": \"diary-export\""),
            try Importer.read(.diary, from: [jrnl]))
    }

    func testEntryWithBadFieldsIsRefusedNamingItsIdAndLine() throws {
        let head = #"{"format": "diary-export", "version": 1, "entries": ["#
        let good =
            #"{"id": "0a1b2c3d-0000-4000-8000-000000000001", "text": "a", "date": "2024-01-01T00:00:00.000Z", "created": "2024-01-01T00:00:00.000Z", "modified": "2024-01-01T00:00:00.000Z", "starred": false, "tags": []}"#
        let cases: [(String, String)] = [
            (
                good.replacingOccurrences(of: #""starred": false"#, with: #""starred": "no""#),
                "'starred' is a string, not true or false (line 3)"
            ),
            (
                good.replacingOccurrences(
                    of: #""date": "2024-01-01T00:00:00.000Z""#, with: #""date": "2024-02-30T00:00:00.000Z""#),
                "'date' is not a valid date: '2024-02-30T00:00:00.000Z' (line 3)"
            ),
            (good.replacingOccurrences(of: #", "tags": []"#, with: ""), "'tags' is missing (line 3)"),
            (
                good.replacingOccurrences(of: #""tags": []"#, with: #""tags": [1]"#),
                "'tags' holds a number, not only strings (line 3)"
            ),
        ]
        for (n, (bad, detail)) in cases.enumerated() {
            let url = try fixture(
                "bad\(n).json", head + "\n" + good.replacingOccurrences(of: "0001", with: "0002") + ",\n" + bad + "\n]}"
            )
            XCTAssertThrowsExchangeError(
                .invalidEntry(file: url.path, entry: 2, id: "0a1b2c3d-0000-4000-8000-000000000001", detail: detail),
                try Importer.read(.diary, from: [url]))
        }
    }
}
