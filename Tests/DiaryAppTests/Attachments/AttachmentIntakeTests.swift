import DiaryApp
import DiaryExchange
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// Files read to attach: only regular files, refused with their path before anything is
/// stored; a file that changes while read leaves nothing behind; JPEG metadata stripped unless
/// kept, a broken JPEG refused.
final class AttachmentIntakeTests: VaultTestCase {
    /// The JPEG fixtures of the media tests (Tests/DiaryExchangeTests/Resources/JPEG).
    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("DiaryExchangeTests/Resources/JPEG")

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = path(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func read(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    private func assertRefused(
        _ files: [FileToAttach], _ expected: AttachmentFileError, options: AttachOptions = AttachOptions(),
        line: UInt = #line
    ) {
        XCTAssertThrowsError(try PreparedAttachments(files, options: options), line: line) { error in
            XCTAssertEqual(error as? AttachmentFileError, expected, "\(error)", line: line)
        }
    }

    func testOnlyRegularFilesThatExistAreOpened() throws {
        let directory = path("a-directory")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        assertRefused([FileToAttach(path: directory.path)], .notRegularFile(path: directory.path, kind: .directory))
        let fifo = path("a-fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Opened with O_NONBLOCK: a FIFO without a writer is refused at once instead of hanging.
        assertRefused([FileToAttach(path: fifo)], .notRegularFile(path: fifo, kind: .fifo))
        assertRefused([FileToAttach(path: "/dev/null")], .notRegularFile(path: "/dev/null", kind: .device))
        let missing = path("missing.jpg").path
        assertRefused([FileToAttach(path: missing)], .missing(path: missing))
        let empty = try file("empty.txt", [])
        assertRefused([FileToAttach(path: empty)], .empty(path: empty))
        // One bad file among good ones: refused before any is read.
        let good = try file("good.txt", Array("fine".utf8))
        assertRefused([FileToAttach(path: good), FileToAttach(path: missing)], .missing(path: missing))
    }

    func testNamesAreCheckedBeforeAnyFileIsOpened() throws {
        let good = try file("good.txt", Array("fine".utf8))
        assertRefused(
            [FileToAttach(path: good, name: " padded")], .invalidName(name: " padded", path: good))
        assertRefused([FileToAttach(path: good, name: "..")], .invalidName(name: "..", path: good))
        let other = try file("GOOD.TXT", Array("other".utf8))
        XCTAssertThrowsError(
            try PreparedAttachments([FileToAttach(path: good), FileToAttach(path: other)], options: .init())
        ) {
            XCTAssertEqual($0 as? VaultError, .duplicateAttachment("good.txt"), "the name given first")
        }
        let named = try PreparedAttachments([FileToAttach(path: "\(good)", name: "note.md")], options: .init())
        XCTAssertEqual(named.inputs.map(\.name), ["note.md"])
        XCTAssertEqual(named.inputs.map(\.mediaType), ["text/markdown"])
    }

    func testAFileThatGrowsOrShrinksWhileReadIsRefusedAndNothingIsStored() throws {
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind)
            let entry = try vault.add(text: "A walk")
            for change in ["grow", "shrink"] {
                let path = try file("log-\(kind)-\(change).bin", [UInt8](repeating: 7, count: 300_000))
                let prepared = try PreparedAttachments([FileToAttach(path: path)], options: .init())
                var input = prepared.inputs[0]
                let read = input.read
                var calls = 0
                input.read = { buffer in
                    let n = try read(&buffer)
                    calls += 1
                    // After the first piece: another process writes to the file, or cuts it.
                    if calls == 1 {
                        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                        if change == "grow" {
                            try handle.seekToEnd()
                            try handle.write(contentsOf: Data([1, 2, 3]))
                        } else {
                            try handle.truncate(atOffset: 100_000)
                        }
                        try handle.close()
                    }
                    return n
                }
                XCTAssertThrowsError(try vault.attach([input], to: entry.id)) {
                    XCTAssertEqual($0 as? AttachmentFileError, .changedWhileRead(path: path), "\(kind) \(change)")
                }
            }
            XCTAssertEqual(try vault.entry(entry.id).attachments, [], "\(kind)")
            XCTAssertEqual(try vault.unreferencedAttachments(), [], "the sealed objects were removed (\(kind))")
        }
    }

    func testAFileReadToItsEndUnchangedIsAttachedByteForByte() throws {
        let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let path = try file("data.bin", bytes)
        for kind in StoreKind.allCases {
            let vault = try makeVault(kind)
            let prepared = try PreparedAttachments([FileToAttach(path: path)], options: .init())
            let entry = try vault.add(text: "with data", attachments: prepared.inputs)
            XCTAssertEqual(entry.attachments.map(\.mediaType), ["application/octet-stream"])
            XCTAssertEqual(try read(vault, entry.attachments[0]), bytes, "\(kind)")
            XCTAssertEqual(prepared.stripped, [], "not a JPEG: nothing to report")
        }
    }

    func testJPEGMetadataIsStrippedUnlessKeptAndReported() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "A heron")
        let original = fixtures.appendingPathComponent("gps-all.jpg").path
        let stripped = try Array(Data(contentsOf: fixtures.appendingPathComponent("gps-all.stripped.jpg")))
        let prepared = try PreparedAttachments([FileToAttach(path: original)], options: .init())
        let attached = try vault.attach(prepared.inputs, to: entry.id)
        XCTAssertEqual(attached.attachments[0].mediaType, "image/jpeg")
        XCTAssertEqual(try read(vault, attached.attachments[0]), stripped)
        XCTAssertEqual(prepared.stripped.map(\.name), ["gps-all.jpg"])
        XCTAssertTrue(prepared.stripped[0].report.exifHasGPSPosition)
        XCTAssertTrue(prepared.stripped[0].report.removed.contains(.exif))

        let kept = try PreparedAttachments(
            [FileToAttach(path: original, name: "kept.jpg")], options: AttachOptions(keepMetadata: true))
        let again = try vault.attach(kept.inputs, to: entry.id)
        XCTAssertEqual(
            try read(vault, again.attachments[1]), try Array(Data(contentsOf: URL(fileURLWithPath: original))))
        XCTAssertEqual(kept.stripped, [])
    }

    func testABrokenJPEGIsRefusedUnlessItsMetadataIsKept() throws {
        let vault = try makeVault(.files)
        let entry = try vault.add(text: "broken")
        // SOI, then a byte where a marker must be.
        let path = try file("broken.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01] + [UInt8](repeating: 0, count: 100))
        let prepared = try PreparedAttachments([FileToAttach(path: path)], options: .init())
        XCTAssertThrowsError(try vault.attach(prepared.inputs, to: entry.id)) {
            XCTAssertEqual($0 as? AttachmentFileError, .malformedJPEG(path: path))
        }
        XCTAssertEqual(try vault.unreferencedAttachments(), [])
        let kept = try PreparedAttachments([FileToAttach(path: path)], options: AttachOptions(keepMetadata: true))
        XCTAssertEqual(try vault.attach(kept.inputs, to: entry.id).attachments.count, 1)
    }

    /// A phone's multi-picture file: the second image (its own Exif and GPS) goes with the
    /// primary's metadata; the same file cut short is refused.
    func testWhatFollowsThePrimaryImageIsRemovedAndACutImageRefused() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "two pictures")
        let original = try Array(Data(contentsOf: fixtures.appendingPathComponent("mpf.jpg")))
        let stripped = try Array(Data(contentsOf: fixtures.appendingPathComponent("mpf.stripped.jpg")))
        let prepared = try PreparedAttachments(
            [FileToAttach(path: fixtures.appendingPathComponent("mpf.jpg").path)], options: .init())
        let attached = try vault.attach(prepared.inputs, to: entry.id)
        XCTAssertEqual(try read(vault, attached.attachments[0]), stripped)
        let report = try XCTUnwrap(prepared.stripped.first?.report)
        XCTAssertEqual(report.removedKinds, [.exif, .mpf, .trailer])
        XCTAssertTrue(report.exifHasGPSPosition)
        // The trailer is the second image: it starts right after the primary's EOI.
        XCTAssertEqual(Array(original[(original.count - report.trailerBytes)...].prefix(4)), [0xFF, 0xD8, 0xFF, 0xE1])
        XCTAssertEqual(Array(original[..<(original.count - report.trailerBytes)].suffix(2)), [0xFF, 0xD9])

        let cut = try file("cut.jpg", Array(original.prefix(stripped.count)))
        let refused = try PreparedAttachments([FileToAttach(path: cut)], options: .init())
        XCTAssertThrowsError(try vault.attach(refused.inputs, to: entry.id)) {
            XCTAssertEqual($0 as? AttachmentFileError, .malformedJPEG(path: cut))
        }
        XCTAssertEqual(try vault.unreferencedAttachments(), [])
    }
}
