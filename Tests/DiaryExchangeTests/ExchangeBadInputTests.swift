import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Bad import files: each gets a clear error naming the file and the entry or line, and the
/// importer returns nothing, so nothing can reach the vault.
final class ExchangeBadInputTests: ExchangeTestCase {
    func testMalformedJSONNamesTheLine() throws {
        let url = try fixture("broken.json", "{\n  \"entries\": [\n    {\"title\": \"secret words\",}\n  ]\n}")
        XCTAssertThrowsExchangeError(
            .malformedJSON(file: url.path, line: 3, detail: "expected a quoted key"),
            try Importer.read(.jrnl, from: [url]))
        let truncated = try fixture("truncated.json", "{\"entries\": [\n{\"uuid\": \"A\"")
        XCTAssertThrowsExchangeError(
            .malformedJSON(file: truncated.path, line: 2, detail: "expected ',' or '}' in an object"),
            try Importer.read(.dayone, from: [truncated]))
        let duplicate = try fixture("dup.json", "{\"entries\": [], \"entries\": []}")
        XCTAssertThrowsExchangeError(
            .malformedJSON(file: duplicate.path, line: 1, detail: "duplicate key 'entries'"),
            try Importer.read(.jrnl, from: [duplicate]))
        let deep = try fixture("deep.json", String(repeating: "[", count: 10_000))
        XCTAssertThrowsExchangeError(
            .malformedJSON(file: deep.path, line: 1, detail: "nested more than 256 levels deep"),
            try Importer.read(.jrnl, from: [deep]))
    }

    func testDayOneEntryMissingARequiredFieldNamesPositionAndUUID() throws {
        let url = try fixture(
            "missing.json",
            """
            {"metadata": {"version": "1.0"}, "entries": [
              {"uuid": "AAA", "creationDate": "2023-01-01T00:00:00Z", "text": "fine"},
              {"uuid": "BBB", "text": "private words"}
            ]}
            """)
        let error = ExchangeError.invalidEntry(
            file: url.path, entry: 2, id: "BBB", detail: "'creationDate' is missing (line 3)")
        XCTAssertThrowsExchangeError(error, try Importer.read(.dayone, from: [url]))
        XCTAssertEqual(error.description, "\(url.path): entry 2 (BBB): 'creationDate' is missing (line 3)")
    }

    func testWrongTypesAndInvalidDatesAreRefused() throws {
        let cases: [(String, String)] = [
            (
                #"{"uuid": "C", "creationDate": "2023-01-01T00:00:00Z", "text": 42}"#,
                "'text' is a number, not a string (line 1)"
            ),
            (
                #"{"uuid": "C", "creationDate": "2023-01-01T00:00:00Z", "text": "t", "starred": 1}"#,
                "'starred' is a number, not true or false (line 1)"
            ),
            (
                #"{"uuid": "C", "creationDate": "2023-01-01T00:00:00Z", "text": "t", "tags": "x"}"#,
                "'tags' is a string, not an array of strings (line 1)"
            ),
            (
                #"{"uuid": "C", "creationDate": "yesterday", "text": "t"}"#,
                "'creationDate' is not a valid date: 'yesterday' (line 1)"
            ),
            (
                #"{"uuid": "C", "creationDate": "2023-01-01T24:00:00Z", "text": "t"}"#,
                "'creationDate' is not a valid date: '2023-01-01T24:00:00Z' (line 1)"
            ),
        ]
        for (n, (entry, detail)) in cases.enumerated() {
            let url = try fixture("type\(n).json", #"{"entries": ["# + entry + "]}")
            XCTAssertThrowsExchangeError(
                .invalidEntry(file: url.path, entry: 1, id: "C", detail: detail),
                try Importer.read(.dayone, from: [url]))
        }
        let notAnExport = try fixture("list.json", "[1, 2]")
        XCTAssertThrowsExchangeError(
            .notAnExport(file: notAnExport.path, expected: "day one json", detail: "the top level is not an object"),
            try Importer.read(.dayone, from: [notAnExport]))
        let noEntries = try fixture("none.json", #"{"metadata": {}}"#)
        XCTAssertThrowsExchangeError(
            .notAnExport(file: noEntries.path, expected: "jrnl json", detail: "no 'entries' array"),
            try Importer.read(.jrnl, from: [noEntries]))
    }

    func testInvalidUTF8NamesTheLine() throws {
        let bytes =
            Array("{\"entries\": [\n{\"title\": \"ok\",\n\"body\": \"".utf8) + [0xC3, 0x28] + Array("\"}]}".utf8)
        let url = try fixture("latin.json", bytes: bytes)
        XCTAssertThrowsExchangeError(.invalidUTF8(file: url.path, line: 3), try Importer.read(.jrnl, from: [url]))
        let md = try fixture("2024-01-01.md", bytes: [0x61, 0x0A, 0xFF])
        XCTAssertThrowsExchangeError(.invalidUTF8(file: md.path, line: 2), try Importer.read(.markdown, from: [md]))
    }

    func testFileOverTheLimitIsRefusedBeforeReading() throws {
        let url = path("huge.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        // Sparse: the size is what counts, and it is checked before a byte is read.
        try handle.truncate(atOffset: UInt64(Importer.maximumFileBytes + 1))
        try handle.close()
        for format in [ImportFormat.jrnl, .dayone, .diary, .markdown] {
            XCTAssertThrowsExchangeError(
                .tooLarge(file: url.path, bytes: Importer.maximumFileBytes + 1, limit: Importer.maximumFileBytes),
                try Importer.read(format, from: [url]))
        }
    }

    func testOneBadFileAmongGoodOnesRefusesTheWholeImport() throws {
        let vault = try makeVault(.files)
        let good = try fixture("2024-01-01-good.md", "good entry")
        let bad = try fixture("bad.md", "no date")
        XCTAssertThrowsError(try vault.importEntries(Importer.read(.markdown, from: [good, bad]).entries))
        XCTAssertEqual(try vault.list(), [])
    }

    func testErrorMessagesNeverQuoteEntryText() throws {
        let secret = "my secret diary words"
        let inputs: [(ImportFormat, String)] = [
            (.jrnl, #"{"entries": [{"title": "\#(secret)", "body": "\#(secret)", "date": "2023-02-30"}]}"#),
            (.dayone, #"{"entries": [{"uuid": "U", "text": "\#(secret)", "creationDate": 5}]}"#),
            (.diary, #"{"format": "diary-export", "version": 1, "entries": [{"id": "x", "text": "\#(secret)"}]}"#),
            (.jrnl, #"{"entries": [{"title": "\#(secret)" "body": ""}]}"#),
        ]
        for (n, (format, text)) in inputs.enumerated() {
            let url = try fixture("leak\(n).json", text)
            XCTAssertThrowsError(try Importer.read(format, from: [url])) { error in
                XCTAssertFalse("\(error)".contains("secret"), "\(error)")
            }
        }
    }
}
