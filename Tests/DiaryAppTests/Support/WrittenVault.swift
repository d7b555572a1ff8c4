import DiaryApp
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Writing entries for the report tests: dates as instants (noon UTC unless a time is given),
/// so that the day each falls on does not depend on the time zone the tests run in.
extension Vault {
    @discardableResult
    func write(_ text: String, on date: String, star: Bool = false, tags: [String] = []) throws -> Entry {
        let iso = date.count == 10 ? date + "T12:00:00Z" : date
        return try add(text: text, date: Fixed.instant(iso), starred: star, tags: tags + InlineTags.find(in: text))
    }

    /// Flips a bit of an entry's sealed copy: its text no longer opens.
    func damage(_ id: UUID) throws {
        var sealed = try XCTUnwrap(try backend.readEntry(id))
        sealed[sealed.count - 1] ^= 1
        try backend.withWriteLock { try backend.apply(StoreChange(putEntries: [id: sealed])) }
    }
}
