import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryExchange
@testable import DiaryVault

/// Attachments through export and import: the JSON export's folder beside the file comes back
/// byte for byte in both stores; entries without attachments export exactly as before; Day
/// One's media and Markdown's images are attached; HTML shows images inline and nothing else.
final class ExchangeAttachmentTests: ExchangeTestCase {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0x42, count: 300)

    private func input(_ bytes: [UInt8], name: String, type: String) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name, type: type)
    }

    private func read(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    /// 200 KiB of varied bytes: several stream chunks.
    private let large: [UInt8] = (0..<(200 << 10)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 >> 9) }

    /// A vault with an entry holding a PNG and a large file (a name that needs escaping in
    /// Markdown), and one without attachments; returns (with, without).
    private func vaultWithAttachments(_ kind: StoreKind, name: String) throws -> (Vault, Entry, Entry) {
        let vault = try makeVault(kind, name: name)
        let plain = try vault.add(text: "No files\n\nJust words.", tags: ["t"])
        let with = try vault.add(
            text: "Photos\n\nA day out.", starred: true,
            attachments: [
                input(Self.png, name: "view (1).png", type: "image/png"),
                input(large, name: "notes #2.bin", type: "application/octet-stream"),
            ])
        return (vault, try vault.entry(with.id), try vault.entry(plain.id))
    }

    private func importDiary(_ url: URL, into vault: Vault, keepMetadata: Bool = false) throws -> (ImportOutcome, Int) {
        var missing = 0
        let opener = ImportAttachmentOpener(keepMetadata: keepMetadata)
        let outcome = try vault.importEntries(items: { body in
            try Importer.forEachDiaryItem(in: [url], opener: opener, missing: &missing, body)
        })
        return (outcome, missing)
    }

    func testJSONExportWritesTheFilesBesideItAndImportsBackByteForByte() throws {
        for (from, to) in [(StoreKind.sqlite, StoreKind.files), (.files, .sqlite)] {
            let (vault, with, plain) = try vaultWithAttachments(from, name: "json-\(from)")
            let url = path("out-\(from)/diary.json")
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let folder = ExportAttachmentFolder(besideFile: url)
            XCTAssertEqual(folder.relative, "diary.attachments")
            let ids = try vault.list().map(\.id)
            let done = try Exporter.json(vault, ids: ids, to: ExportOutput(newFile: url), attachments: folder)
            XCTAssertEqual(done, ExportedAttachments(written: 2, notWritten: 0))

            let id = with.id.uuidString.lowercased()
            let dir = folder.url.appendingPathComponent(id)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("view (1).png")), Data(Self.png))
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("notes #2.bin")), Data(large))
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
                ["notes #2.bin", "view (1).png"])
            for (p, mode) in [(folder.url.path, 0o700), (dir.path, 0o700), (dir.path + "/view (1).png", 0o600)] {
                let attributes = try FileManager.default.attributesOfItem(atPath: p)
                XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, mode, p)
            }
            let json = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(json.contains("\"path\" : \"diary.attachments/\(id)/view (1).png\""), json)
            XCTAssertTrue(json.contains("\"size\" : \(large.count),"), json)
            // The entry without attachments is exactly as an export without attachments writes it.
            let calendar = DiaryJSONWriter.calendar(in: .current)
            XCTAssertTrue(
                json.contains(String(decoding: DiaryJSONWriter.object(plain, calendar: calendar), as: UTF8.self)))

            let fresh = try makeVault(to, name: "json-back-\(from)")
            let (outcome, missing) = try importDiary(url, into: fresh)
            XCTAssertEqual(outcome.imported.count, 2)
            XCTAssertEqual(outcome.attachments, 2)
            XCTAssertEqual(missing, 0)
            let back = try fresh.entry(with.id)
            XCTAssertEqual(back.text, with.text)
            XCTAssertEqual(back.attachments.map(\.name), with.attachments.map(\.name))
            XCTAssertEqual(back.attachments.map(\.mediaType), with.attachments.map(\.mediaType))
            XCTAssertEqual(back.attachments.map(\.added), with.attachments.map(\.added))
            XCTAssertEqual(back.attachments.map(\.length), with.attachments.map(\.length))
            XCTAssertEqual(try read(fresh, back.attachments[0]), Self.png)
            XCTAssertEqual(try read(fresh, back.attachments[1]), large)
            XCTAssertEqual(try fresh.entry(plain.id), try vault.entry(plain.id))

            // A second import adds nothing and seals nothing.
            let objects = try fresh.backend.attachmentIDs().count
            let (again, _) = try importDiary(url, into: fresh)
            XCTAssertEqual(again.imported, [])
            XCTAssertEqual(again.duplicates, 2)
            XCTAssertEqual(try fresh.backend.attachmentIDs().count, objects)
            // And exporting the re-imported vault gives the same JSON.
            let second = path("out-\(from)/second.json")
            try Exporter.json(
                fresh, ids: ids, to: ExportOutput(newFile: second),
                attachments: ExportAttachmentFolder(besideFile: second))
            XCTAssertEqual(
                try String(contentsOf: second, encoding: .utf8).replacingOccurrences(
                    of: "second.attachments", with: "diary.attachments"),
                json)
        }
    }

    func testEntriesWithoutAttachmentsExportExactlyAsBefore() throws {
        let (vault, _, plain) = try vaultWithAttachments(.sqlite, name: "plain")
        let url = path("plain.json")
        let folder = ExportAttachmentFolder(besideFile: url)
        let done = try Exporter.json(vault, ids: [plain.id], to: ExportOutput(newFile: url), attachments: folder)
        XCTAssertEqual(done, ExportedAttachments())
        XCTAssertEqual(try Data(contentsOf: url), Exporter.json([plain]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.path), "no folder without attachments")

        let md = path("plain.md")
        try Exporter.markdownDocument(
            vault, ids: [plain.id], to: ExportOutput(newFile: md), timeZone: utc, attachments: folder)
        XCTAssertEqual(try String(contentsOf: md, encoding: .utf8), Exporter.markdownDocument([plain], timeZone: utc))
        let html = path("plain.html")
        try Exporter.html(
            vault, entries: try vault.list().filter { $0.id == plain.id }, to: ExportOutput(newFile: html))
        let page = try String(contentsOf: html, encoding: .utf8)
        XCTAssertTrue(
            page.contains(
                "content=\"default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'\""), page)
    }

    func testToStdoutAttachmentsAreListedWithoutPathsAndImportAsMissing() throws {
        let (vault, with, _) = try vaultWithAttachments(.files, name: "stdout")
        let url = path("listed.json")
        let done = try Exporter.json(vault, ids: try vault.list().map(\.id), to: ExportOutput(newFile: url))
        XCTAssertEqual(done, ExportedAttachments(written: 0, notWritten: 2))
        let json = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(json.contains("\"name\" : \"view (1).png\""))
        XCTAssertFalse(json.contains("\"path\""))
        let fresh = try makeVault(.sqlite, name: "stdout-back")
        let (outcome, missing) = try importDiary(url, into: fresh)
        XCTAssertEqual(outcome.imported.count, 2)
        XCTAssertEqual(missing, 2)
        XCTAssertEqual(try fresh.entry(with.id).attachments, [])

        // Markdown: named only without a folder; linked, the files beside, with one.
        let listed = path("listed.md")
        let none = try Exporter.markdownDocument(vault, ids: [with.id], to: ExportOutput(newFile: listed))
        XCTAssertEqual(none, ExportedAttachments(written: 0, notWritten: 2))
        XCTAssertTrue(try String(contentsOf: listed, encoding: .utf8).contains("\n*Attachment: view \\(1\\)\\.png*\n"))
        let linked = path("linked.md")
        let folder = ExportAttachmentFolder(besideFile: linked)
        let written = try Exporter.markdownDocument(
            vault, ids: [with.id], to: ExportOutput(newFile: linked), attachments: folder)
        XCTAssertEqual(written, ExportedAttachments(written: 2, notWritten: 0))
        let id = with.id.uuidString.lowercased()
        let text = try String(contentsOf: linked, encoding: .utf8)
        XCTAssertTrue(
            text.hasSuffix(
                "\n![view \\(1\\)\\.png](linked.attachments/\(id)/view%20%281%29.png)\n\n"
                    + "[notes \\#2\\.bin](linked.attachments/\(id)/notes%20%232.bin)\n"), text)
        XCTAssertEqual(try Data(contentsOf: folder.url.appendingPathComponent("\(id)/notes #2.bin")), Data(large))
    }

    func testAnExistingFolderIsRefusedAndAFailedExportLeavesNothing() throws {
        let (vault, _, _) = try vaultWithAttachments(.sqlite, name: "exists")
        let url = path("exists.json")
        let folder = ExportAttachmentFolder(besideFile: url)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        XCTAssertThrowsExchangeError(.outputExists(path: folder.url.path), try folder.refuseExisting())
        XCTAssertThrowsError(
            try Exporter.json(
                vault, ids: try vault.list().map(\.id), to: ExportOutput(newFile: url), attachments: folder))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "the JSON file was removed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [], "the folder untouched")
    }

    func testPathsOutsideTheAttachmentsFolderAreRefused() throws {
        let secret = try fixture("secret.bin", "not for import")
        let (vault, with, _) = try vaultWithAttachments(.sqlite, name: "escape")
        let url = path("escape/diary.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Exporter.json(
            vault, ids: [with.id], to: ExportOutput(newFile: url), attachments: ExportAttachmentFolder(besideFile: url))
        let json = try String(contentsOf: url, encoding: .utf8)
        let id = with.id.uuidString.lowercased()
        let good = "diary.attachments/\(id)/view (1).png"
        for bad in [
            "../secret.bin", "diary.attachments/../../secret.bin", "/etc/passwd", "other/\(id)/x.png",
            "diary.attachments//x",
        ] {
            let file = path("escape/bad.json")
            try? FileManager.default.removeItem(at: file)
            try Data(json.replacingOccurrences(of: good, with: bad).utf8).write(to: file)
            XCTAssertThrowsError(try importDiary(file, into: try makeVault(.files, name: "e-\(UUID())")), bad) {
                error in
                XCTAssertTrue("\(error)".contains("leaves its attachments folder"), "\(error)")
            }
        }
        // A file of another length than the export says, a FIFO, and a symbolic link inside
        // the folder that leads out of it: refused, nothing stored.
        let file = path("escape/diary.attachments/\(id)/view (1).png")
        try Data(Self.png + [0]).write(to: file)
        let changed = try makeVault(.files, name: "changed")
        XCTAssertThrowsError(try importDiary(url, into: changed)) {
            XCTAssertTrue("\($0)".contains("the export says \(Self.png.count)"), "\($0)")
        }
        XCTAssertEqual(try changed.list(), [])
        XCTAssertEqual(try changed.backend.attachmentIDs(), [])
        try FileManager.default.removeItem(at: file)
        XCTAssertEqual(mkfifo(file.path, 0o600), 0)
        XCTAssertThrowsError(try importDiary(url, into: try makeVault(.files, name: "fifo"))) {
            XCTAssertTrue("\($0)".contains("not a regular file"), "\($0)")
        }
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: secret)
        XCTAssertThrowsError(try importDiary(url, into: try makeVault(.files, name: "link")))
        // The attachments folder itself a link to a folder elsewhere (a tarball can carry one
        // pointing at ~/.ssh): refused like a link inside it.
        let elsewhere = path("elsewhere/\(id)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try Data(Self.png).write(to: elsewhere.appendingPathComponent("view (1).png"))
        let folder = path("escape/diary.attachments")
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: path("elsewhere"))
        let linked = try makeVault(.files, name: "linked-folder")
        XCTAssertThrowsError(try importDiary(url, into: linked)) {
            XCTAssertTrue("\($0)".contains("leaves its attachments folder"), "\($0)")
        }
        XCTAssertEqual(try linked.backend.attachmentIDs(), [])
    }

    func testDayOneZipImportsItsMediaLinkedToTheirEntries() throws {
        let zip = try XCTUnwrap(Bundle.module.url(forResource: "Resources", withExtension: nil))
            .appendingPathComponent("DayOne/media.zip")
        let jpeg = try XCTUnwrap(Bundle.module.url(forResource: "Resources", withExtension: nil))
            .appendingPathComponent("JPEG")
        for (kind, keep) in [(StoreKind.sqlite, false), (.files, true)] {
            let vault = try makeVault(kind, name: "dayone-\(kind)")
            let batch = try Importer.read(.dayone, from: [zip], attachments: true)
            let outcome = try vault.importEntries(items: batch.items(ImportAttachmentOpener(keepMetadata: keep)))
            XCTAssertEqual(outcome.imported.count, 3)
            XCTAssertEqual(outcome.attachments, 5)
            XCTAssertEqual(batch.attachmentsMissing, 3)
            let entries = try outcome.imported.map { try vault.entry($0) }
            let media1 = try XCTUnwrap(entries.first { $0.source == "dayone:MEDIA1" })
            XCTAssertEqual(media1.attachments.map(\.name), ["photo-1.jpeg", "video-1.mov"])
            XCTAssertEqual(media1.attachments[0].mediaType, "image/jpeg")
            let expected = try Data(
                contentsOf: jpeg.appendingPathComponent(keep ? "gps-all.jpg" : "gps-all.stripped.jpg"))
            XCTAssertEqual(try read(vault, media1.attachments[0]), [UInt8](expected), keep ? "kept" : "EXIF removed")
            XCTAssertEqual(try read(vault, media1.attachments[1]), (0..<20000).map { UInt8(($0 * 7) % 251) })
            let media2 = try XCTUnwrap(entries.first { $0.source == "dayone:MEDIA2" })
            // A photo listed without a type is found by its md5 (the .heic); two are not in the zip.
            XCTAssertEqual(media2.attachments.map(\.name), ["photo-1.heic", "audio-1.m4a", "document-1.pdf"])
            XCTAssertEqual(media2.attachments[2].mediaType, "application/pdf")
            XCTAssertEqual(try read(vault, media2.attachments[1]), (0..<(3 << 20)).map { UInt8(($0 * 3) % 251) })
            XCTAssertEqual(try XCTUnwrap(entries.first { $0.source == "dayone:PLAIN" }).attachments, [])

            // The second import adds nothing and seals nothing.
            let objects = try vault.backend.attachmentIDs().count
            let again = try vault.importEntries(
                items: try Importer.read(.dayone, from: [zip], attachments: true).items(ImportAttachmentOpener()))
            XCTAssertEqual(again.imported, [])
            XCTAssertEqual(again.duplicates, 3)
            XCTAssertEqual(try vault.backend.attachmentIDs().count, objects)
        }
    }

    func testAnImageOverTheLimitIsRefusedBeforeItIsReadAndNamed() throws {
        try fixture("huge/2024-02-02-h.md", "Huge\n\n![](img/huge.png)\n")
        let image = path("huge/img/huge.png")
        try FileManager.default.createDirectory(
            at: image.deletingLastPathComponent(), withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: image.path, contents: Data([0x89])))
        XCTAssertEqual(truncate(image.path, off_t(AttachmentLimits.maximumLength) + 1), 0)  // sparse
        let vault = try makeVault(.files, name: "huge-vault")
        let batch = try Importer.read(.markdown, from: [path("huge")], attachments: true)
        XCTAssertThrowsError(try vault.importEntries(items: batch.items(ImportAttachmentOpener()))) {
            XCTAssertTrue("\($0)".contains("huge.png") && "\($0)".contains("larger than 4 GiB"), "\($0)")
        }
        XCTAssertEqual(try vault.list(), [])
    }

    func testMarkdownImagesAreAttachedAndMarkdownExportLinksItsFiles() throws {
        try fixture("notes/img/view.png", bytes: Self.png)
        try fixture("notes/2024-05-01-walk.md", "A walk\n\n![the view](img/view.png) and ![gone](img/none.png)\n")
        let vault = try makeVault(.files, name: "md")
        let batch = try Importer.read(.markdown, from: [path("notes")], attachments: true)
        XCTAssertEqual(batch.attachmentsMissing, 1)
        let outcome = try vault.importEntries(items: batch.items(ImportAttachmentOpener()))
        XCTAssertEqual(outcome.attachments, 1)
        let entry = try vault.entry(try XCTUnwrap(outcome.imported.first))
        XCTAssertEqual(entry.attachments.map(\.name), ["view.png"])
        XCTAssertEqual(entry.attachments.first?.mediaType, "image/png")
        XCTAssertEqual(try read(vault, entry.attachments[0]), Self.png)

        // One file per entry: the image in attachments/<id>/, linked; importing the directory
        // attaches it again.
        let (other, with, _) = try vaultWithAttachments(.sqlite, name: "md-out")
        let dir = path("md-out")
        try Exporter.markdownFiles(other, ids: try other.list().map(\.id), into: dir, timeZone: utc)
        let id = with.id.uuidString.lowercased()
        let file = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.contains(String(id.prefix(8))) })
        let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
        XCTAssertTrue(text.contains("![view \\(1\\)\\.png](attachments/\(id)/view%20%281%29.png)"), text)
        XCTAssertTrue(text.contains("[notes \\#2\\.bin](attachments/\(id)/notes%20%232.bin)"), text)
        XCTAssertEqual(
            try Data(contentsOf: dir.appendingPathComponent("attachments/\(id)/view (1).png")), Data(Self.png))
        let back = try makeVault(.files, name: "md-back")
        let reread = try Importer.read(.markdown, from: [dir], attachments: true)
        let imported = try back.importEntries(items: reread.items(ImportAttachmentOpener()))
        XCTAssertEqual(imported.attachments, 1, "the image is linked as one; the other file is a link")
    }

    /// An imported phone photo loses what follows its image too; one cut short is refused by
    /// name, with nothing imported, unless its metadata is kept.
    func testImportedJPEGsLoseTheirTrailerAndACutOneIsRefusedByName() throws {
        let mpf = try JPEGMetadataStripperTests.resource("mpf.jpg")
        try fixture("phone-notes/img/two.jpg", bytes: mpf)
        try fixture("phone-notes/2024-05-01.md", "Two\n\n![](img/two.jpg)\n")
        let vault = try makeVault(.files, name: "phone")
        let outcome = try vault.importEntries(
            items: try Importer.read(.markdown, from: [path("phone-notes")], attachments: true).items(
                ImportAttachmentOpener()))
        let entry = try vault.entry(try XCTUnwrap(outcome.imported.first))
        XCTAssertEqual(
            try read(vault, entry.attachments[0]), try JPEGMetadataStripperTests.resource("mpf.stripped.jpg"))

        let cut = try fixture("cut-notes/img/cut.jpg", bytes: Array(mpf.prefix(500)))
        try fixture("cut-notes/2024-05-02.md", "Cut\n\n![](img/cut.jpg)\n")
        let refusing = try makeVault(.sqlite, name: "cut")
        let batch = try Importer.read(.markdown, from: [path("cut-notes")], attachments: true)
        XCTAssertThrowsError(try refusing.importEntries(items: batch.items(ImportAttachmentOpener()))) {
            XCTAssertEqual($0 as? ExchangeError, .malformedJPEG(file: cut.path))
        }
        XCTAssertEqual(try refusing.list(), [])
        XCTAssertEqual(try refusing.unreferencedAttachments(), [])
        let kept = try refusing.importEntries(items: batch.items(ImportAttachmentOpener(keepMetadata: true)))
        XCTAssertEqual(kept.attachments, 1)
    }

    func testHTMLShowsImagesInlineAndAllowsNothingElse() throws {
        let (vault, _, _) = try vaultWithAttachments(.sqlite, name: "html")
        let url = path("page.html")
        try Exporter.html(vault, entries: try vault.list(), to: ExportOutput(newFile: url))
        let page = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(
            page.contains(
                "content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; base-uri 'none'\""
            ),
            page)
        let data = "src=\"data:image/png;base64,\(Data(Self.png).base64EncodedString())\""
        XCTAssertTrue(page.contains("<img style=\"max-width:100%;height:auto\" alt=\"view (1).png\" \(data)>"), page)
        XCTAssertTrue(
            page.contains(
                "<li>notes #2.bin <span class=\"type\">(application/octet-stream, \(large.count) bytes)</span></li>"))
        XCTAssertFalse(page.contains("<script"))
        XCTAssertFalse(page.contains("attachments/"), "no link to a local file")
        XCTAssertEqual(page.components(separatedBy: "<img ").count, 2, "one image")
    }
}
