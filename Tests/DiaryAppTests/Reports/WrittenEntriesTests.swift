import DiaryApp
import DiaryTestSupport
import Foundation
import XCTest

/// What `stats` and `calendar` read: each entry with its words; an entry whose text does not
/// open still counts (the index has its date), without words, and is returned as damaged.
final class WrittenEntriesTests: VaultTestCase {
    func testADamagedEntryCountsWithoutItsWordsAndIsNamed() {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let ids = try ["one two", "three four five", "six"].map { try vault.write($0, on: "2024-05-01").id }
            try vault.damage(ids[1])
            let written = try WrittenEntries.read(vault)
            XCTAssertEqual(written.damaged, [ids[1]])
            XCTAssertEqual(written.summaries.count, 3)
            XCTAssertEqual(written.totalWords, 3)
            let stats = StatsReport(written, today: CalendarDay(year: 2024, month: 5, day: 1), calendar: Fixed.utc)
            XCTAssertEqual(stats.entries, 3)
            XCTAssertEqual(stats.words, 3)
            let year = CalendarYear(year: 2024, written: written, calendar: Fixed.utc)
            XCTAssertEqual(
                year.days.first { $0.day == CalendarDay(year: 2024, month: 5, day: 1) }?.tally,
                DayTally(entries: 3, words: 3))
        }
    }

    func testTheFilterChoosesTheEntries() throws {
        let vault = try makeVault(.files)
        try vault.write("old words", on: "2023-06-01")
        let kept = try vault.write("new words here", on: "2024-06-01")
        let written = try WrittenEntries.read(vault, EntryFilter(from: Fixed.instant("2024-01-01T00:00:00Z")))
        XCTAssertEqual(written.summaries.map(\.id), [kept.id])
        XCTAssertEqual(written.totalWords, 3)
        XCTAssertEqual(written.damaged, [])
    }
}
