import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The paged index at work in a vault (docs/FORMAT.md §7): what is read, what is written, and
/// what happens when a page is stale, damaged, or from an older version of the format.
final class VaultIndexPageTests: VaultTestCase {
    private func add(_ vault: Vault, _ n: Int) throws -> [Entry] {
        try (0..<n).map {
            try vault.add(text: "Entry \($0)\nbody", date: Date(timeIntervalSince1970: Double($0) * 86_400))
        }
    }

    func testShowReadsOnePageAndListReadsThemAll() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try add(vault, 40)
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(reopened.entryCount, 40, "the count comes from the root")
            XCTAssertTrue(reopened.sealedIndex.index.pages.isEmpty, "opening reads the root alone")
            let target = entries[17]
            XCTAssertEqual(try reopened.entry(try reopened.resolve(String(target.id.compactHex.prefix(8)))), target)
            XCTAssertEqual(
                Array(reopened.sealedIndex.index.pages.keys), [IndexLayout.firstPage(of: target.id)])
            XCTAssertEqual(try reopened.list().count, 40)
            XCTAssertTrue(reopened.sealedIndex.index.allPagesLoaded)
        }
    }

    func testAWriteSealsOnlyTheChangedPageItsDirectoryAndTheRoot() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try add(vault, 30)
            let pagesBefore = try vault.backend.readIndexPages()
            let rootBefore = try vault.backend.readIndex()
            XCTAssertEqual(Set(pagesBefore.keys), IndexLayout.firstStored, "every page exists, empty ones too")
            try vault.update(entries[3].id, starred: true)
            let pagesAfter = try vault.backend.readIndexPages()
            let changed = pagesAfter.keys.filter { pagesAfter[$0] != pagesBefore[$0] }
            XCTAssertEqual(
                Set(changed), [IndexLayout.firstPage(of: entries[3].id), IndexDirectory.storeBase + 1])
            XCTAssertNotEqual(try vault.backend.readIndex(), rootBefore)
            XCTAssertTrue(try vault.verify().isClean)
        }
    }

    func testAnOlderPagePutBackIsRefusedUntilTheIndexIsRebuilt() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entries = try add(vault, 10)
            let target = entries[4]
            let page = IndexLayout.firstPage(of: target.id)
            let old = try XCTUnwrap(try vault.backend.readIndexPage(page))
            try vault.update(target.id, tags: ["after"])
            // Someone puts the page back as it was (from an old backup, say): it still opens.
            try vault.backend.apply(StoreChange(putIndexPages: [page: old]))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(
                try reopened.list().first { $0.id == target.id }?.tags, ["after"],
                "the listing comes from the entries, not the stale page")
            XCTAssertEqual(reopened.indexState, .damaged)
            let report = try reopened.verify()
            XCTAssertTrue(
                report.damaged.contains { $0.object == .index && $0.reason.hasPrefix("page \(page):") },
                "\(report.damaged)")
            // No ordinary write stores a rebuilt index; only an explicit repair does.
            XCTAssertThrowsVaultError(.indexNeedsRepair, try reopened.add(text: "not now"))
            try reopened.reindex()
            XCTAssertTrue(try Vault.open(at: vault.directory, passphrase: secret("correct horse")).verify().isClean)
        }
    }

    func testAnOlderEntryPutBackIsRefusedThroughItsPage() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entry = try vault.add(text: "Original\nfirst words")
            let old = try XCTUnwrap(try vault.backend.readEntry(entry.id))
            try vault.update(entry.id, text: "Edited\nsecond words")
            try vault.backend.apply(StoreChange(putEntries: [entry.id: old]))
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertThrowsError(try reopened.entry(entry.id)) { error in
                guard case .entryDamaged(let id, _) = error as? VaultError else { return XCTFail("\(error)") }
                XCTAssertEqual(id, entry.id)
            }
            XCTAssertEqual(try reopened.verify().damaged.map(\.object), [.entry(entry.id)])
        }
    }

    func testPagesWrittenByAnotherProcessAfterOpenAreReadWithTheirRoot() throws {
        forEachStoreKind { kind in
            let first = try makeVault(kind)
            _ = try add(first, 20)
            let reader = try Vault.open(at: first.directory, passphrase: secret("correct horse"))
            // Another writer changes pages and the root after `reader` read the root.
            let second = try Vault.open(at: first.directory, passphrase: secret("correct horse"))
            let added = try add(second, 20)
            XCTAssertEqual(try reader.list().count, 40, "root and pages are read again together")
            XCTAssertEqual(reader.indexState, .ok)
            XCTAssertEqual(try reader.entry(added[7].id), added[7])
        }
    }

    /// Four root versions are read (5; 3, 4 with a recovery key, and 2 to migrate): an authentic root of any other
    /// version (an older development format, or a newer diary's) is refused by name, never
    /// read or rebuilt over.
    func testAnIndexOfAnotherVersionIsRefusedWithItsVersion() throws {
        try forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "An entry")
            for version: UInt8 in [1, 6] {
                var plaintext = vault.sealedIndex.index.root.encoded()
                plaintext[0] = version
                let sealed = try Envelope.seal(
                    plaintext, kind: .index, objectID: Envelope.indexObjectID, vaultID: vault.id,
                    keys: vault.keyRing.current)
                try vault.backend.apply(StoreChange(index: sealed))
                XCTAssertThrowsVaultError(
                    .unsupportedIndexVersion(found: Int(version), supported: Int(IndexDirectory.rootVersion)),
                    try Vault.open(at: vault.directory, passphrase: secret("correct horse")))
            }
        }
    }
}
