import Foundation
import XCTest

@testable import DiarySync

final class RemoteLayoutTests: XCTestCase {
    func testConflictCopyNamesOfCommonSyncToolsLeadBackToTheOriginal() {
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("000000000003.sync-conflict-20240101-120000-ABCDEFG"), "000000000003")
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("a-000000000001.sync-conflict-20240101-120000-X.sqlite"),
            "a-000000000001.sqlite")
        XCTAssertEqual(RemoteLayout.conflictCopyOriginal("000000000003 (conflicted copy 2024-01-01)"), "000000000003")
        XCTAssertEqual(RemoteLayout.conflictCopyOriginal("000000000003 (Conflicted copy from laptop)"), "000000000003")
        XCTAssertEqual(RemoteLayout.conflictCopyOriginal("000000000003 (1)"), "000000000003")
        // Dropbox names the device, with an apostrophe, and may number a second copy inside.
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("000000000003 (laptop's conflicted copy 2024-01-01)"), "000000000003")
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("000000000003 (Jo's MacBook (2)'s conflicted copy 2024-01-01 (1))"),
            "000000000003")
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("a-000000000001 (desktop's conflicted copy 2024-01-01).files"),
            "a-000000000001.files")
        // Nextcloud adds the time.
        XCTAssertEqual(
            RemoteLayout.conflictCopyOriginal("000000000003 (conflicted copy 2024-01-01 101010)"), "000000000003")
        XCTAssertNil(RemoteLayout.conflictCopyOriginal("000000000003 (draft)"))
        XCTAssertNil(RemoteLayout.conflictCopyOriginal("000000000003"))
    }

    func testRecordNamesAreExactlyTwelveDigitsFromOne() {
        XCTAssertEqual(RemoteLayout.seq(fromName: "000000000012"), 12)
        XCTAssertEqual(RemoteLayout.recordName(12), "000000000012")
        for bad in ["000000000000", "00000000012", "0000000000012", "+00000000012", "00000000001a", "٠٠٠٠٠٠٠٠٠٠٠١"] {
            XCTAssertNil(RemoteLayout.seq(fromName: bad), bad)
        }
    }

    func testMachineIDsAndHeaderNamesParseStrictly() {
        let id = UUID()
        let hex = RemoteLayout.hex(id)
        XCTAssertEqual(RemoteLayout.machineID(fromHex: hex), id)
        XCTAssertNil(RemoteLayout.machineID(fromHex: hex.uppercased()))
        XCTAssertNil(RemoteLayout.machineID(fromHex: String(hex.dropLast())))
        let name = "\(hex)-000000000002.files"
        XCTAssertEqual(RemoteLayout.header(fromName: name)?.seq, 2)
        XCTAssertEqual(RemoteLayout.header(fromName: name)?.machine, id)
        XCTAssertNil(RemoteLayout.header(fromName: "\(hex)-000000000002.zip"))
        XCTAssertNil(RemoteLayout.header(fromName: "\(hex)-2.files"))
    }
}
