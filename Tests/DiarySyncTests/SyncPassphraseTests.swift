import DiaryCrypto
import DiaryVault
import Foundation
import XCTest

@testable import DiarySync

/// How a sync asks for the passphrase: again after a wrong one while the caller offers one,
/// and not again once one opened something.
final class SyncPassphraseTests: XCTestCase {
    private func secret(_ text: String) -> SecretBytes {
        var bytes = Array(text.utf8)
        return try! SecretBytes(consuming: &bytes)
    }

    func testNothingOfferedAtFirstIsTheNeedItself() {
        let source = SyncPassphrase(ask: { _ in nil })
        XCTAssertThrowsError(
            try source.use(.followRotation(machine: "desk", attempt: 1), onWrong: .notSetUp) { _ in 1 }
        ) {
            XCTAssertEqual($0 as? SyncError, .needsPassphrase(machine: "desk"))
        }
        XCTAssertThrowsError(try source.use(.publishOwnChange(attempt: 1), onWrong: .notSetUp) { _ in 1 }) {
            XCTAssertEqual($0 as? SyncError, .needsPassphraseToPublish)
        }
    }

    func testAWrongPassphraseIsAskedAgainUntilTheCallerGivesUp() {
        var asked: [PassphraseNeed] = []
        let source = SyncPassphrase(ask: { need in
            asked.append(need)
            return need.attempt <= 3 ? self.secret("try \(need.attempt)") : nil
        })
        let lost = SyncError.passphraseChangedElsewhere(machine: "desk", ownChangeLost: false)
        XCTAssertThrowsError(
            try source.use(.followRotation(machine: "desk", attempt: 1), onWrong: lost) { _ -> Int in
                throw VaultError.wrongPassphrase
            }
        ) {
            XCTAssertEqual($0 as? SyncError, lost)
        }
        XCTAssertEqual(asked.map(\.attempt), [1, 2, 3, 4])
    }

    func testAPassphraseThatOpenedIsNotAskedForAgain() throws {
        var asks = 0
        let source = SyncPassphrase(ask: { _ in
            asks += 1
            return self.secret("right")
        })
        XCTAssertEqual(try source.use(.publishOwnChange(attempt: 1), onWrong: .notSetUp) { _ in 7 }, 7)
        XCTAssertEqual(try source.use(.followRotation(machine: "desk", attempt: 1), onWrong: .notSetUp) { _ in 8 }, 8)
        XCTAssertNotNil(try source.keptOrAsk(.followRotation(machine: "desk", attempt: 1)))
        XCTAssertEqual(asks, 1)
    }

    func testACallerThatNeverStopsOfferingIsCutOff() {
        var asks = 0
        let source = SyncPassphrase(ask: { _ in
            asks += 1
            return self.secret("wrong")
        })
        XCTAssertThrowsError(
            try source.use(.publishOwnChange(attempt: 1), onWrong: .needsPassphraseToPublish) { _ -> Int in
                throw VaultError.wrongPassphrase
            })
        XCTAssertEqual(asks, SyncPassphrase.maximumAttempts)
    }
}
