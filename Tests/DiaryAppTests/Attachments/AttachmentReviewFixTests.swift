import DiaryApp
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// The review's findings on the attachment policy, pinned down: `extract --force` replaces
/// only a regular file, an extract's temporary file is named by its process and removed once
/// that process is gone, names that are not UTF-8, a damaged entry in the listing, and which
/// name a duplicate error names.
final class AttachmentReviewFixTests: VaultTestCase {
    private func input(_ bytes: [UInt8], name: String) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".diary-extract-") }
            .sorted()
    }

    func testForceReplacesOnlyARegularFile() throws {
        let vault = try makeVault(.files)
        let entry = try vault.add(text: "x", attachments: [input([1, 2, 3], name: "a.bin")])
        let record = entry.attachments[0]
        let fifo = path("fifo").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let target = path("target.txt").path
        try Data("elsewhere".utf8).write(to: URL(fileURLWithPath: target))
        let link = path("link").path
        XCTAssertEqual(symlink(target, link), 0)
        let directory = path("dir").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let refused: [(String, FileKind)] = [
            (fifo, .fifo), (link, .symbolicLink), (directory, .directory), ("/dev/null", .device),
        ]
        for (path, kind) in refused {
            XCTAssertThrowsError(try AttachmentExtraction.extract(record, of: vault, to: path, force: true)) {
                XCTAssertEqual($0 as? AttachmentFileError, .notReplaceable(path: path, kind: kind))
            }
        }
        var st = stat()
        XCTAssertEqual(lstat(fifo, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO is left as it was")
        XCTAssertEqual(lstat(link, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFLNK, "the link is left as it was")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "elsewhere")
        XCTAssertEqual(try leftovers(), [])
        // A regular file is replaced.
        try AttachmentExtraction.extract(record, of: vault, to: target, force: true)
        XCTAssertEqual(try Array(Data(contentsOf: URL(fileURLWithPath: target))), [1, 2, 3])
    }

    func testTheTemporaryFileIsNamedByItsOwnerAndTrackedWhileItExists() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "x", attachments: [input([UInt8](repeating: 9, count: 100_000), name: "a")])
        var tracked: [String?] = []
        var existed = false
        try AttachmentExtraction.extract(
            entry.attachments[0], of: vault, to: path("out").path, force: false, owner: "123-456"
        ) { path in
            tracked.append(path)
            if let path { existed = FileManager.default.fileExists(atPath: path) }
        }
        XCTAssertEqual(tracked.count, 2)
        XCTAssertEqual(tracked.last, .some(nil), "forgotten once published")
        let name = URL(fileURLWithPath: tracked[0] ?? "").lastPathComponent
        XCTAssertTrue(
            name.hasPrefix(".diary-extract-123-456-") && name.count == ".diary-extract-123-456-".count + 6, name)
        XCTAssertTrue(existed)
        XCTAssertEqual(try leftovers(), [])
    }

    func testTemporaryFilesOfEndedExtractsAreRemovedAndNoOthers() throws {
        let names = [
            ".diary-extract-41-7-abcdef",  // its process ended
            ".diary-extract-42-7-ghijkl",  // still running
            ".diary-extract-mnopqr",  // not this scheme: whose it is cannot be told
        ]
        for name in names { try Data("plaintext".utf8).write(to: path(name)) }
        let linkName = ".diary-extract-43-7-stuvwx"
        XCTAssertEqual(symlink(path(names[1]).path, path(linkName).path), 0)
        let removed = AttachmentExtraction.removeAbandoned(beside: path("out.jpg").path) { pid, start in
            pid == 42 && start == 7
        }
        XCTAssertEqual(removed, [path(names[0]).path])
        XCTAssertEqual(try leftovers(), [names[1], linkName, names[2]].sorted())
    }

    func testAFileNameThatIsNotUTF8NeedsANameAndIsOpenedByItsBytes() throws {
        let bytes = Array(scratch.path.utf8) + Array("/".utf8) + [0xFF, 0xFE] + Array(".bin".utf8)
        let fd = (bytes + [0]).withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o600) }
        }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(write(fd, "odd name", 8), 8)
        close(fd)
        let unnamed = FileToAttach(pathBytes: bytes)
        XCTAssertThrowsError(try PreparedAttachments([unnamed], options: .init())) {
            XCTAssertEqual($0 as? AttachmentFileError, .nameNotUTF8(path: unnamed.path))
        }
        let vault = try makeVault(.files)
        let prepared = try PreparedAttachments([FileToAttach(pathBytes: bytes, name: "ok.bin")], options: .init())
        let entry = try vault.add(text: "x", attachments: prepared.inputs)
        var read: [UInt8] = []
        try vault.readAttachment(entry.attachments[0]) { read += $0 }
        XCTAssertEqual(read, Array("odd name".utf8))
        XCTAssertEqual(entry.attachments[0].name, "ok.bin")
    }

    func testATrailingSlashOnAFileIsNotCalledMissing() throws {
        let file = path("t1.bin").path
        try Data([1]).write(to: URL(fileURLWithPath: file))
        XCTAssertThrowsError(try PreparedAttachments([FileToAttach(path: file + "/")], options: .init())) {
            XCTAssertEqual($0 as? AttachmentFileError, .unreadable(path: file + "/", errno: ENOTDIR))
        }
    }

    func testADuplicateNameNamesTheAttachmentAlreadyThere() throws {
        let vault = try makeVault(.sqlite)
        let entry = try vault.add(text: "x", attachments: [input([1], name: "Existing.jpg")])
        XCTAssertThrowsError(try vault.attach([input([2], name: "existing.JPG")], to: entry.id)) {
            XCTAssertEqual($0 as? VaultError, .duplicateAttachment("Existing.jpg"))
        }
    }

    func testADamagedEntryIsLeftOutOfTheListingAndNamed() throws {
        let vault = try makeVault(.files)
        let older = try vault.add(
            text: "older", date: date("2024-01-01T10:00:00Z"), attachments: [input([1], name: "a")])
        let damaged = try vault.add(
            text: "damaged", date: date("2024-01-02T10:00:00Z"), attachments: [input([2], name: "b")])
        _ = try vault.add(text: "none", date: date("2024-01-03T10:00:00Z"))
        let newer = try vault.add(
            text: "newer", date: date("2024-01-04T10:00:00Z"), attachments: [input([3], name: "c")])
        let file = vault.directory.appendingPathComponent("entries/\(damaged.id.uuidString.lowercased())")
        var sealed = try Array(Data(contentsOf: file))
        sealed[sealed.count - 5] ^= 1
        try Data(sealed).write(to: file)
        let listing = try AttachmentListing.entries(of: vault)
        XCTAssertEqual(listing.entries.map(\.id), [newer.id, older.id])
        XCTAssertEqual(listing.damaged, [damaged.id])
    }
}
