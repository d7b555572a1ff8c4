import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// What a `new` or an `edit` meant to store travels with a text it left behind, and `recover`
/// stores the text as the command would have.
final class EditIntentTests: XCTestCase {
    func testAnIntentReadsBackAsWritten() throws {
        let day = EditIntent.newEntry(
            date: Date(timeIntervalSince1970: 1_732_482_000.25), dateIsDay: true, tags: ["#home", "walks"],
            starred: true)
        XCTAssertEqual(day.tags, ["home", "walks"], "options' tags are cleaned as --tag cleans them")
        XCTAssertEqual(EditIntent(day.bytes), day)
        let entry = Entry(
            id: UUID(), text: "Plans #planning and @work", date: Date(timeIntervalSince1970: 1_732_482_000.125),
            created: Date(), modified: Date(), starred: false, tags: [])
        let edit = EditIntent.edit(of: entry, date: nil, dateIsDay: true)
        XCTAssertEqual(edit.writtenBefore, ["planning", "work"])
        XCTAssertEqual(edit.entryBefore, EditIntent.stateDigest(of: entry))
        XCTAssertFalse(edit.dateIsDay, "no date, no whole day")
        XCTAssertEqual(EditIntent(edit.bytes), edit)
    }

    func testAnotherVersionOrDamagedBytesAreNotAnIntent() {
        let bytes = EditIntent.newEntry(date: Date(), dateIsDay: false, tags: [], starred: false).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\"version\":1"), text)
        XCTAssertNil(EditIntent(Array(text.replacingOccurrences(of: "\"version\":1", with: "\"version\":2").utf8)))
        XCTAssertNil(EditIntent(Array(bytes.dropLast())))
        XCTAssertNil(EditIntent([]))
    }

    /// An edit's fingerprint changes with the entry's text or date, not with its tags or star
    /// (an edit keeps those as they are when it is stored).
    func testTheFingerprintFollowsTextAndDate() {
        let entry = Entry(
            id: UUID(), text: "Canal", date: Date(timeIntervalSince1970: 1_732_482_000), created: Date(),
            modified: Date(), starred: false, tags: [])
        let intent = EditIntent.edit(of: entry, date: nil, dateIsDay: false)
        XCTAssertFalse(intent.entryChanged(entry))
        var later = entry
        later.tags = ["later"]
        later.starred = true
        XCTAssertFalse(intent.entryChanged(later))
        later.text = "Canal, and more"
        XCTAssertTrue(intent.entryChanged(later))
        later = entry
        later.date = entry.date.addingTimeInterval(0.001)
        XCTAssertTrue(intent.entryChanged(later))
        later = entry
        later.isCalendarDay = true
        XCTAssertTrue(intent.entryChanged(later))
        XCTAssertNotEqual(EditIntent.stateDigest(of: entry), "", "never empty")
    }
}

final class LeftoverTextTests: VaultTestCase {
    func testANewEntryKeepsItsDateTagsAndStar() throws {
        let vault = try makeVault(.files)
        let when = date("2026-11-24T21:00:00Z")
        let intent = EditIntent.newEntry(date: when, dateIsDay: false, tags: ["walks"], starred: true)
        let outcome = try LeftoverText.store("Heron\nby the canal #home", editing: nil, intent: intent, in: vault)
        guard case .added(let id) = outcome else { return XCTFail("\(outcome)") }
        let entry = try vault.entry(id)
        XCTAssertEqual(entry.date, when)
        XCTAssertEqual(entry.tags, ["home", "walks"])
        XCTAssertTrue(entry.starred)
    }

    func testADayDateStaysADay() throws {
        let vault = try makeVault(.files)
        let intent = EditIntent.newEntry(date: date("2026-11-24T00:00:00Z"), dateIsDay: true, tags: [], starred: false)
        guard case .added(let id) = try LeftoverText.store("Day", editing: nil, intent: intent, in: vault) else {
            return XCTFail()
        }
        XCTAssertTrue(try vault.entry(id).isCalendarDay)
    }

    func testAnEditAddsOnlyTheTagsItWroteAndItsDate() throws {
        let vault = try makeVault(.files)
        let before = "Plans #planning"
        // `diary tag ID -planning` left the entry without the tag its text still holds.
        let id = try vault.add(text: before, tags: ["kept"]).id
        let when = date("2026-11-20T08:00:00Z")
        let intent = EditIntent.edit(of: try vault.entry(id), date: when, dateIsDay: false)
        let outcome = try LeftoverText.store(
            "Plans #planning\nand a #swim", editing: id, intent: intent, in: vault)
        XCTAssertEqual(outcome, .updated(id))
        let entry = try vault.entry(id)
        XCTAssertEqual(entry.tags, ["kept", "swim"])
        XCTAssertEqual(entry.date, when)
        XCTAssertEqual(entry.text, "Plans #planning\nand a #swim")
    }

    func testUnchangedBlankAndOrphanedTexts() throws {
        let vault = try makeVault(.files)
        let id = try vault.add(text: "Same").id
        let intent = EditIntent.edit(of: try vault.entry(id), date: nil, dateIsDay: false)
        XCTAssertEqual(try LeftoverText.store("Same", editing: id, intent: intent, in: vault), .unchanged(id))
        XCTAssertEqual(try LeftoverText.store(" \n", editing: nil, intent: nil, in: vault), .empty)
        // The edited entry was deleted since: the text becomes an entry of its own.
        try vault.delete(id)
        guard case .added(let other) = try LeftoverText.store("Same, more #x", editing: id, intent: intent, in: vault)
        else { return XCTFail() }
        XCTAssertNotEqual(other, id)
        XCTAssertEqual(try vault.entry(other).tags, ["x"])
    }

    /// The entry was edited (and tagged) after the edit began: the left text never replaces it;
    /// it becomes a new entry with the entry's date, tags and star, and the outcome names both.
    func testAnEditNeverReplacesALaterChange() throws {
        let vault = try makeVault(.files)
        let when = date("2026-11-20T08:00:00Z")
        let id = try vault.add(text: "Canal #walks", date: when, starred: true, tags: ["walks"]).id
        let intent = EditIntent.edit(of: try vault.entry(id), date: nil, dateIsDay: false)
        try vault.update(id, text: "Canal #walks\nthe later paragraph")
        try vault.update(id, tags: ["later", "walks"])

        let outcome = try LeftoverText.store(
            "Canal #walks\nthe failed paragraph #swim", editing: id, intent: intent, in: vault)
        guard case .addedBesideChanged(let added, let original) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(original, id)
        XCTAssertEqual(try vault.entry(id).text, "Canal #walks\nthe later paragraph")
        let copy = try vault.entry(added)
        XCTAssertEqual(copy.text, "Canal #walks\nthe failed paragraph #swim")
        XCTAssertEqual(copy.date, when)
        XCTAssertTrue(copy.starred)
        XCTAssertEqual(copy.tags, ["later", "swim", "walks"])
        // A later change that already holds the left text loses nothing: nothing to store.
        XCTAssertEqual(
            try LeftoverText.store("Canal #walks\nthe later paragraph", editing: id, intent: intent, in: vault),
            .unchanged(id))
    }

    /// A directory left by a diary that kept no intent: stored as before (a new entry now, with
    /// its written tags; an edit's tags untouched).
    func testWithoutAnIntentTheTextIsStillStored() throws {
        let vault = try makeVault(.files)
        let id = try vault.add(text: "Old #gone").id
        try vault.update(id, tags: [])
        XCTAssertEqual(try LeftoverText.store("Old #gone, new", editing: id, intent: nil, in: vault), .updated(id))
        XCTAssertEqual(try vault.entry(id).tags, [])
        guard case .added(let new) = try LeftoverText.store("New #walk", editing: nil, intent: nil, in: vault) else {
            return XCTFail()
        }
        XCTAssertEqual(try vault.entry(new).tags, ["walk"])
        XCTAssertFalse(try vault.entry(new).starred)
    }
}
