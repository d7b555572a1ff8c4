import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Entry behaviour, run against both stores.
final class VaultEntryTests: VaultTestCase {
    func testAddedEntryReadsBackExactlyAfterReopening() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let text = "서울의 봄 🌸\n오늘은 날씨가 좋았다.\nSecond line with émoji 👩‍💻"
            let added = try vault.add(
                text: text, date: date("2023-09-15T10:30:00Z"), starred: true, tags: ["travel", "korea"])
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            let read = try reopened.entry(added.id)
            XCTAssertEqual(read, added)
            XCTAssertEqual(read.text, text)
            XCTAssertEqual(read.title, "서울의 봄 🌸")
            XCTAssertEqual(read.tags, ["korea", "travel"])
            XCTAssertEqual(try reopened.list().map(\.id), [added.id])
        }
    }

    func testBlankTextIsRefusedAndNothingIsStored() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            for blank in ["", "   ", "\n\n\t \n"] {
                XCTAssertThrowsVaultError(.emptyText, try vault.add(text: blank))
            }
            XCTAssertEqual(try vault.list(), [])
            XCTAssertEqual(try vault.verify().checkedEntries, 0)
        }
    }

    func testTitleIsTheFirstLineThatIsNotBlank() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let titled = try vault.add(text: "  Morning walk  \nbody")
            let late = try vault.add(text: "\n  \t\n Evening swim\nand a body")
            XCTAssertEqual(titled.title, "Morning walk")
            XCTAssertEqual(late.title, "Evening swim")
            XCTAssertEqual(late.body, "and a body")
            let titles = Set(try vault.list().map(\.title))
            XCTAssertEqual(titles, ["Morning walk", "Evening swim"])
        }
    }

    func testOversizedTextIsRefused() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let big = String(repeating: "a", count: Vault.maximumTextBytes + 1)
            XCTAssertThrowsVaultError(
                .entryTooLarge(bytes: Vault.maximumTextBytes + 1, limit: Vault.maximumTextBytes),
                try vault.add(text: big))
            XCTAssertEqual(try vault.list(), [])
        }
    }

    func testListIsNewestFirstAndFilters() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let old = try vault.add(text: "old", date: date("2020-01-01T00:00:00Z"), tags: ["work"])
            let mid = try vault.add(text: "mid", date: date("2022-06-01T00:00:00Z"), starred: true)
            let new = try vault.add(text: "new", date: date("2024-02-22T15:00:00Z"), tags: ["Work"])
            XCTAssertEqual(try vault.list().map(\.id), [new.id, mid.id, old.id])
            XCTAssertEqual(try vault.list(EntryFilter(starred: true)).map(\.id), [mid.id])
            XCTAssertEqual(try vault.list(EntryFilter(tag: "work")).map(\.id), [new.id, old.id])
            XCTAssertEqual(
                try vault.list(EntryFilter(from: date("2021-01-01T00:00:00Z"), to: date("2023-01-01T00:00:00Z"))).map(
                    \.id),
                [mid.id])
            XCTAssertEqual(try vault.list(EntryFilter(limit: 2)).map(\.id), [new.id, mid.id])
        }
    }

    func testUpdateChangesOnlyWhatIsGivenAndBumpsModified() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let e = try vault.add(text: "first\nbody", tags: ["a"])
            Thread.sleep(forTimeInterval: 0.005)
            let starred = try vault.update(e.id, starred: true)
            XCTAssertTrue(starred.starred)
            XCTAssertEqual(starred.text, e.text)
            XCTAssertEqual(starred.created, e.created)
            XCTAssertGreaterThan(starred.modified, e.modified)
            let retagged = try vault.update(e.id, tags: ["b", "a", "b"])
            XCTAssertEqual(retagged.tags, ["a", "b"])
            let unchanged = try vault.update(e.id, text: retagged.text)
            XCTAssertEqual(unchanged, retagged, "no change must not write")
            XCTAssertThrowsVaultError(.emptyText, try vault.update(e.id, text: "  "))
            XCTAssertEqual(try vault.entry(e.id), retagged)
        }
    }

    func testDeleteRemovesEntryAndUnknownIdIsAnError() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let keep = try vault.add(text: "keep")
            let drop = try vault.add(text: "drop")
            try vault.delete(drop.id)
            XCTAssertEqual(try vault.list().map(\.id), [keep.id])
            XCTAssertThrowsVaultError(.unknownID(drop.id.uuidString.lowercased()), try vault.entry(drop.id))
            XCTAssertThrowsVaultError(.unknownID(drop.id.uuidString.lowercased()), try vault.delete(drop.id))
        }
    }

    func testResolveAcceptsUniquePrefixesAndNamesAmbiguousOnes() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            func put(_ uuid: String) throws -> UUID {
                let now = Date(millisecondsSince1970: 1_700_000_000_000)
                return try vault.put(
                    Entry(
                        id: UUID(uuidString: uuid)!, text: uuid, date: now, created: now, modified: now,
                        starred: false, tags: [])
                ).id
            }
            let first = try put("abcd1234-0000-4000-8000-000000000001")
            let second = try put("abcd5678-0000-4000-8000-000000000002")
            XCTAssertEqual(try vault.resolve(first.uuidString), first)
            XCTAssertEqual(try vault.resolve("ABCD12"), first)
            XCTAssertEqual(try vault.resolve("abcd-5678"), second)
            XCTAssertThrowsVaultError(.ambiguousID("abcd", matches: [first, second]), try vault.resolve("abcd"))
            XCTAssertThrowsVaultError(.unknownID("ffff"), try vault.resolve("ffff"))
            XCTAssertThrowsVaultError(.invalidID("abc"), try vault.resolve("abc"))
            XCTAssertThrowsVaultError(.invalidID("zzzz"), try vault.resolve("zzzz"))
        }
    }

    func testSearchIsCaseAndDiacriticInsensitiveAndRespectsFilters() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let cafe = try vault.add(text: "Visited the CAFÉ today", tags: ["food"])
            let korean = try vault.add(text: "오늘 카페에 갔다", starred: true)
            _ = try vault.add(text: "Nothing here")
            XCTAssertEqual(try vault.search("cafe").matches.map(\.id), [cafe.id])
            XCTAssertEqual(try vault.search("카페").matches.map(\.id), [korean.id])
            XCTAssertEqual(try vault.search("café", filter: EntryFilter(starred: true)).matches, [])
            XCTAssertEqual(try vault.search("NOTHING").matches.count, 1)
        }
    }

    func testConcurrentWritersInOneProcessKeepEveryEntry() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let other = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            let a = try vault.add(text: "from a")
            let b = try other.add(text: "from b")  // other's index predates a: the write must re-read it
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(Set(try reopened.list().map(\.id)), [a.id, b.id])
        }
    }
}

/// Bulk import, run against both stores.
final class VaultImportTests: VaultTestCase {
    func testImportKeepsIdsAndDatesAndIsIdempotent() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let d = date("2019-05-01T12:00:00Z")
            let entries = [
                Entry(
                    id: UUID(), text: "imported one", date: d, created: d, modified: d, starred: true,
                    tags: ["@work"], source: "jrnl:abc"),
                Entry(
                    id: UUID(), text: "imported two", date: d, created: d, modified: d, starred: false,
                    tags: [], source: "jrnl:def"),
            ]
            let first = try vault.importEntries(entries)
            XCTAssertEqual(first.imported, entries.map(\.id))
            XCTAssertEqual(try vault.entry(entries[0].id), entries[0])
            // Same sources with new ids are still duplicates.
            let again = entries.map {
                Entry(
                    id: UUID(), text: $0.text, date: d, created: d, modified: d, starred: false, tags: [],
                    source: $0.source)
            }
            XCTAssertEqual(try vault.importEntries(again), ImportOutcome(imported: [], duplicates: 2))
            XCTAssertEqual(try vault.list().count, 2)
        }
    }

    func testImportWithOneBlankEntryImportsNothing() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let d = Date()
            let entries = [
                Entry(id: UUID(), text: "fine", date: d, created: d, modified: d, starred: false, tags: []),
                Entry(id: UUID(), text: "  \n", date: d, created: d, modified: d, starred: false, tags: []),
            ]
            XCTAssertThrowsVaultError(
                .importRefused(position: 2, detail: VaultError.emptyText.description), try vault.importEntries(entries))
            XCTAssertEqual(try vault.list(), [])
        }
    }
}
