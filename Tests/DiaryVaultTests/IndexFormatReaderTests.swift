import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `Scripts/decrypt-vault.py`, written from docs/FORMAT.md with PyNaCl alone, reads a vault
/// whose index of version 3 has split pages, a backup of it (records of type 5), and a backup
/// made before index version 3 (type 4, a version-2 root).
final class IndexFormatReaderTests: VaultTestCase {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scripts/decrypt-vault.py")
    private static let python = URL(fileURLWithPath: "/usr/bin/python3")

    private func read(_ target: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Self.python
        process.arguments = [Self.script.path, target.path, "correct horse"]
        let output = path("reader-\(UUID().uuidString).out")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8))
    }

    private func requirePython() throws {
        let check = Process()
        check.executableURL = Self.python
        check.arguments = ["-c", "import nacl"]
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw XCTSkip("no /usr/bin/python3")
        }
        try check.run()
        check.waitUntilExit()
        if check.terminationStatus != 0 { throw XCTSkip("PyNaCl is not installed") }
    }

    func testTheReaderReadsSplitPagesAndBothBackupVersions() throws {
        try requirePython()
        let vault = try makeVault(.files)
        var entries: [Entry] = []
        for n in 0..<300 {
            var bytes = Array(SecureRandom.uuid().bytes)
            bytes[0] &= 0x03  // all in the first page of depth 6, so it splits
            let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 60_000)
            entries.append(
                Entry(
                    id: UUID(bytes: bytes), text: "entry \(n)", date: date, created: date, modified: date,
                    starred: false, tags: []))
        }
        _ = try vault.applySynced(puts: entries, deletes: [], expected: [:])
        XCTAssertGreaterThan(vault.sealedIndex.index.root.pages.count, 64, "a page was split")
        let newBackup = path("v3.diarybak")
        _ = try vault.backup(to: newBackup)
        try LegacyIndexWriter.downgrade(vault)
        let oldBackup = path("v2.diarybak")
        _ = try vault.backup(to: oldBackup)
        for target in [vault.directory, newBackup, oldBackup] {
            if target == vault.directory {
                // The vault itself is read as the split index: take it back to version 3 first.
                try vault.migrateIndexIfNeeded()
            }
            let (status, output) = try read(target)
            XCTAssertEqual(status, 0, "\(target.lastPathComponent): \(output.suffix(2000))")
            XCTAssertTrue(output.contains("| index generation, rows |"), target.lastPathComponent)
            let shown = output.components(separatedBy: "### entry ").dropFirst().map { String($0.prefix(36)) }
            XCTAssertEqual(Set(shown), Set(entries.map { $0.id.uuidString.lowercased() }), target.lastPathComponent)
        }
    }

    /// A template (FORMAT.md §7.5) is read by the script alone and printed as one.
    func testTheReaderPrintsTemplates() throws {
        try requirePython()
        let vault = try makeVault(.files)
        let entry = try vault.add(text: "an entry")
        let template = try vault.addTemplate(name: "Evening", text: "{weekday}\n---prompts---\nWhat went well?")
        try vault.updateTemplate(template.id, recentPrompts: ["What went well?"])
        let (status, output) = try read(vault.directory)
        XCTAssertEqual(status, 0, String(output.suffix(2000)))
        XCTAssertTrue(output.contains("### entry \(entry.id.uuidString.lowercased())"))
        XCTAssertTrue(output.contains("### template \(template.id.uuidString.lowercased())"))
        XCTAssertTrue(output.contains("- name 'Evening'"))
        XCTAssertTrue(output.contains("prompts used last (most recent first): ['What went well?']"))
    }

    /// Entries with attachment records (FORMAT.md §7.6: plaintext version 3, rows with flags
    /// bit 2) are read by the script alone, from the vault and from a backup, each record
    /// printed and checked against its row; an entry without attachments is read as before.
    func testTheReaderPrintsAttachmentRecords() throws {
        try requirePython()
        let vault = try makeVault(.files)
        let time = Date(millisecondsSince1970: 1_700_000_000_000)
        func record(_ name: String, _ type: String, _ length: UInt64, dedup: Bool) throws -> AttachmentRecord {
            AttachmentRecord(
                objectID: SecureRandom.uuid(), streamKey: try SecretBytes(randomCount: 32), length: length,
                storedHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, generation: 1,
                dedupHash: dedup ? (0..<32).map { _ in UInt8.random(in: 0...255) } : [UInt8](repeating: 0, count: 32),
                added: time, name: name, mediaType: type)
        }
        let records = [
            try record("Harbour.jpg", "image/jpeg", 4096, dedup: true),
            try record("편지 scan.pdf", "application/pdf", 4 << 30, dedup: false),
        ]
        let entry = Entry(
            id: SecureRandom.uuid(), text: "With files", date: time, created: time, modified: time, starred: false,
            tags: [], attachments: records)
        let plain = try vault.add(text: "Without files")
        _ = try vault.applySynced(puts: [entry], deletes: [], expected: [:])
        let backup = path("attachments.diarybak")
        _ = try vault.backup(to: backup)
        for target in [vault.directory, backup] {
            let (status, output) = try read(target)
            XCTAssertEqual(status, 0, "\(target.lastPathComponent): \(output.suffix(2000))")
            XCTAssertTrue(output.contains("### entry \(plain.id.uuidString.lowercased())"))
            XCTAssertTrue(
                output.contains(
                    "- attachment 'Harbour.jpg': image/jpeg, 4096 bytes, added 2023-11-14T22:13:20.000Z, "
                        + "object \(records[0].objectID.uuidString.lowercased()), generation 1, dedup hash `"),
                String(output.suffix(2000)))
            XCTAssertTrue(
                output.contains("- attachment '편지 scan.pdf': application/pdf, 4294967296 bytes")
                    && output.contains("generation 1, dedup hash off"), String(output.suffix(2000)))
        }
    }
}
