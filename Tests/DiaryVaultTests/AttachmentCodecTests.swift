import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Entry plaintext version 3, an entry with attachment records (docs/FORMAT.md §7.6): round
/// trips, version 1 unchanged without attachments, everything a reader must refuse, and
/// search's in-place decode agreeing with the full one.
final class AttachmentCodecTests: XCTestCase {
    private let id = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    private let time = Date(millisecondsSince1970: 1_700_000_000_000)
    /// Where the count byte sits in an entry with no tags and no source: version, three times,
    /// flags, tag count, the empty source.
    private let countAt = 1 + 24 + 1 + 1 + 2

    private func record(
        name: String = "photo.jpg", type: String = "image/jpeg", length: UInt64 = 1234, generation: UInt32 = 1,
        dedup: [UInt8]? = nil
    ) throws -> AttachmentRecord {
        AttachmentRecord(
            objectID: SecureRandom.uuid(), streamKey: try SecretBytes(randomCount: 32), length: length,
            storedHash: (0..<32).map { _ in UInt8.random(in: 0...255) }, generation: generation,
            dedupHash: dedup ?? (0..<32).map { _ in UInt8.random(in: 0...255) },
            added: time.addingTimeInterval(90), name: name, mediaType: type)
    }

    private func entry(_ attachments: [AttachmentRecord], tags: [String] = [], source: String? = nil) -> Entry {
        Entry(
            id: id, text: "A walk\nwith a photo", date: time, created: time, modified: time.addingTimeInterval(60),
            starred: true, tags: tags, source: source, attachments: attachments)
    }

    private func fast(_ bytes: [UInt8]) -> Result<[UInt8], FormatError> {
        bytes.withUnsafeBytes { raw in
            do { return .success(Array(try EntryCodec.text(in: raw, textLimit: 1 << 20).bytes)) } catch {
                return .failure(error as! FormatError)
            }
        }
    }

    private func slow(_ bytes: [UInt8]) -> Result<[UInt8], FormatError> {
        do { return .success(Array(try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20).text.utf8)) } catch {
            return .failure(error as! FormatError)
        }
    }

    func testAnEntryWithAttachmentsRoundTripsAsVersionThree() throws {
        let records = [
            try record(), try record(name: "Scan 2.pdf", type: "application/pdf", length: 4 << 30, generation: 7),
            try record(name: "voice.m4a", type: "audio/mp4", length: 1, dedup: [UInt8](repeating: 0, count: 32)),
        ]
        let original = entry(records, tags: ["walk"], source: "dayone:x")
        let bytes = EntryCodec.encode(original)
        XCTAssertEqual(bytes[0], 3)
        let decoded = try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20)
        XCTAssertEqual(decoded, original)
        XCTAssertEqual(decoded.attachments.map(\.name), ["photo.jpg", "Scan 2.pdf", "voice.m4a"])
        XCTAssertFalse(decoded.attachments[2].isDedupable)
        for (a, b) in zip(decoded.attachments, records) {
            XCTAssertTrue(a.streamKey.constantTimeEquals(b.streamKey))
        }
        XCTAssertEqual(fast(bytes), .success(Array(original.text.utf8)))
    }

    /// The layout of §7.6, written field by field here rather than by the codec: version 3,
    /// then version 1's fields up to the source, the count and the records, then the text.
    func testVersionThreeIsVersionOneWithTheRecordsBeforeTheText() throws {
        let a = try record(name: "été.jpg")
        let withAttachments = EntryCodec.encode(entry([a], tags: ["x"], source: "s"))
        let without = EntryCodec.encode(entry([], tags: ["x"], source: "s"))
        var records = ByteWriter()
        records.u8(1)
        records.uuid(a.objectID)
        a.streamKey.withUnsafeBytes { records.append(Array($0)) }
        records.u64(a.length)
        records.append(a.storedHash)
        records.u32(a.generation)
        records.append(a.dedupHash)
        records.i64(a.added.millisecondsSince1970)
        records.string16(a.name)
        records.string16(a.mediaType)
        let textAt = without.count - 4 - entry([]).text.utf8.count
        XCTAssertEqual(without[0], 1)
        XCTAssertEqual(withAttachments, [3] + without[1..<textAt] + records.bytes + without[textAt...])
    }

    func testAnEntryWithoutAttachmentsKeepsItsVersionOneBytes() {
        var expected = ByteWriter()
        expected.u8(1)
        expected.i64(time.millisecondsSince1970)
        expected.i64(time.millisecondsSince1970)
        expected.i64(time.millisecondsSince1970 + 60_000)
        expected.u8(1)
        expected.u8(1)
        expected.string16("walk")
        expected.string16("")
        expected.string32("A walk\nwith a photo")
        XCTAssertEqual(EntryCodec.encode(entry([], tags: ["walk"])), expected.bytes)
    }

    /// Each case is a plaintext no writer writes; both decodes refuse it with the same error.
    func testEveryRecordRuleIsEnforcedByBothDecodes() throws {
        var cases: [(String, [UInt8], FormatError)] = []
        func add(_ what: String, _ records: [AttachmentRecord], _ error: FormatError) {
            cases.append((what, EntryCodec.encode(entry(records)), error))
        }
        add("length 0", [try record(length: 0)], .invalidField("attachment length"))
        add("length over 4 GiB", [try record(length: (4 << 30) + 1)], .invalidField("attachment length"))
        add("generation 0", [try record(generation: 0)], .invalidField("attachment generation"))
        let names = [
            "", ".", "..", "a/b", " lead", "trail ", "tab\tin", "nul\u{0}", String(repeating: "n", count: 256),
        ]
        for name in names {
            add("name \(name.debugDescription)", [try record(name: name)], .invalidField("attachment name"))
        }
        let types = [
            "Image/jpeg", "image", "image/", "/jpeg", "a/b/c", "image/jp eg", "a/" + String(repeating: "b", count: 126),
        ]
        for type in types { add("type \(type)", [try record(type: type)], .invalidField("media type")) }
        add(
            "names equal up to case", [try record(name: "Photo.JPG"), try record(name: "photo.jpg")],
            .invalidField("attachment names"))
        add(
            "names canonically equivalent up to case",
            [try record(name: "\u{C9}t\u{E9}.jpg"), try record(name: "e\u{301}te\u{301}.JPG")],
            .invalidField("attachment names"))
        let good = EntryCodec.encode(entry([try record()]))
        var zero = good
        zero[countAt] = 0
        cases.append(("count 0", zero, .invalidField("attachment count")))
        var two = good
        two[countAt] = 2
        cases.append(("count above the records", two, .truncated))
        var added = good
        let addedAt = countAt + 1 + AttachmentCodec.fixedRecordLength - 8
        added.replaceSubrange(addedAt..<addedAt + 8, with: [0x7F] + [UInt8](repeating: 0xFF, count: 7))
        cases.append(("added out of range", added, .invalidField("time")))
        var utf8 = good
        utf8[countAt + 1 + AttachmentCodec.fixedRecordLength + 2] = 0xFF
        cases.append(("name not UTF-8", utf8, .invalidUTF8))
        var flags = good
        flags[25] = 3
        cases.append(("unknown flag", flags, .invalidField("flags")))
        cases.append(("trailing byte", good + [0], .trailingBytes))
        cases.append(("truncated", Array(good.dropLast()), .truncated))
        for (what, bytes, error) in cases {
            XCTAssertEqual(slow(bytes), .failure(error), what)
            XCTAssertEqual(fast(bytes), .failure(error), what)
        }
        XCTAssertEqual(slow(good), fast(good))
    }

    func testTheLongestNamesAndTypesAndTheMostRecordsAreAccepted() throws {
        let type = "a/" + String(repeating: "b", count: 125)
        let records = try (0..<255).map { n in
            try record(name: String(format: "%03d", n) + String(repeating: "é", count: 126), type: type)
        }
        let bytes = EntryCodec.encode(entry(records))
        XCTAssertEqual(try EntryCodec.decode(bytes, id: id, textLimit: 1 << 20).attachments, records)
        XCTAssertEqual(
            bytes.count - EntryCodec.encode(entry([])).count, AttachmentCodec.maximumLength,
            "the sync limit's allowance is exactly what 255 of the longest records take")
    }

    /// Random damage to version-3 plaintexts: search's in-place decode and the full decode
    /// accept and refuse the same bytes.
    func testBothDecodesAgreeOnDamagedVersionThreeEntries() throws {
        var rng = SeededGenerator(seed: SeededGenerator.announcedSeed(name))
        let samples = try (1...3).map { n in
            EntryCodec.encode(entry(try (0..<n).map { try record(name: "file \($0).jpg") }, tags: ["t"]))
        }
        for round in 0..<3000 {
            var bytes = samples[round % samples.count]
            switch round % 4 {
            case 0: bytes[Int(rng.next() % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
            case 1: bytes.removeLast(Int(rng.next() % UInt64(bytes.count)) + 1)
            case 2: bytes.append(UInt8(truncatingIfNeeded: rng.next()))
            default:
                for _ in 0..<4 { bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            }
            if let first = bytes.first, first == TemplateCodec.version || first == CaptureDeviceCodec.version {
                // The version byte now names another object kind stored as an entry (a template,
                // a capture device): `decode` reads it as that kind, while `search`, which reads
                // only entries, refuses it by its version (and then asks `decode`).
                XCTAssertEqual(fast(bytes), .failure(.unsupportedVersion(Int(first))), "round \(round)")
                continue
            }
            XCTAssertEqual(fast(bytes), slow(bytes), "round \(round)")
        }
    }

    func testTheDedupKeyIsItsOwnSubkeyOfEachGeneration() throws {
        var raw = [UInt8](repeating: 0x42, count: 32)
        let vaultKey = try SecretBytes(consuming: &raw)
        let keys = try GenerationKeys(generation: 3, vaultKey: vaultKey)
        let expected = try vaultKey.deriveSubkey(id: 1, context: SubkeyContext("diarydup"))
        XCTAssertTrue(keys.dedupKey.constantTimeEquals(expected))
        XCTAssertFalse(keys.dedupKey.constantTimeEquals(keys.entryKey))
        XCTAssertFalse(keys.dedupKey.constantTimeEquals(keys.indexKey))
        let other = try GenerationKeys(generation: 4, vaultKey: SecretBytes(randomCount: 32))
        XCTAssertFalse(keys.dedupKey.constantTimeEquals(other.dedupKey))
        XCTAssertTrue(KeyRing([keys, other])[3]?.dedupKey.constantTimeEquals(expected) ?? false)
    }
}
