import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The one rule both inboxes apply to a file name: an item is read only under its own.
final class CaptureItemNameTests: VaultTestCase {
    func testAnItemUnderAnyNameButItsOwnIsRefusedAsMisnamed() throws {
        let vault = try makeVault(.files)
        let phone = try vault.enrolCaptureDevice(name: "phone").advanced()
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        let item = try CaptureItem.seal(
            CapturedEntry(text: "x", date: now, captured: now, starred: false, tags: []), credential: phone)
        let own = CaptureItem.fileName(deviceID: phone.deviceID, counter: 1)
        XCTAssertNil(CaptureItem.misnamed(item, fileName: own))
        let misnamed = CaptureOutcome.damaged(device: nil, reason: CaptureItem.misnamedReason)
        for other in [
            CaptureItem.fileName(deviceID: phone.deviceID, counter: 2),
            CaptureItem.fileName(deviceID: UUID(), counter: 1),
        ] {
            XCTAssertEqual(CaptureItem.misnamed(item, fileName: other), misnamed, other)
        }
        XCTAssertNil(
            CaptureItem.misnamed(Array("not an item".utf8), fileName: own), "the take-in says what is wrong with it")
    }
}
