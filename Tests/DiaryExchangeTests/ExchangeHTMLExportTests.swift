import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// The HTML export: one self-contained page, entries in the order given, a table of contents by
/// year and month, and nothing from an entry that can run or load.
final class ExchangeHTMLExportTests: ExchangeTestCase {
    private func exported(_ entries: [Entry], oldestFirst: Bool = true) throws -> String {
        let vault = try makeVault(.sqlite, name: "html-\(UUID().uuidString.prefix(6))")
        _ = try vault.importEntries(entries)
        let newestFirst = try vault.list()
        let url = path("export-\(UUID().uuidString.prefix(6)).html")
        try Exporter.html(
            vault, entries: oldestFirst ? newestFirst.reversed() : newestFirst, to: ExportOutput(newFile: url),
            timeZone: utc, locale: Locale(identifier: "en_US"))
        return try String(contentsOf: url, encoding: .utf8)
    }

    private func entry(_ text: String, _ iso: String, starred: Bool = false, tags: [String] = []) -> Entry {
        let d = date(iso)
        return Entry(id: UUID(), text: text, date: d, created: d, modified: d, starred: starred, tags: tags)
    }

    func testContentsByYearAndMonthThenEntriesOldestFirst() throws {
        let html = try exported([
            entry("Spring walk\n\nFirst *day* out.", "2023-04-02T09:00:00Z", tags: ["walk"]),
            entry("Late April", "2023-04-28T09:00:00Z", starred: true),
            entry("New year", "2024-01-01T12:00:00Z"),
        ])
        let toc = try XCTUnwrap(html.range(of: "<nav class=\"toc\">")?.upperBound)
        let main = try XCTUnwrap(html.range(of: "<main>")?.lowerBound)
        let contents = String(html[toc..<main])
        let order = ["2023", "April 2023", "Spring walk", "Late April", "2024", "January 2024", "New year"]
        XCTAssertEqual(
            order.compactMap { contents.range(of: $0)?.lowerBound },
            order.compactMap { contents.range(of: $0)?.lowerBound }.sorted())
        XCTAssertEqual(order.compactMap { contents.range(of: $0) }.count, order.count, contents)
        XCTAssertTrue(contents.contains("<a href=\"#m-2023-04\">April 2023</a>"), contents)

        let body = String(html[main...])
        let articles = ["Spring walk", "Late April", "New year"].compactMap {
            body.range(of: "<h3>\($0)</h3>")?.lowerBound
        }
        XCTAssertEqual(articles.count, 3)
        XCTAssertEqual(articles, articles.sorted(), "oldest first")
        XCTAssertEqual(body.components(separatedBy: "<h2 class=\"month\"").count - 1, 2, "one heading per month")
        XCTAssertTrue(body.contains("<span class=\"tag\">#walk</span>"))
        XCTAssertTrue(body.contains("<span class=\"star\">★ starred</span>"))
        XCTAssertTrue(body.contains("<p>First <em>day</em> out.</p>"), body)
        for id in html.matches(of: /href="#(e-[0-9a-f-]+)"/).map({ String($0.1) }) {
            XCTAssertTrue(html.contains("<article id=\"\(id)\">"), "every contents link has its entry: \(id)")
        }
        XCTAssertTrue(html.hasSuffix("</main>\n</body>\n</html>\n"))
    }

    func testNewestFirstWhenGivenSo() throws {
        let html = try exported(
            [entry("Old", "2020-01-01T09:00:00Z"), entry("New", "2021-01-01T09:00:00Z")], oldestFirst: false)
        XCTAssertLessThan(
            try XCTUnwrap(html.range(of: "<h3>New</h3>")?.lowerBound),
            try XCTUnwrap(html.range(of: "<h3>Old</h3>")?.lowerBound))
    }

    /// The page loads nothing: no src, no external stylesheet, no url() in its styles; a print
    /// stylesheet; a policy that forbids scripts.
    func testSelfContainedWithPrintStylesAndAPolicy() throws {
        let html = try exported([
            entry("A\n\n![pic](https://evil.example/p.png) [l](https://ok.example)", "2024-01-01T09:00:00Z")
        ])
        XCTAssertTrue(html.contains("@media print"))
        XCTAssertTrue(html.contains("content=\"default-src 'none'; style-src 'unsafe-inline';"))
        XCTAssertFalse(html.contains("src="), "nothing is loaded")
        XCTAssertFalse(html.contains("url("))
        XCTAssertFalse(html.contains("<link"))
        XCTAssertFalse(html.contains("<script"))
    }

    func testTitlesTagsAndTextsAreEscaped() throws {
        let html = try exported([
            entry(
                "<img src=x onerror=alert(1)> & co\n\n<script>alert(2)</script>\n\n[x](javascript:alert(3))",
                "2024-01-01T09:00:00Z", tags: ["<b>", "a\"b"])
        ])
        XCTAssertFalse(html.contains("<img"))
        XCTAssertFalse(html.contains("<script"))
        XCTAssertFalse(html.contains("<b>"))
        XCTAssertFalse(html.contains("href=\"javascript"))
        XCTAssertTrue(html.contains("<h3>&lt;img src=x onerror=alert(1)&gt; &amp; co</h3>"), html)
        XCTAssertTrue(html.contains("#&lt;b&gt;</span> <span class=\"tag\">#a&quot;b</span>"))
        XCTAssertTrue(html.contains("&lt;script&gt;alert(2)&lt;/script&gt;"))
        XCTAssertTrue(html.contains("x (javascript:alert(3))"))
    }

    /// A text with "\r\n" line ends keeps its title line apart from its body.
    func testCRLFTextHasATitleAndABody() throws {
        let html = try exported([entry("Title line\r\n\r\nThe *body*.\r\n", "2024-01-01T09:00:00Z")])
        XCTAssertTrue(html.contains("<h3>Title line</h3>"), html)
        XCTAssertTrue(html.contains("<p>The <em>body</em>.</p>"), html)
    }
}
