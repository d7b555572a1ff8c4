import DiaryCrypto
import DiaryFuzzing
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The fuzzers' seed corpus (`Fuzz/corpus/<target>/`), and inputs the fuzzers once crashed on.
final class FuzzRegressionTests: VaultTestCase {
    /// `Fuzz/corpus` in the source tree.
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/corpus", isDirectory: true)

    /// Valid inputs for every fuzz target, taken from a small vault made with the test-only KDF.
    private func makeSeeds() throws -> [String: [[UInt8]]] {
        let vault = try makeVault(.files)
        let first = try vault.add(text: "Monday\nRain all day.", starred: true, tags: ["weather", "home"])
        _ = try vault.add(text: "Tuesday\n" + String(repeating: "sun ", count: 200))
        // An entry with attachment records (plaintext version 3, a row with flags bit 2).
        let time = Date(millisecondsSince1970: 1_700_000_000_000)
        let withFiles = Entry(
            id: SecureRandom.uuid(), text: "Wednesday\nphotos", date: time, created: time, modified: time,
            starred: false, tags: [],
            attachments: try ["a.jpg", "Scan.pdf"].map { name in
                AttachmentRecord(
                    objectID: SecureRandom.uuid(), streamKey: try SecretBytes(randomCount: 32), length: 70_000,
                    storedHash: [UInt8](repeating: 7, count: 32), generation: 1,
                    dedupHash: [UInt8](repeating: 9, count: 32), added: time, name: name, mediaType: "image/jpeg")
            })
        _ = try vault.applySynced(puts: [withFiles], deletes: [], expected: [:])
        let directory = vault.directory
        let header = try Array(Data(contentsOf: directory.appendingPathComponent("vault.header")))
        let sealedIndex = try Array(Data(contentsOf: directory.appendingPathComponent("vault.index")))
        let sealedEntry = try Array(
            Data(
                contentsOf: directory.appendingPathComponent(
                    "entries/\(first.id.uuidString.lowercased())")))
        let entries = try vault.list().map { EntryCodec.encode(try vault.entry($0.id)) }
        try vault.sealedIndex.ensureAllPages()
        let root = vault.sealedIndex.index.root.encoded()
        let page = vault.sealedIndex.index.page(of: first.id).encoded()
        let pageWithFiles = vault.sealedIndex.index.page(of: withFiles.id).encoded()
        let (sealedDirectory, indexDirectory) = try storedDirectory(of: vault)
        let legacyIndex = try legacyIndexSeeds(of: vault, holding: first.id)
        let backupURL = path("seed.diarybackup")
        try vault.backup(to: backupURL)
        let sqlite = try makeVault(.sqlite)
        _ = try sqlite.add(text: "one line")
        let sqliteBackupURL = path("seed-sqlite.diarybackup")
        try sqlite.backup(to: sqliteBackupURL)
        let sqliteHeader = try XCTUnwrap(try BackupReader(sqliteBackupURL).headerRecord())
        return [
            "FuzzHeader": [header, sqliteHeader],
            "FuzzEntry": entries,
            "FuzzIndex": [root, page, pageWithFiles, indexDirectory] + legacyIndex,
            "FuzzPadding": try (entries + [root, page]).map(LengthPadding.pad),
            "FuzzEnvelope": [
                [0] + sealedEntry, [1] + sealedIndex,
                [2] + (try LengthPadding.pad(entries[0])), [3] + (try LengthPadding.pad(root)),
                [5] + sealedDirectory, [7] + (try LengthPadding.pad(indexDirectory)),
            ],
            "FuzzBackup": [try Array(Data(contentsOf: backupURL)), try Array(Data(contentsOf: sqliteBackupURL))],
        ]
    }

    /// Directory 1 as `vault` stored it (its root, of version 5, names it), and its plaintext.
    private func storedDirectory(of vault: Vault) throws -> (sealed: [UInt8], plaintext: [UInt8]) {
        let sealed = try XCTUnwrap(try vault.backend.readIndexPages()[IndexDirectory.storeBase + 1])
        let plaintext = try Envelope.open(
            sealed, kind: .indexDirectory, objectID: IndexDirectory.objectID(of: 1), vaultID: vault.id,
            keyRing: vault.keyRing)
        return (sealed, plaintext)
    }

    /// `vault`'s index as earlier diaries wrote it, which a reader still decodes to migrate it:
    /// its root as version 3 (naming the pages), and the root and the page holding `id` of version 2.
    private func legacyIndexSeeds(of vault: Vault, holding id: UUID) throws -> [[UInt8]] {
        var version3 = vault.sealedIndex.index.root
        version3.directories = nil
        let version2 = try LegacyIndexWriter.change(
            rows: vault.sealedIndex.index.allRows(), generation: 1, vaultID: vault.id, keys: vault.keyRing.current)
        let page = IndexLayout.head(of: id) >> 10
        let open = { (sealed: [UInt8]?, kind: ObjectKind, objectID: UUID) in
            try Envelope.open(
                try XCTUnwrap(sealed), kind: kind, objectID: objectID, vaultID: vault.id, keyRing: vault.keyRing)
        }
        return [
            version3.encoded(), try open(version2.index, .index, Envelope.indexObjectID),
            try open(version2.putIndexPages[page], .indexPage, IndexLayout.objectID(ofPage: page)),
        ]
    }

    /// Writes fresh seeds when `DIARY_FUZZ_SEED_DIR` names a directory (Scripts/fuzz --reseed).
    func testWriteSeedCorpusWhenAsked() throws {
        guard let target = ProcessInfo.processInfo.environment["DIARY_FUZZ_SEED_DIR"] else {
            throw XCTSkip("set DIARY_FUZZ_SEED_DIR to write the seed corpus")
        }
        for (name, seeds) in try makeSeeds() {
            let dir = URL(fileURLWithPath: target).appendingPathComponent(name, isDirectory: true)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (n, seed) in seeds.enumerated() {
                try Data(seed).write(to: dir.appendingPathComponent("seed-\(n)"))
            }
        }
    }

    /// The committed seeds are valid inputs, so the fuzzers start from deep inside each parser
    /// (a seed the parser rejects at its first byte would teach the fuzzer nothing).
    func testCommittedSeedsAreAcceptedByTheirParsers() throws {
        func files(_ target: String) throws -> [URL] {
            let dir = Self.corpus.appendingPathComponent(target)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            XCTAssertFalse(names.isEmpty, "no seeds for \(target)")
            return names.map { dir.appendingPathComponent($0) }
        }
        func seeds(_ target: String) throws -> [[UInt8]] {
            try files(target).map { try Array(Data(contentsOf: $0)) }
        }
        for seed in try seeds("FuzzHeader") { XCTAssertNoThrow(try VaultHeader.decode(seed)) }
        for seed in try seeds("FuzzEntry") {
            XCTAssertNoThrow(try EntryCodec.decode(seed, id: UUID(), textLimit: 1 << 20))
        }
        for seed in try seeds("FuzzIndex") {
            // A root, a page or a directory.
            let header = seed.first == 2 ? 6 : 9
            let field = { (range: Range<Int>) in seed.count >= header ? seed[range].reduce(0) { $0 << 8 | Int($1) } : 0
            }
            let accepted =
                (try? IndexRoot.decode(seed)) != nil
                || (try? IndexPage.decode(
                    seed, number: field(1..<header - 4), version: seed.first ?? 0,
                    expectedCount: field(header - 4..<header)))
                    != nil
                || IndexDirectory.reencodes(seed) == true
            XCTAssertTrue(accepted, "an index seed no decoder accepts")
        }
        for seed in try seeds("FuzzPadding") { XCTAssertNoThrow(try LengthPadding.unpad(seed)) }
        for file in try files("FuzzBackup") {
            // Read as restore reads it: no damage found, and a header first.
            let reader = try BackupReader(file)
            try reader.scan()
            XCTAssertEqual(reader.findings.map(\.detail), [], file.lastPathComponent)
            XCTAssertNotNil(reader.header, file.lastPathComponent)
        }
        for seed in try seeds("FuzzEnvelope") {
            let kind = FuzzEntryPoints.envelopeKind(seed[0])
            if seed[0] & 2 == 0 {
                XCTAssertNoThrow(try Envelope.peek(Array(seed.dropFirst()), expecting: kind))
            } else {
                XCTAssertNoThrow(try LengthPadding.unpad(Array(seed.dropFirst())))
            }
        }
    }

    /// Every committed seed goes through its fuzz entry point without trapping (the invariant
    /// checks there hold for valid input) and is accepted by the parser behind it, as are
    /// seeds made afresh from a vault of today's format.
    func testEntryPointsAcceptTheSeeds() throws {
        let points: [String: ([UInt8]) -> Bool] = [
            "FuzzHeader": { FuzzEntryPoints.header($0) }, "FuzzEntry": { FuzzEntryPoints.entry($0) },
            "FuzzIndex": { FuzzEntryPoints.index($0) }, "FuzzPadding": { FuzzEntryPoints.padding($0) },
            "FuzzEnvelope": { FuzzEntryPoints.envelope($0) }, "FuzzBackup": { FuzzEntryPoints.backup($0) },
        ]
        for (name, point) in points {
            let dir = Self.corpus.appendingPathComponent(name)
            let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            XCTAssertFalse(names.isEmpty, "no committed seeds for \(name)")
            for file in names {
                XCTAssertTrue(point(Array(try Data(contentsOf: dir.appendingPathComponent(file)))), "\(name)/\(file)")
            }
        }
        for (name, seeds) in try makeSeeds() {
            for (n, seed) in seeds.enumerated() { XCTAssertTrue(points[name]!(seed), "fresh \(name) seed \(n)") }
        }
    }

    // MARK: Crashes the fuzzers found

    /// An entry plaintext with the given entry date (milliseconds), otherwise valid.
    private func entryPlaintext(dateMilliseconds ms: Int64) -> [UInt8] {
        var w = ByteWriter()
        w.u8(EntryCodec.version)
        w.i64(ms)
        w.i64(0)
        w.i64(0)
        w.u8(0)
        w.u8(0)
        w.string16("")
        w.string32("text")
        return w.bytes
    }

    /// FuzzEntry's first find (base64 `AQCjo6Ojo6Ojo6OjAAAAAAAAo6MAAAAAAAAAAAEAAAAAAA==`): a date
    /// beyond 2^53 ms decoded, but a Date (a Double) cannot hold it, so it re-encoded to other
    /// bytes; near the i64 limits re-encoding trapped (Int64 of an out-of-range Double), which
    /// every later write of an index holding such a row would have hit.
    func testTimesOutsideTheStorableRangeAreRefusedOnRead() throws {
        let found = try XCTUnwrap(Data(base64Encoded: "AQCjo6Ojo6Ojo6OjAAAAAAAAo6MAAAAAAAAAAAEAAAAAAA=="))
        XCTAssertThrowsError(try EntryCodec.decode(Array(found), id: UUID(), textLimit: 1 << 20))
        for ms in [
            Int64.max, Int64.min, Date.storableMilliseconds.upperBound + 1, Date.storableMilliseconds.lowerBound - 1,
        ] {
            XCTAssertThrowsError(
                try EntryCodec.decode(entryPlaintext(dateMilliseconds: ms), id: UUID(), textLimit: 1 << 20)
            ) {
                XCTAssertEqual($0 as? FormatError, .invalidField("time"))
            }
            FuzzEntryPoints.entry(entryPlaintext(dateMilliseconds: ms))
        }
    }

    func testEveryStorableTimeSurvivesDecodeAndEncodeExactly() throws {
        let range = Date.storableMilliseconds
        var samples: [Int64] = [range.lowerBound, range.upperBound, 0, -1, 1, 1_700_000_000_123]
        var generator = SeededGenerator(seed: SeededGenerator.announcedSeed("storable times"))
        for _ in 0..<2000 { samples.append(Int64.random(in: range, using: &generator)) }
        for ms in samples {
            let bytes = entryPlaintext(dateMilliseconds: ms)
            let entry = try EntryCodec.decode(bytes, id: UUID(), textLimit: 1 << 20)
            XCTAssertEqual(EntryCodec.encode(entry), bytes, "\(ms)")
        }
    }

    func testDatesBeyondTheRangeAreClampedWhenWrittenNeverTrapped() {
        let range = Date.storableMilliseconds
        XCTAssertEqual(Date(timeIntervalSince1970: 1e300).millisecondsSince1970, range.upperBound)
        XCTAssertEqual(Date(timeIntervalSince1970: -1e300).millisecondsSince1970, range.lowerBound)
        XCTAssertEqual(Date(timeIntervalSince1970: .infinity).millisecondsSince1970, range.upperBound)
        XCTAssertEqual(Date(timeIntervalSince1970: .nan).millisecondsSince1970, range.lowerBound)
        XCTAssertEqual(Date.distantFuture.millisecondsSince1970, 64_092_211_200_000)
    }
}
