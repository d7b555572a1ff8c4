import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The template plaintext (entry plaintext version 2, FORMAT.md §7.5) and its index row:
/// round trips, and everything a reader must refuse.
final class TemplateCodecTests: XCTestCase {
    private let id = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    private let time = Date(millisecondsSince1970: 1_700_000_000_000)

    private func template(name: String = "Evening", prompts: [String] = ["What went well?"], text: String = "{date}")
        -> Entry
    {
        Entry(
            id: id, text: text, date: time, created: time, modified: time.addingTimeInterval(60), starred: false,
            tags: [], template: TemplateFields(name: name, recentPrompts: prompts))
    }

    func testATemplateRoundTripsAsVersionTwo() throws {
        let original = template(prompts: ["A", "B\twith a tab", "C"])
        let bytes = EntryCodec.encode(original)
        XCTAssertEqual(Array(bytes.prefix(2)), [2, 1], "version 2, kind 1")
        XCTAssertEqual(try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20), original)
    }

    func testAnOrdinaryEntryKeepsItsVersionOneBytes() throws {
        let entry = Entry(
            id: id, text: "hello", date: time, created: time, modified: time, starred: true, tags: ["a"])
        var expected = ByteWriter(capacity: 64)
        expected.u8(1)
        for _ in 0..<3 { expected.i64(time.millisecondsSince1970) }
        expected.u8(1)
        expected.u8(1)
        expected.string16("a")
        expected.string16("")
        expected.string32("hello")
        XCTAssertEqual(EntryCodec.encode(entry), expected.bytes)
    }

    /// Each change makes a plaintext a writer could not have written.
    func testAReaderRefusesWhatNoWriterWrites() throws {
        let good = EntryCodec.encode(template())
        var cases: [(String, [UInt8])] = []
        var kind = good
        kind[1] = 2
        cases.append(("unknown kind", kind))
        cases.append(("trailing byte", good + [0]))
        cases.append(("truncated", Array(good.dropLast())))
        cases.append(("blank name", EntryCodec.encode(template(name: ""))))
        cases.append(("name with a newline", EntryCodec.encode(template(name: "a\nb"))))
        cases.append(("name with a space at its end", EntryCodec.encode(template(name: "a "))))
        cases.append(("long name", EntryCodec.encode(template(name: String(repeating: "n", count: 201)))))
        cases.append(("17 prompts", EntryCodec.encode(template(prompts: (0..<17).map { "p\($0)" }))))
        cases.append(("blank prompt", EntryCodec.encode(template(prompts: [" "]))))
        cases.append(("long prompt", EntryCodec.encode(template(prompts: [String(repeating: "p", count: 1025)]))))
        cases.append(("blank text", EntryCodec.encode(template(text: " \n"))))
        for (what, bytes) in cases {
            XCTAssertThrowsError(try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20), what)
        }
        XCTAssertThrowsError(try EntryCodec.decode(good, id: id, textLimit: 3), "text over the limit")
        XCTAssertNoThrow(
            try EntryCodec.decode(
                EntryCodec.encode(template(name: String(repeating: "n", count: 200))), id: id, textLimit: 1 << 20))
    }

    func testATemplateRowRoundTripsAndAStarredOrTaggedOneIsRefused() throws {
        let row = IndexRow(summary: template().summary, sealTag: Array(repeating: 7, count: 16))
        XCTAssertTrue(row.summary.isTemplate)
        XCTAssertEqual(row.summary.title, "Evening")
        var page = IndexPage(number: 1 << IndexLayout.minimumDepth | IndexLayout.head(of: id) >> 10)
        page.upsert(row)
        let decoded = try IndexPage.decode(
            page.encoded(), number: page.number, version: IndexLayout.version, expectedCount: 1)
        XCTAssertEqual(decoded.row(id), row)
        XCTAssertTrue(decoded.isTemplate(rowAt: 0))

        let flagsAt = 9 + 40
        for (what, flags) in [("starred template", UInt8(3)), ("unknown bit", UInt8(4))] {
            var bytes = page.encoded()
            bytes[flagsAt] = flags
            XCTAssertThrowsError(
                try IndexPage.decode(bytes, number: page.number, version: IndexLayout.version, expectedCount: 1), what)
        }
        var tagged = row
        tagged.summary.tags = ["x"]
        var taggedPage = IndexPage(number: page.number)
        taggedPage.upsert(tagged)
        XCTAssertThrowsError(
            try IndexPage.decode(
                taggedPage.encoded(), number: page.number, version: IndexLayout.version, expectedCount: 1))
    }
}
