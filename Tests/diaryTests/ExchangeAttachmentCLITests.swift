import Foundation
import XCTest

/// Attachments through `diary import` and `diary export` with the built binary: Day One's media
/// imported with the summary's counts, the JSON export's folder beside `-o` (and the note when
/// going to stdout), and that export imported into a vault of the other store and exported
/// again, byte for byte.
final class ExchangeAttachmentCLITests: XCTestCase {
    /// The Day One export with photos, a video, an audio and a PDF of DiaryExchangeTests.
    static let mediaZip = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DiaryExchangeTests/Resources/DayOne/media.zip")

    func testDayOneMediaExportAndImportBackByteForByte() throws {
        let box = try DiarySandbox(name: "attach-exchange")
        _ = try box.initVault(store: "sqlite")
        let imported = try box.ok(["import", "--from", "dayone", Self.mediaZip.path])
        XCTAssertTrue(
            imported.stderr.contains("attachments imported 5, 3 listed but not found (not imported)"), imported.stderr)
        XCTAssertTrue(
            imported.stderr.contains(
                "removed the metadata of 1 photo (1 with a GPS position); --keep-metadata keeps it"),
            imported.stderr)
        let second = try box.ok(["import", "--from", "dayone", Self.mediaZip.path]).stderr
        XCTAssertTrue(second.contains("duplicates 3"), second)
        XCTAssertFalse(second.contains("removed the metadata"), "nothing read the second time: \(second)")

        let json = box.root.appendingPathComponent("out.json")
        let folder = box.root.appendingPathComponent("out.attachments")
        let exported = try box.ok(["export", "-o", json.path, "--yes"])
        XCTAssertTrue(exported.stderr.contains("and 5 attachments to \(folder.path)/"), exported.stderr)
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.contains(".") }
        XCTAssertEqual(files.count, 5, "\(files)")
        // Another export whose folder is already there is refused before anything is written.
        try FileManager.default.createDirectory(
            at: box.root.appendingPathComponent("taken.attachments"), withIntermediateDirectories: false)
        let taken = try box.run(["export", "-o", box.root.appendingPathComponent("taken.json").path, "--yes"])
        XCTAssertEqual(taken.status, 73, taken.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: box.root.appendingPathComponent("taken.json").path))

        let listed = try box.ok(["export", "--yes"])
        XCTAssertTrue(listed.stdout.contains("\"attachments\" : ["))
        XCTAssertTrue(
            listed.stderr.contains("5 attachments were not written, only listed (give -o FILE to write them)"),
            listed.stderr)

        let fresh = try DiarySandbox(name: "attach-exchange-back")
        _ = try fresh.initVault(store: "files")
        let back = try fresh.ok(["import", "--from", "diary", json.path])
        XCTAssertTrue(back.stderr.contains("imported 3, skipped 0, duplicates 0"), back.stderr)
        XCTAssertTrue(back.stderr.contains("attachments imported 5"), back.stderr)
        let again = fresh.root.appendingPathComponent("again.json")
        try fresh.ok(["export", "-o", again.path, "--yes"])
        XCTAssertEqual(
            try String(contentsOf: again, encoding: .utf8).replacingOccurrences(
                of: "again.attachments/", with: "out.attachments/"),
            try String(contentsOf: json, encoding: .utf8))
        for file in files {
            XCTAssertEqual(
                try Data(contentsOf: fresh.root.appendingPathComponent("again.attachments/" + file)),
                try Data(contentsOf: folder.appendingPathComponent(file)), file)
        }
    }

    /// Files attached with `diary attach` in the files store: the Markdown directory export puts
    /// them in attachments/ and links them; the JSON export imports into the sqlite store, where
    /// `diary extract` gives back the same bytes.
    func testAttachedFilesExportAsMarkdownAndJSONAndExtractAfterImport() throws {
        let box = try DiarySandbox(name: "attach-out")
        _ = try box.initVault(store: "files")
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<5000).map { UInt8($0 % 253) })
        let photo = box.root.appendingPathComponent("view.png")
        try png.write(to: photo)
        let id = try box.ok(["new", "With a view"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try box.ok(["attach", id, photo.path])

        let dir = box.root.appendingPathComponent("md").path + "/"
        try box.ok(["export", "--format", "markdown", "-o", dir, "--yes"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "attachments/\(id)/view.png")), png)
        let file = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".md") })
        XCTAssertTrue(
            try String(contentsOfFile: dir + file, encoding: .utf8).contains(
                "![view\\.png](attachments/\(id)/view.png)"))

        let json = box.root.appendingPathComponent("all.json")
        try box.ok(["export", "-o", json.path, "--yes"])
        let fresh = try DiarySandbox(name: "attach-in")
        _ = try fresh.initVault(store: "sqlite")
        XCTAssertTrue(try fresh.ok(["import", "--from", "diary", json.path]).stderr.contains("attachments imported 1"))
        let out = fresh.root.appendingPathComponent("back.png")
        try fresh.ok(["extract", id, "view.png", "-o", out.path, "--yes"])
        XCTAssertEqual(try Data(contentsOf: out), png)
    }
}
