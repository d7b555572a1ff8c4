import DiaryApp
import XCTest

final class DiaryAppModuleTests: XCTestCase {
    /// The CLI reaches the model types through DiaryApp alone.
    func testModelTypesAreReexported() {
        let filter = EntryFilter(starred: true, tag: nil, from: nil, to: nil, limit: 3)
        XCTAssertEqual(filter.limit, 3)
    }
}
