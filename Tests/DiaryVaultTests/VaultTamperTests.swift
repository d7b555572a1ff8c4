import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Byte-flip damage (DESIGN.md invariant 5): every flipped byte is reported or provably harmless,
/// damage stays contained, and nothing ever decrypts to wrong plaintext.
final class VaultTamperTests: VaultTestCase {
    /// What reading a damaged vault gave.
    enum Outcome: Equatable {
        /// `Vault.open` refused the vault.
        case refused(VaultError)
        /// The vault opened; these objects could not be read or were named by `verify`.
        case damaged(unreadable: Set<UUID>, verify: [Damage.Object])
        /// Opened, `verify` clean, every entry and the listing exactly as written.
        case harmless
    }

    private let passphrase = "correct horse"
    /// Flips per file of a files vault, and per 4 KiB page of a SQLite vault, in a sampled
    /// sweep (`Sweep`); a full one flips every byte, and every 11th byte of the database.
    private static let sampledFlipsPerFile = 32
    private static let sampledFlipsPerPage = 6

    /// The byte is flipped whole at even offsets, in one bit (moving with the offset) at odd
    /// ones: a function of the offset, so a sample is a subset of the full sweep.
    private static func mask(at offset: Int) -> UInt8 {
        offset % 2 == 0 ? 0xFF : UInt8(1) << (offset / 2 % 8)
    }

    /// A small vault: Korean text, emoji, tags, a star, an entry in a larger padding bucket, an
    /// update and a delete. Returns the entries as stored.
    private func makeSmallVault(_ kind: StoreKind) throws -> (URL, [UUID: Entry]) {
        let vault = try makeVault(kind, passphrase: passphrase)
        var entries: [UUID: Entry] = [:]
        for (text, starred, tags) in [
            ("서울의 봄 🌸\n오늘은 날씨가 좋았다.", true, ["korea", "여행"]),
            ("Morning walk\ncafé, naïve, 👩‍💻", false, []),
            (String(repeating: "긴 일기입니다. ", count: 60), false, ["long"]),
            ("To be deleted", false, []),
        ] {
            let entry = try vault.add(text: text, date: date("2024-04-01T08:00:00Z"), starred: starred, tags: tags)
            entries[entry.id] = entry
        }
        let updated = try vault.update(entries.values.first { $0.tags == ["long"] }!.id, text: "고쳐 쓴 글\n두 번째 줄")
        entries[updated.id] = updated
        let doomed = entries.values.first { $0.text == "To be deleted" }!.id
        try vault.delete(doomed)
        entries[doomed] = nil
        XCTAssertTrue(try vault.verify().isClean)
        return (vault.directory, entries)
    }

    /// Opens the vault and reads everything. Fails the test if any read returns content that
    /// differs from what was written, or if damage seen by a read is not named by `verify`.
    private func readEverything(_ directory: URL, expecting originals: [UUID: Entry], context: String) -> Outcome {
        let vault: Vault
        do {
            vault = try Vault.open(at: directory, passphrase: secret(passphrase))
        } catch let error as VaultError {
            // Damage must never pass for a wrong passphrase: the header checksum tells them apart.
            XCTAssertNotEqual(error, .wrongPassphrase, context)
            return .refused(error)
        } catch {
            XCTFail("\(context): open threw a non-vault error \(error)")
            return .refused(.io(path: "", detail: "\(error)"))
        }
        let listed: [EntrySummary]
        do {
            listed = try vault.list()
        } catch let error as VaultError {
            // Reading the index pages is where a damaged store can first show.
            return .refused(error)
        } catch {
            XCTFail("\(context): list threw a non-vault error \(error)")
            return .refused(.io(path: "", detail: "\(error)"))
        }
        for summary in listed {
            guard let original = originals[summary.id] else {
                XCTFail("\(context): an entry that was never written is listed")
                continue
            }
            XCTAssertEqual(summary, original.summary, "\(context): wrong listing")
        }
        var unreadable = Set<UUID>()
        for (id, original) in originals {
            do {
                let entry = try vault.entry(id)
                XCTAssertEqual(entry, original, "\(context): WRONG PLAINTEXT for an entry")
            } catch {
                unreadable.insert(id)
            }
        }
        var named: [Damage.Object] = []
        do {
            named = try vault.verify().damaged.map(\.object)
        } catch {
            return .damaged(unreadable: unreadable, verify: [.header])
        }
        let namedEntries = Set(named.compactMap { if case .entry(let id) = $0 { return id } else { return nil } })
        if !unreadable.isEmpty {
            XCTAssertFalse(named.isEmpty, "\(context): an entry fails to read but verify is clean")
        }
        if vault.store == .files {
            // One file per object: verify names exactly the objects that fail. (In a damaged
            // SQLite b-tree a point lookup and a scan can disagree, so there only "not clean".)
            XCTAssertTrue(unreadable.isSubset(of: namedEntries), "\(context): verify misses a damaged entry")
        }
        if vault.indexState != .ok { XCTAssertTrue(named.contains(.index), "\(context): verify misses the index") }
        if unreadable.isEmpty && named.isEmpty && vault.indexState == .ok && listed.count == originals.count {
            return .harmless
        }
        return .damaged(unreadable: unreadable, verify: named)
    }

    /// Flips the byte at `offset` of `file` with `mask`, runs `body`, and restores the whole
    /// file (SQLite may have rewritten other header bytes). Plain write(2), no fsync: `Data.write`
    /// fsyncs, which made this test I/O bound.
    private func withFlip<T>(_ file: URL, at offset: Int, mask: UInt8, _ body: () -> T) throws -> T {
        let original = try [UInt8](Data(contentsOf: file))
        var damaged = original
        damaged[offset] ^= mask
        try overwrite(file, with: damaged)
        defer { XCTAssertNoThrow(try overwrite(file, with: original)) }
        return body()
    }

    private func overwrite(_ file: URL, with bytes: [UInt8]) throws {
        let fd = open(file.path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { throw CocoaError(.fileWriteNoPermission) }
        defer { close(fd) }
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    func testEveryFlippedByteOfAFilesVaultIsReportedAndContained() throws {
        let (directory, originals) = try makeSmallVault(.files)
        var files = [FileStore.headerName, FileStore.indexName]
        // One index page that holds a row, and one that is empty.
        let used = IndexLayout.firstPage(of: originals.keys.first!)
        let empty = IndexLayout.firstPages.first { p in !originals.keys.contains { IndexLayout.firstPage(of: $0) == p }
        }!
        files += [used, empty].map(FileStore.indexPageName)
        files += originals.keys.map { FileStore.entriesName + "/" + FileStore.fileName(for: $0) }
        var sweep = Sweep("VaultTamperTests files")
        var detected = 0, harmless = 0
        for name in files {
            let url = directory.appendingPathComponent(name)
            let entryID = FileStore.entryID(fromFileName: url.lastPathComponent)
            // Every byte in a full sweep; else a sample spread over every file, start to end.
            for offset in sweep.pick(Self.sampledFlipsPerFile, from: Array(0..<(try Data(contentsOf: url).count))) {
                let mask = Self.mask(at: offset)
                let context = "files \(name) byte \(offset) mask \(mask) (\(sweep.replay))"
                let outcome = try sweep.check(context) {
                    try withFlip(url, at: offset, mask: mask) {
                        readEverything(directory, expecting: originals, context: context)
                    }
                }
                if outcome == .harmless { harmless += 1 } else { detected += 1 }
                switch (name, outcome) {
                case (FileStore.headerName, .refused(let error)):
                    switch error {
                    case .headerDamaged, .notAVault, .unsupportedVersion: break
                    default: XCTFail("\(context): \(error)")
                    }
                case (_, .damaged(let unreadable, let named))
                where name == FileStore.indexName
                    || name.hasPrefix(FileStore.indexPagesName + "/"):
                    // The index is a cache: every entry still reads, only the index is named.
                    XCTAssertEqual(unreadable, [], context)
                    XCTAssertEqual(named, [.index], context)
                case (_, .damaged(let unreadable, let named)) where entryID != nil:
                    // One entry lost, the others unharmed, and verify names that one.
                    XCTAssertEqual(unreadable, [entryID!], context)
                    XCTAssertEqual(named, [.entry(entryID!)], context)
                default:
                    // Everything in a files vault is authenticated or checksummed: no flip is harmless.
                    XCTFail("\(context): \(outcome)")
                }
            }
        }
        XCTAssertTrue(readEverything(directory, expecting: originals, context: "restored") == .harmless)
        print(
            "tamper files: \(detected + harmless) flips over \(files.count) files, \(detected) detected, \(harmless) harmless"
        )
        XCTAssertEqual(harmless, 0, sweep.replay)
    }

    func testFlippedBytesOfASQLiteVaultAreReportedOrHarmlessNeverWrong() throws {
        let (directory, originals) = try makeSmallVault(.sqlite)
        // The vault above is released: its connection closed, which checkpointed the log into
        // the database file and removed it, so vault.sqlite alone holds everything.
        let database = directory.appendingPathComponent(SQLiteStore.databaseName)
        let sidecars = ["-wal", "-shm"].map { URL(fileURLWithPath: database.path + $0) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: sidecars[0].path), "the log was not checkpointed")
        let size = try Data(contentsOf: database).count
        let stride = 11, page = 4096
        var sweep = Sweep("VaultTamperTests sqlite")
        // Every 11th byte in a full sweep; else a sample of them from each 4 KiB page (the
        // database header, the schema, each table's and index's b-tree pages, free pages).
        let offsets = Swift.stride(from: 0, to: size, by: page).flatMap { start in
            sweep.pick(
                Self.sampledFlipsPerPage,
                from: Array(
                    Swift.stride(
                        from: (start + stride - 1) / stride * stride, to: min(size, start + page), by: stride)))
        }
        var refused = 0, damaged = 0, harmless = 0
        var harmlessPages = Set<Int>()
        for offset in offsets {
            let mask = Self.mask(at: offset)
            let context = "sqlite byte \(offset) mask \(mask) (\(sweep.replay))"
            let outcome = try sweep.check(context) {
                try withFlip(database, at: offset, mask: mask) { () -> Outcome in
                    defer { for url in sidecars { try? FileManager.default.removeItem(at: url) } }
                    return readEverything(directory, expecting: originals, context: context)
                }
            }
            switch outcome {
            case .refused: refused += 1
            case .damaged: damaged += 1
            case .harmless:
                harmless += 1
                harmlessPages.insert(offset / 4096)
            }
        }
        XCTAssertTrue(readEverything(directory, expecting: originals, context: "restored") == .harmless)
        print(
            "tamper sqlite: \(refused + damaged + harmless) flips (of every \(stride)th byte of \(size)): "
                + "\(refused) refused at open, \(damaged) reported, \(harmless) harmless "
                + "(4 KiB pages with harmless flips: \(harmlessPages.sorted()))")
        XCTAssertGreaterThan(refused + damaged, 0, sweep.replay)
    }
}
