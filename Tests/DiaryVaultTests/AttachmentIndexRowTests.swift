import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Index rows of entries with attachments (flags bit 2, docs/FORMAT.md §7.6): the row format,
/// what a reader refuses, and that every way a vault writes or rebuilds rows keeps the list.
final class AttachmentIndexRowTests: VaultTestCase {
    private let time = Date(millisecondsSince1970: 1_700_000_000_000)
    /// Where the first row starts in an encoded page of version 3.
    private let rowsStart = 9

    /// An id on page 64 (heads 0…1023).
    private func idOnFirstPage() -> UUID {
        var bytes = SecureRandom.uuid().bytes
        bytes[0] &= 0x03
        return UUID(bytes: bytes)
    }

    private func summary(
        name: String = "photo.jpg", length: UInt64 = 99, generation: UInt32 = 2, dedup: [UInt8]? = nil
    ) -> AttachmentSummary {
        AttachmentSummary(
            objectID: SecureRandom.uuid(), length: length,
            dedupHash: dedup ?? (0..<32).map { _ in UInt8.random(in: 0...255) }, generation: generation, name: name)
    }

    private func row(_ attachments: [AttachmentSummary], starred: Bool = false, template: Bool = false) -> IndexRow {
        IndexRow(
            summary: EntrySummary(
                id: idOnFirstPage(), title: template ? "Evening" : "A walk", date: time, created: time,
                modified: time, starred: starred, tags: template ? [] : ["walk"], size: 19,
                source: template ? nil : "dayone:1", isTemplate: template, attachments: attachments),
            sealTag: (0..<16).map { _ in UInt8.random(in: 0...255) })
    }

    /// A page of version 3 holding these encoded rows (in the order given).
    private func page(_ rows: [[UInt8]]) -> [UInt8] {
        var w = ByteWriter()
        w.u8(3)
        w.u32(64)
        w.u32(UInt32(rows.count))
        for row in rows { w.append(row) }
        return w.bytes
    }

    private func decode(_ bytes: [UInt8], count: Int = 1) throws -> IndexPage {
        try IndexPage.decode(bytes, number: 64, version: 3, expectedCount: count)
    }

    func testRowsWithAttachmentsRoundTripBesideRowsWithout() throws {
        var page = IndexPage(number: 64)
        let rows = [
            row([summary(), summary(name: "Scan.pdf", length: 4 << 30, generation: 1)], starred: true),
            row([summary(name: "zero dedup.m4a", dedup: [UInt8](repeating: 0, count: 32))]),
            row([]), row([], template: true),
        ]
        for r in rows { page.upsert(r) }
        let decoded = try decode(page.encoded(), count: rows.count)
        XCTAssertEqual(decoded, page)
        for r in rows {
            XCTAssertEqual(decoded.row(r.summary.id), r)
            let i = decoded.position(of: r.summary.id).index
            XCTAssertEqual(decoded.hasAttachments(rowAt: i), !r.summary.attachments.isEmpty)
            XCTAssertEqual(decoded.isStarred(rowAt: i), r.summary.starred)
            XCTAssertEqual(decoded.isTemplate(rowAt: i), r.summary.isTemplate)
        }
    }

    /// The layout of §7.6, written field by field here: the row without attachments as before,
    /// flags bit 2 set, and the list after the source.
    func testARowWithAttachmentsIsTheRowWithoutWithFlagTwoAndTheList() {
        let a = summary(name: "été.jpg")
        let with = row([a], starred: true)
        var without = with
        without.summary.attachments = []
        let plain = IndexPage.encode(without)
        XCTAssertEqual(plain[40], 1, "only the star: a row without attachments is as before")
        var list = ByteWriter()
        list.u8(1)
        list.uuid(a.objectID)
        list.u64(a.length)
        list.append(a.dedupHash)
        list.u32(a.generation)
        list.string16(a.name)
        var expected = plain + list.bytes
        expected[40] = 1 | 4
        XCTAssertEqual(IndexPage.encode(with), expected)
    }

    func testEveryRowRuleIsEnforced() throws {
        var cases: [(String, [UInt8], FormatError)] = []
        func add(_ what: String, _ list: [AttachmentSummary], _ error: FormatError) {
            cases.append((what, page([IndexPage.encode(row(list))]), error))
        }
        add("length 0", [summary(length: 0)], .invalidField("attachment length"))
        add("length over 4 GiB", [summary(length: (4 << 30) + 1)], .invalidField("attachment length"))
        add("generation 0", [summary(generation: 0)], .invalidField("attachment generation"))
        for name in ["", "..", "a/b", " x", "x\n"] {
            add("name \(name.debugDescription)", [summary(name: name)], .invalidField("attachment name"))
        }
        add(
            "names equal up to case", [summary(name: "A.txt"), summary(name: "a.TXT")],
            .invalidField("attachment names"))
        let good = IndexPage.encode(row([summary()]))
        let listAt = good.count - (1 + IndexPage.attachmentFixedLength + 2 + "photo.jpg".utf8.count)
        var zero = good
        zero[listAt] = 0
        cases.append(("count 0", page([zero]), .invalidField("attachment count")))
        var utf8 = good
        utf8[listAt + 1 + IndexPage.attachmentFixedLength + 2] = 0xFF
        cases.append(("name not UTF-8", page([utf8]), .invalidUTF8))
        cases.append(("truncated list", page([Array(good.dropLast())]), .truncated))
        var noList = IndexPage.encode(row([]))
        noList[40] |= 4
        cases.append(("bit 2 without a list", page([noList]), .truncated))
        var unknown = good
        unknown[40] |= 8
        cases.append(("unknown flag", page([unknown]), .invalidField("flags")))
        // A template's row never has attachments: its flags must be exactly 2.
        var template = IndexPage.encode(row([], template: true))
        template[40] |= 4
        var list = ByteWriter()
        IndexPage.writeAttachments([summary()], to: &list)
        cases.append(("a template with bit 2", page([template + list.bytes]), .invalidField("flags")))
        for (what, bytes, error) in cases {
            XCTAssertThrowsError(try decode(bytes), what) { XCTAssertEqual($0 as? FormatError, error, what) }
        }
        XCTAssertNoThrow(try decode(page([good])))
        XCTAssertNoThrow(try decode(page([IndexPage.encode(row([], template: true))])))
    }

    private func record(_ name: String, generation: UInt32 = 1) throws -> AttachmentRecord {
        AttachmentRecord(
            objectID: SecureRandom.uuid(), streamKey: try SecretBytes(randomCount: 32), length: 4096,
            storedHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, generation: generation,
            dedupHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, added: time, name: name,
            mediaType: "image/jpeg")
    }

    /// Entries carrying records (put as sync puts them: no command attaches files yet) are
    /// listed, shown and searched with them, keep them through an edit, and a rebuilt index
    /// derives the same list from the sealed entries.
    func testTheVaultKeepsAttachmentSummariesThroughWritesAndReindex() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let records = [try record("a.jpg"), try record("B.jpg", generation: 1)]
            let entry = Entry(
                id: SecureRandom.uuid(), text: "Harbour walk\nthe needle in it", date: time, created: time,
                modified: time, starred: false, tags: ["walk"], attachments: records)
            let plain = try vault.add(text: "no attachments, a needle too")
            _ = try vault.applySynced(puts: [entry], deletes: [], expected: [:])
            let expected = records.map(AttachmentSummary.init)
            func check(_ when: String) throws {
                let listed = try vault.list()
                XCTAssertEqual(listed.first { $0.id == entry.id }?.attachments, expected, when)
                XCTAssertEqual(listed.first { $0.id == plain.id }?.attachments, [], when)
                XCTAssertEqual(try vault.entry(entry.id).attachments, records, when)
                let found = try vault.search("NEEDLE")
                XCTAssertEqual(Set(found.matches.map(\.id)), [entry.id, plain.id], when)
                XCTAssertEqual(found.damaged, [], when)
            }
            try check("after the put")
            _ = try vault.update(entry.id, text: "Harbour walk, edited\nthe needle in it")
            try check("after an edit")
            XCTAssertEqual(try vault.reindex(), 2)
            try check("after reindex")
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try reopened.list().first { $0.id == entry.id }?.attachments, expected)
        }
    }
}
