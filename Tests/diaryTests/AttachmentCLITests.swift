import Foundation
import XCTest

/// The attachment commands with the built binary: byte-exact round trips in both stores,
/// photo metadata removed, nothing written on damage or over an existing file, `new --attach`
/// all or nothing, `detach`, the listings, and `open`'s private copy wiped after the viewer.
final class AttachmentCLITests: XCTestCase {
    private var box: DiarySandbox!

    override func setUpWithError() throws { box = try DiarySandbox(name: "attach") }
    override func tearDown() { box = nil }

    private let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("DiaryExchangeTests/Resources/JPEG")

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = box.root.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    private func bytes(at path: String) throws -> [UInt8] { try Array(Data(contentsOf: URL(fileURLWithPath: path))) }

    private func openCopies() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: box.runtime.path).filter { $0.hasPrefix("diary-open-") }
    }

    func testAttachThenExtractIsByteExactInBothStoresAndDamageWritesNothing() throws {
        let blob = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        for store in ["sqlite", "files"] {
            box = try DiarySandbox(name: "attach-\(store)")
            try box.initVault(store: store)
            let id = try box.ok(["new", "A heron"]).out
            let blobPath = try file("blob.bin", blob)
            let attached = try box.ok(["attach", id, blobPath, photos.appendingPathComponent("gps-all.jpg").path])
            XCTAssertTrue(
                attached.stderr.contains("diary: removed photo metadata from gps-all.jpg (EXIF with a GPS position"),
                attached.stderr)
            let out = box.root.appendingPathComponent("out.bin").path
            try box.ok(["extract", id, "blob.bin", "-o", out, "--yes"])
            XCTAssertEqual(try bytes(at: out), blob, store)
            let photo = box.root.appendingPathComponent("photo.jpg").path
            try box.ok(["extract", id, "gps-all.jpg", "-o", photo, "--yes"])
            XCTAssertEqual(
                try bytes(at: photo), try bytes(at: photos.appendingPathComponent("gps-all.stripped.jpg").path))
            // An existing file is kept as it was.
            let refused = try box.run(["extract", id, "blob.bin", "-o", photo, "--yes"])
            XCTAssertEqual(refused.status, 73, refused.stderr)
            XCTAssertEqual(
                try bytes(at: photo), try bytes(at: photos.appendingPathComponent("gps-all.stripped.jpg").path))
            // Plaintext on disk needs consent: no terminal and no --yes writes nothing.
            let unasked = box.root.appendingPathComponent("unasked.bin").path
            XCTAssertEqual(try box.run(["extract", id, "blob.bin", "-o", unasked]).status, 64)
            XCTAssertFalse(FileManager.default.fileExists(atPath: unasked))
        }
        // One flipped bit in the stored object (files store: a file per attachment).
        let objects = box.vault.appendingPathComponent("attachments")
        for name in try FileManager.default.contentsOfDirectory(atPath: objects.path) {
            let url = objects.appendingPathComponent(name)
            var stored = try Array(Data(contentsOf: url))
            stored[stored.count - 40] ^= 0x01
            try Data(stored).write(to: url)
        }
        let id = try box.ok(["list", "--json"]).stdout.split(separator: "\"").first { $0.count == 36 }.map(String.init)!
        let target = box.root.appendingPathComponent("damaged.bin").path
        let damaged = try box.run(["extract", id, "blob.bin", "-o", target, "--yes"])
        XCTAssertEqual(damaged.status, 65, damaged.stderr)
        XCTAssertTrue(
            damaged.stderr.contains("diary: error: attachment blob.bin of entry \(id.prefix(8)) is damaged ("))
        XCTAssertFalse(FileManager.default.fileExists(atPath: target))
        let left = try FileManager.default.contentsOfDirectory(atPath: box.root.path)
        XCTAssertFalse(left.contains { $0.hasPrefix(".diary-extract-") }, "\(left)")
    }

    func testNewWithFilesListingsAndDetach() throws {
        try box.initVault()
        let note = try file("note.txt", Array("hello\n".utf8))
        let missing = box.root.appendingPathComponent("missing.jpg").path
        // A refused file: nothing is stored, the entry neither.
        let refused = try box.run(["new", "--attach", note, "--attach", missing, "Lost"])
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("cannot attach \(missing): no such file"), refused.stderr)
        XCTAssertEqual(try box.listJSON().count, 0)

        try box.ok(["new", "Plain", "--date", "2024-01-01"])
        let id = try box.ok(["new", "--attach", note, "--attach", try file("b.bin", [1, 2, 3]), "With files"]).out
        let lines = try box.ok(["list"]).stdout.split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasSuffix("  + With files") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasSuffix("    Plain") }, "the marker column is blank: \(lines)")
        let listed = try box.listJSON().first { $0["id"] as? String == id }
        XCTAssertEqual(
            (listed?["attachments"] as? [[String: Any]])?.map { "\($0["name"]!) \($0["size"]!) \($0.count)" },
            ["note.txt 6 2", "b.bin 3 2"])

        let shown = try box.ok(["show", id]).stdout
        XCTAssertTrue(
            shown.hasSuffix(
                "\nAttachments:\n  note.txt  (text/plain, 6 B)\n  b.bin  (application/octet-stream, 3 B)\n"),
            shown)
        XCTAssertFalse(try box.ok(["show", id, "--raw"]).stdout.contains("Attachments:"))
        let json = try JSONSerialization.jsonObject(with: Data(try box.ok(["show", id, "--json"]).stdout.utf8))
        let first = ((json as? [String: Any])?["attachments"] as? [[String: Any]])?.first
        XCTAssertEqual(first?.keys.sorted(), ["added", "name", "size", "type"])
        XCTAssertEqual(first?["type"] as? String, "text/plain")

        XCTAssertEqual(try box.ok(["extract", id, "note.txt", "-o", "-", "--yes"]).stdout, "hello\n")
        let asked = try box.runOnTerminal(["delete", id], answers: [("[y/N]", "n")])
        XCTAssertTrue(asked.shown.contains("and its 2 attachments?"), asked.shown)
        XCTAssertEqual(try box.run(["detach", id, "note.txt"]).status, 64, "no terminal, no --yes: nothing removed")
        try box.ok(["detach", id, "NOTE.TXT", "--yes"])
        let all = try JSONSerialization.jsonObject(with: Data(try box.ok(["attachments", "--json"]).stdout.utf8))
        let rows = all as? [[String: Any]] ?? []
        XCTAssertEqual(rows.map { $0["name"] as? String }, ["b.bin"])
        XCTAssertEqual(rows.first?.keys.sorted(), ["added", "entry", "name", "size", "type"])
        XCTAssertEqual(rows.first?["entry"] as? String, id)
    }

    func testOpenHandsTheViewerAPrivateCopyAndWipesIt() throws {
        try box.initVault()
        let content = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let id = try box.ok(["new", "--attach", try file("scan.pdf", content), "Letter"]).out
        let seen = box.root.appendingPathComponent("seen").path
        let viewer = try box.script(
            "cp \"$1\" '\(seen)'; stat -c %a \"$1\" > '\(seen).mode'; echo \"$1\" > '\(seen).path'", name: "viewer.sh")
        try box.ok(["open", id], env: ["DIARY_OPENER": viewer])
        XCTAssertEqual(try bytes(at: seen), content)
        XCTAssertEqual(try String(contentsOfFile: seen + ".mode", encoding: .utf8), "600\n")
        let copy = try String(contentsOfFile: seen + ".path", encoding: .utf8).trimmingCharacters(in: .newlines)
        XCTAssertTrue(copy.hasPrefix(box.runtime.path + "/diary-open-") && copy.hasSuffix("/scan.pdf"), copy)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy), "wiped when the viewer exited")
        XCTAssertEqual(try openCopies(), [])

        // A copy whose diary has ended (xdg-open's, or a killed diary's): the next command wipes it.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let left = box.runtime.appendingPathComponent("diary-open-\(ended.processIdentifier)-1-abcdef")
        try FileManager.default.createDirectory(at: left, withIntermediateDirectories: false)
        try Data("private".utf8).write(to: left.appendingPathComponent("scan.pdf"))
        try box.ok(["list"])
        XCTAssertEqual(try openCopies(), [])
    }
}
