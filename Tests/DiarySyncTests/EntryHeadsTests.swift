import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

final class EntryHeadsTests: XCTestCase {
    let id = UUID()
    let a = UUID(), b = UUID()

    private func entry(_ text: String) -> Entry {
        let d = Date(millisecondsSince1970: 1_700_000_000_000)
        return Entry(id: id, text: text, date: d, created: d, modified: d, starred: false, tags: [])
    }

    private func revision(_ text: String?, parents: [UUID] = []) -> Revision {
        Revision(entry: id, id: UUID(), parents: parents, content: text.map(entry))
    }

    func testALineOfEditsHasOneHead() {
        var heads = EntryHeads()
        let first = revision("one")
        let second = revision("two", parents: [first.id])
        heads.add(first, lamport: 1, machine: a)
        heads.add(second, lamport: 2, machine: a)
        XCTAssertEqual(heads.heads.map(\.revision), [second.id])
        XCTAssertFalse(heads.isConflict)
        XCTAssertTrue(heads.awaited.isEmpty)
    }

    func testEditsMadeApartAreAConflictWhateverTheirOrder() {
        let base = revision("base")
        let left = revision("left", parents: [base.id])
        let right = revision("right", parents: [base.id])
        var one = EntryHeads(), two = EntryHeads()
        for r in [base, left, right] { one.add(r, lamport: 1, machine: a) }
        for r in [base, right, left] { two.add(r, lamport: 1, machine: a) }
        XCTAssertTrue(one.isConflict)
        XCTAssertEqual(Set(one.heads.map(\.revision)), [left.id, right.id])
        XCTAssertEqual(one.preferred?.revision, two.preferred?.revision)
    }

    func testTheSameChangeOnTwoMachinesIsNotAConflict() {
        var heads = EntryHeads()
        let base = revision("base")
        heads.add(base, lamport: 1, machine: a)
        heads.add(revision("same", parents: [base.id]), lamport: 2, machine: a)
        heads.add(revision("same", parents: [base.id]), lamport: 2, machine: b)
        XCTAssertEqual(heads.heads.count, 2)
        XCTAssertFalse(heads.isConflict)
        heads.shownDigest = Head.digest(of: entry("same"))
        XCTAssertEqual(heads.parentsOfLocalChange.count, 2, "the next change replaces both")
    }

    func testARevisionArrivingAfterItsReplacementIsHistory() {
        var heads = EntryHeads()
        let first = revision("one")
        let second = revision("two", parents: [first.id])
        heads.add(second, lamport: 2, machine: b)
        XCTAssertEqual(heads.awaited, [first.id])
        heads.add(first, lamport: 1, machine: a)
        XCTAssertEqual(heads.heads.map(\.revision), [second.id])
        XCTAssertTrue(heads.awaited.isEmpty)
    }

    func testAnEditBeatsADeletionForWhatIsShownAndBothAreKept() {
        var heads = EntryHeads()
        let base = revision("base")
        heads.add(base, lamport: 1, machine: a)
        heads.add(revision(nil, parents: [base.id]), lamport: 9, machine: a)
        heads.add(revision("edited", parents: [base.id]), lamport: 2, machine: b)
        XCTAssertTrue(heads.isConflict)
        XCTAssertEqual(heads.preferred?.content?.text, "edited")
        XCTAssertEqual(heads.heads.count, 2)
    }

    func testAResolutionNamingEveryHeadEndsTheConflict() {
        var heads = EntryHeads()
        let base = revision("base")
        let left = revision("left", parents: [base.id])
        let right = revision("right", parents: [base.id])
        for r in [base, left, right] { heads.add(r, lamport: 1, machine: a) }
        heads.add(revision("merged", parents: [left.id, right.id]), lamport: 3, machine: b)
        XCTAssertFalse(heads.isConflict)
        XCTAssertEqual(heads.preferred?.content?.text, "merged")
        heads.compact()
        XCTAssertNil(heads.heads[0].content, "one head's text lives in the vault, not in the state")
    }
}
