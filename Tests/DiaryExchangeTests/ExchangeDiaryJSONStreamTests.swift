import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// The diary JSON export read a chunk and an entry at a time: the same entries and the same
/// errors as a read of the whole file, wherever the chunks are cut, and an import that fails
/// late stores nothing.
final class ExchangeDiaryJSONStreamTests: ExchangeTestCase {
    private let cuts = [1, 2, 3, 5, 64, JSONChunks.defaultChunkBytes]

    private func entries(_ url: URL, chunkBytes: Int) throws -> [Entry] {
        var read: [Entry] = []
        try DiaryJSONStream.forEachEntry(in: url, chunkBytes: chunkBytes) { read.append($0) }
        return read
    }

    private func sample(_ n: Int, text: String = "서울의 봄 🌸 \"quoted\" \\ tab\t é") -> [Entry] {
        var entries: [Entry] = []
        for i in 0..<n {
            let date = Date(millisecondsSince1970: 1_708_614_000_123 + Int64(i))
            let tags: [String] = i % 3 == 0 ? [] : ["여행", "t\(i)"]
            let source: String? = i % 4 == 0 ? "jrnl:\(i)" : nil
            entries.append(
                Entry(
                    id: UUID(), text: "\(text) \(i)", date: date, created: Date(millisecondsSince1970: 0),
                    modified: Date(millisecondsSince1970: -1), starred: i % 2 == 0, tags: tags, source: source))
        }
        return entries
    }

    func testEveryChunkSizeGivesTheEntriesOfTheWholeFile() throws {
        let originals = sample(5)
        let url = try fixture("export.json", bytes: Array(Exporter.json(originals)))
        // Escapes of every kind, a surrogate pair among them, cut anywhere.
        let escaped = try fixture(
            "escaped.json",
            #"{"entries":[{"created":"1970-01-01T00:00:00.000Z","date":"2024-03-01","id":"0a1b2c3d-0000-4000-8000-000000000001","modified":"1970-01-01T00:00:00.000Z","starred":false,"tags":["\u00e9\ud83c\udf38"],"text":"a\n\u0041\/\"b\b\f\r\t\\"}],"format":"diary-export","version":1.0e0}"#
        )
        for chunkBytes in cuts {
            XCTAssertEqual(try entries(url, chunkBytes: chunkBytes), originals, "chunks of \(chunkBytes)")
            let read = try entries(escaped, chunkBytes: chunkBytes)
            XCTAssertEqual(read.map(\.text), ["a\nA/\"b\u{08}\u{0C}\r\t\\"])
            XCTAssertEqual(read.map(\.tags), [["é🌸"]])
        }
    }

    func testErrorsComeInTheOrderOfAWholeFileRead() throws {
        let good =
            #"{"created":"1970-01-01T00:00:00.000Z","date":"2024-03-01","id":"0a1b2c3d-0000-4000-8000-000000000001","modified":"1970-01-01T00:00:00.000Z","starred":false,"tags":[],"text":"a"}"#
        let tail = #""format":"diary-export","version":1}"#
        let cases: [(String, [UInt8], (String) -> ExchangeError)] = [
            // A bad byte anywhere comes before a syntax error earlier in the file.
            (
                "utf8.json", Array("{\"entries\": [\n}\n\n\"".utf8) + [0xE2, 0x28, 0xA1] + Array("\"".utf8),
                { .invalidUTF8(file: $0, line: 4) }
            ),
            // A sequence cut off by the end of the file.
            ("cut.json", Array("{\"entries\": []}\n\n".utf8) + [0xE2, 0x82], { .invalidUTF8(file: $0, line: 3) }),
            // A syntax error at the end comes before a bad entry at the start.
            (
                "syntax.json", Array("{\"entries\": [{\"id\": 1},\n\(good)], \(tail.dropLast())".utf8),
                { .malformedJSON(file: $0, line: 2, detail: "expected ',' or '}' in an object") }
            ),
            (
                "duplicate.json", Array("{\"entries\": [],\n\"entries\": [], \(tail)".utf8),
                { .malformedJSON(file: $0, line: 2, detail: "duplicate key 'entries'") }
            ),
            // The format, written after the entries, is still checked before them.
            (
                "format.json", Array("{\"entries\": [{\"id\": 1}], \"format\": \"jrnl\", \"version\": 1}".utf8),
                { .notAnExport(file: $0, expected: "diary json", detail: "no \"format\": \"diary-export\"") }
            ),
            (
                "version.json", Array("{\"entries\": [\(good)], \"format\": \"diary-export\", \"version\": 2}".utf8),
                { .unsupportedVersion(file: $0, found: 2, supported: 1) }
            ),
            (
                "object.json", Array("{\"entries\": {\n}, \(tail)".utf8),
                {
                    .notAnExport(
                        file: $0, expected: "diary json", detail: "'entries' is an object, not an array (line 1)")
                }
            ),
            (
                "none.json", Array("{\(tail)".utf8),
                { .notAnExport(file: $0, expected: "diary json", detail: "no 'entries' array") }
            ),
            (
                "top.json", Array("[\(good)]".utf8),
                { .notAnExport(file: $0, expected: "diary json", detail: "the top level is not an object") }
            ),
            // An element that is not an object comes before a bad field in an earlier one.
            (
                "element.json", Array("{\"entries\": [{\"id\": 1},\n\(good),\n7], \(tail)".utf8),
                { .invalidEntry(file: $0, entry: 3, id: nil, detail: "is a number, not an object (line 3)") }
            ),
            (
                "field.json", Array("{\"entries\": [\(good),\n{\"id\": 1}], \(tail)".utf8),
                { .invalidEntry(file: $0, entry: 2, id: nil, detail: "'id' is a number, not a string (line 2)") }
            ),
        ]
        for (name, bytes, expected) in cases {
            let url = try fixture(name, bytes: bytes)
            for chunkBytes in cuts {
                var calls = 0
                XCTAssertThrowsError(
                    try DiaryJSONStream.forEachEntry(in: url, chunkBytes: chunkBytes) { _ in calls += 1 }
                ) {
                    XCTAssertEqual($0 as? ExchangeError, expected(url.path), "\(name), chunks of \(chunkBytes)")
                }
                XCTAssertLessThanOrEqual(calls, 1, name)
            }
        }
    }

    func testAFileErrorComesBeforeTheVaultRefusingAnEarlierEntry() throws {
        let vault = try makeVault(.sqlite)
        var long = sample(1)
        long[0].tags = [String(repeating: "x", count: 300)]
        let first = try fixture("first.json", bytes: Array(Exporter.json(long)))
        let second = try fixture("second.json", "{\"entries\": [}")
        XCTAssertThrowsExchangeError(
            .malformedJSON(file: second.path, line: 1, detail: "unexpected character"),
            try vault.importEntries(from: { try Importer.forEachDiaryEntry(in: [first, second], $0) }))
        XCTAssertThrowsError(try vault.importEntries(from: { try Importer.forEachDiaryEntry(in: [first], $0) })) {
            guard case VaultError.importRefused(position: 1, _) = $0 else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try vault.list().count, 0)
    }

    func testAnImportRefusedAfterPartsWereStoredLeavesTheVaultAsItWas() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind, name: "parts-\(kind)")
            _ = try vault.add(text: "already here")
            let before = try vault.list().map(\.id)
            // More than one part (ParallelBatch.size * 4 entries each) goes to the store before
            // the second reading fails, as it would if the file changed between the readings.
            let entries = sample(ParallelBatch.size * 4 + 10)
            var readings = 0
            let source: ImportSource = { body in
                readings += 1
                for (n, entry) in entries.enumerated() {
                    if readings == 2 && n == entries.count - 1 {
                        throw ExchangeError.malformedJSON(file: "f", line: 1, detail: "changed")
                    }
                    try body(entry)
                }
            }
            XCTAssertThrowsError(try vault.importEntries(from: source))
            XCTAssertEqual(readings, 2)
            XCTAssertEqual(try vault.list().map(\.id), before)
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try reopened.list().map(\.id), before)
            XCTAssertTrue(try reopened.verify().damaged.isEmpty)
            let outcome = try reopened.importEntries(from: { body in try entries.forEach(body) })
            XCTAssertEqual(outcome.imported.count, entries.count)
        }
    }
}
