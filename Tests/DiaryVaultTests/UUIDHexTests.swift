import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// `UUID.compactHex` and `UUID.lowercaseString`: the forms of ids in file names, short-id
/// prefixes and the JSON export.
final class UUIDHexTests: XCTestCase {
    func testCompactHexIsTheLowercaseUUIDStringWithoutDashes() throws {
        let known = try XCTUnwrap(UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427"))
        XCTAssertEqual(known.compactHex, "1b4e28ba2fa111d2883f0016d3cca427")
        for _ in 0..<1000 {
            let id = UUID()
            XCTAssertEqual(id.compactHex, id.uuidString.lowercased().replacingOccurrences(of: "-", with: ""))
        }
    }

    func testLowercaseStringIsTheLowercaseUUIDString() throws {
        let known = try XCTUnwrap(UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427"))
        XCTAssertEqual(known.lowercaseString, "1b4e28ba-2fa1-11d2-883f-0016d3cca427")
        for _ in 0..<1000 {
            let id = UUID()
            XCTAssertEqual(id.lowercaseString, id.uuidString.lowercased())
            XCTAssertEqual(FileStore.fileName(for: id), id.uuidString.lowercased())
        }
    }
}
