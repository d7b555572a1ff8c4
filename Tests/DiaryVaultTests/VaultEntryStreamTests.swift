import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `Vault.forEachEntry(_:_:)` checks each entry against the index on the workers that open it,
/// as the batch starts with the index; what it delivers and refuses must be what a check on
/// this thread, entry by entry, gives.
final class VaultEntryStreamTests: VaultTestCase {
    private func day(_ n: Int) -> Date { Date(millisecondsSince1970: 1_700_000_000_000 + Int64(n) * 86_400_000) }

    /// More than one batch: every entry comes, in the order asked.
    func testEveryEntryComesInTheOrderAsked() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<300).map { try vault.add(text: "entry \($0)", date: day($0)).id }.shuffled()
            var seen: [UUID] = []
            try vault.forEachEntry(ids) { seen.append($0.id) }
            XCTAssertEqual(seen, ids)
        }
    }

    /// An authentic older copy put back is not the copy the index records: refused, after
    /// every entry before it was delivered.
    func testAnOlderCopyPutBackStopsTheStreamAtIt() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<5).map { try vault.add(text: "walk \($0)", date: day($0)).id }
            let older = try XCTUnwrap(try vault.backend.readEntry(ids[3]))
            try vault.update(ids[3], text: "walk 3, edited")
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [ids[3]: older])) }
            try assertStreamStops(vault, ids, at: 3)
        }
    }

    /// An entry another process changed after this one read the index is not the copy this
    /// index records: the index is read again, and the entry comes as it now is.
    func testAnEntryChangedByAnotherProcessComesAsItNowIs() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<5).map { try vault.add(text: "pond \($0)", date: day($0)).id }
            try vault.sealedIndex.ensureAllPages()
            let other = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            try other.update(ids[1], text: "pond 1, edited elsewhere")
            var texts: [String] = []
            try vault.forEachEntry(ids) { texts.append($0.text) }
            XCTAssertEqual(texts, ["pond 0", "pond 1, edited elsewhere", "pond 2", "pond 3", "pond 4"])
        }
    }

    /// The index read again for one entry of a batch holds for the rest of it: an older copy put
    /// back that this process's stale index would have recorded is refused, not delivered.
    func testAnOlderCopyTheStaleIndexRecordsIsRefusedOnceTheIndexWasReadAgain() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<5).map { try vault.add(text: "lake \($0)", date: day($0)).id }
            try vault.sealedIndex.ensureAllPages()
            let older = try XCTUnwrap(try vault.backend.readEntry(ids[3]))
            let other = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            try other.update(ids[1], text: "lake 1, edited elsewhere")
            try other.update(ids[3], text: "lake 3, edited elsewhere")
            try vault.backend.withWriteLock { try vault.backend.apply(StoreChange(putEntries: [ids[3]: older])) }
            try assertStreamStops(vault, ids, at: 3)
        }
    }

    /// Streaming `ids` delivers the entries before `index`, then refuses that one as damaged.
    private func assertStreamStops(
        _ vault: Vault, _ ids: [UUID], at index: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var seen: [UUID] = []
        XCTAssertThrowsError(try vault.forEachEntry(ids) { seen.append($0.id) }, file: file, line: line) { error in
            guard case .entryDamaged(let id, _)? = error as? VaultError else {
                return XCTFail("\(error)", file: file, line: line)
            }
            XCTAssertEqual(id, ids[index], file: file, line: line)
        }
        XCTAssertEqual(seen, Array(ids.prefix(index)), file: file, line: line)
    }
}
