import DiaryStore
import XCTest

/// Runs `body` once per store kind (GRDB's habit: one test body, every conformer). A failure
/// names the store it came from and does not stop the other store's run.
public func forEachStoreKind(
    file: StaticString = #filePath, line: UInt = #line, _ body: (StoreKind) throws -> Void
) {
    for kind in StoreKind.allCases {
        do {
            try body(kind)
        } catch {
            XCTFail("store \(kind.rawValue): \(error)", file: file, line: line)
        }
    }
}
