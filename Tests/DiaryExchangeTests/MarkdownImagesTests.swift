import Foundation
import XCTest

@testable import DiaryExchange

/// Local images linked from Markdown: found inside the imported folder, nowhere else.
final class MarkdownImagesTests: ExchangeTestCase {
    func testLocalImagesInsideTheFolderAreFoundAndEverythingElseIsNot() throws {
        let folder = path("notes")
        try fixture("notes/images/a.png", bytes: [1])
        try fixture("notes/images/b b.jpg", bytes: [2])
        try fixture("notes/other/a.png", bytes: [3])
        try fixture("outside.png", bytes: [4])
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: path("outside.png").path)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("inner.png").path, withDestinationPath: "images/a.png")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("dir.png"), withIntermediateDirectories: true)
        let text = """
            ---
            date: 2024-05-01
            ---
            Day ![one](images/a.png) and ![](images/b%20b.jpg "title") and ![again](./images/a.png)
            ![](other/a.png) ![](inner.png)

            ![](../outside.png) ![](link.png) ![](\(path("outside.png").path)) ![](missing.png) ![](dir.png)
            ![](https://example.org/x.png) ![](data:image/png;base64,AAAA) ![](file:///etc/passwd)
            [a link, not an image](images/a.png) `![](images/a.png)`

                ![](images/b%20b.jpg)
            """
        let md = try fixture("notes/2024-05-01.md", text)
        let batch = try Importer.read(.markdown, from: [folder], timeZone: utc, attachments: true)
        let entry = try XCTUnwrap(batch.entries.first)
        XCTAssertTrue(entry.text.hasPrefix("Day ![one](images/a.png)"))
        let found = try XCTUnwrap(batch.attachments[entry.id])
        let real = { (name: String) in
            URL(fileURLWithPath: folder.appendingPathComponent(name).path).resolvingSymlinksInPath().path
        }
        XCTAssertEqual(
            found.map(\.location),
            [real("images/a.png"), real("images/b b.jpg"), real("other/a.png")].map {
                ImportAttachment.Location.file(URL(fileURLWithPath: $0))
            })
        // The same file twice is one attachment (inner.png is a link to images/a.png); two
        // files with one base name get distinct names.
        XCTAssertEqual(found.map(\.name), ["a.png", "b b.jpg", "a-2.png"])
        XCTAssertEqual(found.map(\.mediaType), ["image/png", "image/jpeg", "image/png"])
        // ../outside.png, link.png (out of the folder), the absolute path, missing.png, dir.png.
        XCTAssertEqual(batch.attachmentsMissing, 5)
        _ = md
    }

    func testWithoutAttachmentsNothingIsLookedFor() throws {
        try fixture("plain/images/a.png", bytes: [1])
        try fixture("plain/2024-05-02.md", "![](images/a.png)")
        let batch = try Importer.read(.markdown, from: [path("plain")], timeZone: utc)
        XCTAssertEqual(batch.attachments, [:])
        XCTAssertEqual(batch.attachmentsMissing, 0)
    }

    func testSchemesAreRecognisedAsRFC3986SpellsThem() {
        for url in ["http://x", "HTTPS://x", "data:,", "file:///a", "c:\\x", "x+y.z-1:abc"] {
            XCTAssertTrue(MarkdownImages.hasScheme(url), url)
        }
        for url in ["a.png", "images/a:b.png", ":x", "1a:b", "./c:d"] {
            XCTAssertFalse(MarkdownImages.hasScheme(url), url)
        }
    }
}
