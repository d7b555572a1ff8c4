import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Search in a files vault large enough for the scan copy (`entries.pack`, docs/FORMAT.md
/// §2.2): it answers exactly as the entry files do through adds, edits (which empty a segment of
/// the copy in place) and deletes; a copy left
/// stale by a diary that does not know it is never shown, `verify` reports it, and
/// `Scripts/decrypt-vault.py` (written from FORMAT.md) checks it without using it.
final class VaultSearchPackTests: VaultTestCase {
    private static let entryCount = 1_100

    private var pack: URL { vaultURL.appendingPathComponent("entries.pack") }
    private var vaultURL: URL!

    /// A files vault of `entryCount` entries; every seventh says "needle".
    private func largeVault() throws -> (Vault, [UUID: String]) {
        let vault = try makeVault(.files)
        vaultURL = vault.directory
        var texts: [UUID: String] = [:]
        let entries = (0..<Self.entryCount).map { n in
            let date = Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 60_000)
            let text = n % 7 == 0 ? "day \(n): a Needle in the hay" : "day \(n): only hay"
            let entry = Entry(
                id: SecureRandom.uuid(), text: text, date: date, created: date, modified: date, starred: false, tags: []
            )
            texts[entry.id] = text
            return entry
        }
        _ = try vault.importEntries(entries)
        return (vault, texts)
    }

    private func expected(_ texts: [UUID: String]) -> Set<UUID> {
        Set(texts.filter { $0.value.localizedCaseInsensitiveContains("needle") }.keys)
    }

    private func found(_ vault: Vault, file: StaticString = #filePath, line: UInt = #line) throws -> Set<UUID> {
        let result = try vault.search("needle")
        XCTAssertEqual(result.damaged, [], file: file, line: line)
        return Set(result.matches.map(\.id))
    }

    /// Runs `Scripts/decrypt-vault.py` on the vault: it exits 0 (the copy never changes that)
    /// and its output holds `text`.
    private func readerSays(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try PythonReader.requireSecretstream()
        let reader = try PythonReader.run([PythonReader.script.path, vaultURL.path, "correct horse"])
        XCTAssertEqual(reader.status, 0, reader.output, file: file, line: line)
        XCTAssertTrue(reader.output.contains(text), reader.output, file: file, line: line)
    }

    private var hasPack: Bool { FileManager.default.fileExists(atPath: pack.path) }

    func testSearchAnswersAsTheEntryFilesDoThroughAddsEditsAndDeletes() throws {
        var (vault, texts) = try largeVault()
        XCTAssertFalse(hasPack)
        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertTrue(hasPack, "a search of \(Self.entryCount) entries writes the copy")
        XCTAssertEqual(try found(vault), expected(texts), "read from the copy")

        let added = try vault.add(text: "a new needle")
        texts[added.id] = added.text
        XCTAssertTrue(hasPack, "an add keeps the copy")
        XCTAssertEqual(try found(vault), expected(texts))

        // An edit empties the segment holding the entry, in place, and the next search reads
        // the same copy (the rest of it, and that segment's entry files).
        let copy = inode(pack)
        let edited = try XCTUnwrap(texts.first { !$0.value.lowercased().contains("needle") }?.key)
        try vault.update(edited, text: "now a needle too")
        texts[edited] = "now a needle too"
        XCTAssertEqual(inode(pack), copy, "an edit keeps the copy")
        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertEqual(inode(pack), copy, "the search after an edit read the copy, and did not write it again")
        try readerSays(" records (1 segment emptied), each equal to its entry file; not used")

        let deleted = try XCTUnwrap(texts.first { $0.value.contains("Needle") }?.key)
        try vault.delete(deleted)
        texts[deleted] = nil
        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertTrue(try vault.verify().isClean)
    }

    /// A key rotation removes the copy at its first batch (a reviewer found each batch emptying
    /// its own segments, the whole copy zeroed a batch at a time), and a search after it
    /// writes a copy under the new key.
    func testAKeyRotationRemovesTheCopyBeforeItsSecondBatch() throws {
        let (vault, texts) = try largeVault()
        _ = try found(vault)
        XCTAssertTrue(hasPack)
        var afterBatches: [Bool] = []
        try vault.rotateKey(passphrase: secret("correct horse")) { done, total in
            if done > 0 && done < total { afterBatches.append(self.hasPack) }
        }
        XCTAssertFalse(afterBatches.isEmpty, "one batch only")
        XCTAssertEqual(afterBatches.filter { $0 }, [], "a copy outlived a batch")
        XCTAssertFalse(hasPack)
        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertTrue(hasPack)
        XCTAssertTrue(try vault.verify().isClean)
    }

    /// `rekey --attachments` run again after an interruption (a search wrote a copy in
    /// between) re-seals each object's entries as part of the rotation: the copy goes at the
    /// first object, not a segment per object (from a review).
    func testResealingAttachmentsRemovesTheCopyAtItsFirstObject() throws {
        let (vault, texts) = try largeVault()
        let holders = Array(texts.keys.prefix(3))
        for (n, id) in holders.enumerated() {
            _ = try vault.attach(
                [AttachmentFixtures.input(AttachmentFixtures.bytes(5_000, seed: UInt8(n)), name: "a\(n)")], to: id)
        }
        try vault.rotateKey(passphrase: secret("correct horse"))
        _ = try found(vault)
        XCTAssertTrue(hasPack)
        var afterEach: [Bool] = []
        let outcome = try vault.resealAttachments(afterEach: { afterEach.append(self.hasPack) })
        XCTAssertEqual(outcome.resealed, holders.count)
        XCTAssertEqual(afterEach, Array(repeating: false, count: holders.count), "a copy outlived an object")
        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertTrue(try vault.verify().isClean)
    }

    /// An older diary edits an entry and leaves the copy (simulated: the copy from before the
    /// edit is put back). The search shows the edit, not the copy's earlier text, and writes
    /// the copy again; until then `verify` reports it and the reader warns, exit status 0.
    func testAStaleCopyIsNeverShownAndIsReported() throws {
        var (vault, texts) = try largeVault()
        _ = try found(vault)
        let before = try Data(contentsOf: pack)
        let edited = try XCTUnwrap(texts.first { $0.value.contains("Needle") }?.key)
        try vault.update(edited, text: "no longer")
        texts[edited] = "no longer"
        try before.write(to: pack)

        let damage = try vault.verify().damaged.map(\.description)
        XCTAssertEqual(damage.count, 1, "\(damage)")
        XCTAssertTrue(damage.first?.contains(edited.uuidString.lowercased()) ?? false, "\(damage)")
        try readerSays("warning: entries.pack: record \(edited.uuidString.lowercased()) differs")

        XCTAssertEqual(try found(vault), expected(texts))
        XCTAssertNotEqual(try Data(contentsOf: pack), before, "written again")
        XCTAssertTrue(try vault.verify().isClean)
        let fresh = try PythonReader.run([PythonReader.script.path, vaultURL.path, "correct horse"])
        XCTAssertEqual(fresh.status, 0, fresh.output)
        XCTAssertFalse(fresh.output.contains("warning: entries.pack"), fresh.output)
        XCTAssertTrue(fresh.output.contains("\(Self.entryCount) records, each equal to its entry file"), fresh.output)
    }

    /// What `Scripts/decrypt-vault.py` (written from FORMAT.md) and `verify` say of a copy with
    /// an emptied segment that is not zeros, and of a copy of version 2: the reader refuses it
    /// (a warning, exit status 0), `verify` reports it.
    func testTheReaderAndVerifyRefuseAnEmptiedSegmentNotZerosAndVersion2() throws {
        let (vault, texts) = try largeVault()
        _ = try found(vault)
        let edited = try XCTUnwrap(texts.first { !$0.value.lowercased().contains("needle") }?.key)
        try vault.update(edited, text: "now a needle too")  // the same size bucket: a segment emptied
        var bytes = [UInt8](try Data(contentsOf: pack))
        let emptied = try XCTUnwrap(Self.emptiedSegments(of: bytes).first, "no segment emptied")
        bytes[emptied.offset + emptied.length / 2] = 7
        try Data(bytes).write(to: pack)
        try readerSays("entries.pack: refused (treated as absent): segment \(emptied.index) is emptied but not zeros")
        XCTAssertTrue(
            try vault.verify().damaged.contains { $0.description.contains("is emptied but not zeros") })

        bytes[emptied.offset + emptied.length / 2] = 0
        bytes[8] = 2
        try Data(bytes).write(to: pack)
        try readerSays("entries.pack: refused (treated as absent): version 2, not 1 or 3")
        XCTAssertTrue(
            try vault.verify().damaged.contains { $0.description.contains("entries.pack is version 2, not 1 or 3") })
    }

    /// The emptied segments of a copy (record count 0), read from its trailer (FORMAT.md §2.2).
    private static func emptiedSegments(of bytes: [UInt8]) -> [(index: Int, offset: Int, length: Int)] {
        func number(_ at: Int, _ count: Int) -> Int { bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) } }
        let trailer = number(bytes.count - 16, 8)
        return (0..<number(trailer, 4)).compactMap { i in
            let at = trailer + 4 + 48 * i
            return number(at + 12, 4) == 0 ? (i, number(at, 8), number(at + 8, 4)) : nil
        }
    }

    private func entryFile(_ id: UUID) -> URL {
        vaultURL.appendingPathComponent("entries").appendingPathComponent(id.uuidString.lowercased())
    }

    private func inode(_ url: URL) -> UInt64 {
        var info = stat()
        return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : 0
    }

    /// A damaged entry (a byte of its ciphertext changed, its tag intact) is reported by every
    /// search, and does not make every search write the copy again: a new copy would hold the
    /// same bytes.
    func testADamagedEntryDoesNotMakeEverySearchWriteTheCopy() throws {
        let (vault, texts) = try largeVault()
        let damaged = try XCTUnwrap(texts.keys.first)
        var bytes = [UInt8](try Data(contentsOf: entryFile(damaged)))
        bytes[bytes.count / 2] ^= 0x55
        try Data(bytes).write(to: entryFile(damaged))
        XCTAssertEqual(try vault.search("needle").damaged, [damaged])
        let copy = inode(pack)
        for _ in 0..<3 { XCTAssertEqual(try vault.search("needle").damaged, [damaged]) }
        XCTAssertEqual(inode(pack), copy, "written again")
    }

    /// An entry file the index does not list (a deleted entry's file put back) is reported as
    /// itself; the copy, which holds it as every file, is not blamed for it.
    func testVerifyDoesNotBlameTheCopyForAFileTheIndexDoesNotList() throws {
        let (vault, texts) = try largeVault()
        let id = try XCTUnwrap(texts.keys.first)
        let saved = try Data(contentsOf: entryFile(id))
        try vault.delete(id)
        try saved.write(to: entryFile(id))
        _ = try found(vault)
        XCTAssertTrue(hasPack)
        let damage = try vault.verify().damaged.map(\.description)
        XCTAssertFalse(damage.isEmpty)
        XCTAssertFalse(damage.contains { $0.contains("entries.pack") }, "\(damage)")
    }
    /// An entry edited and then deleted by an older diary, which left the copy holding its
    /// first text, and its later file put back: the record is not that file's copy, so the
    /// copy is blamed as well as the file (from a review).
    func testVerifyBlamesTheCopyForAnEarlierCopyOfAFileTheIndexDoesNotList() throws {
        let (vault, texts) = try largeVault()
        _ = try found(vault)
        let first = try Data(contentsOf: pack)
        let id = try XCTUnwrap(texts.keys.first)
        try vault.update(id, text: "a second text")
        let second = try Data(contentsOf: entryFile(id))
        try vault.delete(id)
        try first.write(to: pack)
        try second.write(to: entryFile(id))
        let damage = try vault.verify().damaged.map(\.description)
        XCTAssertTrue(
            damage.contains { $0.contains("entries.pack") && $0.contains(id.uuidString.lowercased()) }, "\(damage)")
    }
}
