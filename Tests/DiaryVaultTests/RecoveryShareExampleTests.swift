import Foundation
import XCTest

@testable import DiaryCrypto
@testable import DiaryVault

/// The worked example of docs/FORMAT.md §14.3, replayed: the same key, vault, share set and
/// coefficients give the documented share texts, and any two of them give the key back.
final class RecoveryShareExampleTests: XCTestCase {
    static let texts = [
        "040128-HK8HAP-CXRV9R-MBMBX1-2798GF-R02V9W-S91708-1G2PKP-JTSCNV-GE4955-CXMJQB-FFW0HT-ASV952-NESVH0-MDJPEA-DBXQP2-SC",
        "040128-HK8HAP-CXRV9R-MBMBX1-2798GF-R02V9W-S91708-1G5D7F-6XY8BK-GP9P6B-FWH4FP-VF65A4-KZD0RD-BYQFG3-RHW2S4-6MD0XR-1B",
        "040128-HK8HAP-CXRV9R-MBMBX1-2798GF-R02V9W-S91708-1G7VMR-MF6MP9-8YD37E-H3NXSD-JG663E-V2Z8VA-Y5CCAJ-WT6EM2-5YAGV5-S3",
    ]
    static let vault = UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")!

    func testTheDocumentedSharesAreWhatTheSplitWrites() throws {
        var key = (0..<32).map { UInt8($0) }
        var coefficients = (0..<32).map { UInt8(truncatingIfNeeded: $0 * 29 + 0x5A) }
        let points = try Shamir.split(
            secret: try SecretBytes(consuming: &key), coefficients: try SecretBytes(consuming: &coefficients),
            xs: [1, 2, 3])
        let shares = points.map {
            RecoveryShare(
                shareSetID: [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77], vaultID: Self.vault, threshold: 2,
                count: 3, x: Int($0.x), y: $0.y)
        }
        XCTAssertEqual(shares.map(\.text), Self.texts)
    }

    func testAnyTwoDocumentedSharesRebuildTheKey() throws {
        let shares = try Self.texts.map { try RecoveryShare(text: $0) }
        for pair in [[0, 1], [1, 2], [2, 0]] {
            let key = try RecoveryShares.combine(pair.map { shares[$0] }, vaultID: Self.vault)
            XCTAssertEqual(key.withUnsafeBytes { Array($0) }, (0..<32).map { UInt8($0) })
        }
    }
}
