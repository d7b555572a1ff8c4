import DiaryApp
import Foundation
import XCTest

/// The session is the one reader of `DIARY_VAULT`, `XDG_*` and `HOME`: from a dictionary.
final class DiaryEnvironmentTests: XCTestCase {
    func testTheVaultIsTheOptionThenDiaryVaultThenXDGDataThenHome() {
        let home = DiaryEnvironment(["HOME": "/home/a"])
        XCTAssertEqual(home.vaultDirectory().path, "/home/a/.local/share/diary")
        let data = DiaryEnvironment(["HOME": "/home/a", "XDG_DATA_HOME": "/data"])
        XCTAssertEqual(data.vaultDirectory().path, "/data/diary")
        let relative = DiaryEnvironment(["HOME": "/home/a", "XDG_DATA_HOME": "data"])
        XCTAssertEqual(relative.vaultDirectory().path, "/home/a/.local/share/diary", "a relative XDG path is ignored")
        let named = DiaryEnvironment(["HOME": "/home/a", "XDG_DATA_HOME": "/data", "DIARY_VAULT": "~/v"])
        XCTAssertEqual(named.vaultDirectory().path, "/home/a/v")
        XCTAssertEqual(named.vaultDirectory(option: "/elsewhere/../w").path, "/w")
        XCTAssertEqual(
            DiaryEnvironment(["HOME": "/home/a", "DIARY_VAULT": ""]).vaultDirectory().path,
            "/home/a/.local/share/diary", "an empty DIARY_VAULT is unset")
    }

    func testTheStateDirectoryIsXDGStateElseHome() {
        XCTAssertEqual(DiaryEnvironment(["HOME": "/home/a"]).stateDirectory.path, "/home/a/.local/state/diary")
        XCTAssertEqual(DiaryEnvironment(["HOME": "/home/a", "XDG_STATE_HOME": "/s"]).stateDirectory.path, "/s/diary")
        XCTAssertEqual(
            DiaryEnvironment(["HOME": "/home/a", "XDG_STATE_HOME": "s"]).stateDirectory.path,
            "/home/a/.local/state/diary")
    }

    func testPassphraseFilesComeFromTheOptionElseTheEnvironment() {
        let environment = DiaryEnvironment(["DIARY_PASSPHRASE_FILE": "/p", "DIARY_NEW_PASSPHRASE_FILE": ""])
        XCTAssertEqual(environment.passphraseFile(), "/p")
        XCTAssertEqual(environment.passphraseFile(option: "/q"), "/q")
        XCTAssertNil(environment.newPassphraseFile())
        XCTAssertFalse(environment.insecureTestKDF)
        XCTAssertTrue(DiaryEnvironment(["DIARY_INSECURE_TEST_KDF": "1"]).insecureTestKDF)
    }
}
