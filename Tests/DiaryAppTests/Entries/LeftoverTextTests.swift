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
        let edit = EditIntent.edit(of: "Plans #planning and @work", date: nil, dateIsDay: true)
        XCTAssertEqual(edit.writtenBefore, ["planning", "work"])
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
        let intent = EditIntent.edit(of: before, date: when, dateIsDay: false)
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
        let intent = EditIntent.edit(of: "Same", date: nil, dateIsDay: false)
        XCTAssertEqual(try LeftoverText.store("Same", editing: id, intent: intent, in: vault), .unchanged(id))
        XCTAssertEqual(try LeftoverText.store(" \n", editing: nil, intent: nil, in: vault), .empty)
        // The edited entry was deleted since: the text becomes an entry of its own.
        try vault.delete(id)
        guard case .added(let other) = try LeftoverText.store("Same, more #x", editing: id, intent: intent, in: vault)
        else { return XCTFail() }
        XCTAssertNotEqual(other, id)
        XCTAssertEqual(try vault.entry(other).tags, ["x"])
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
