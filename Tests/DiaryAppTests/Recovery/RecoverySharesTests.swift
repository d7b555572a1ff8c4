import DiaryApp
import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// Recovery shares as DiaryApp runs them: the key is set only after its shares are delivered,
/// any K share files reset the passphrase, and every problem names its file.
final class RecoverySharesTests: SessionTestCase {
    private let passphrase = "correct horse"
    private let created = Date(timeIntervalSince1970: 1_795_000_000)

    private func keys(_ vault: URL, asker: ScriptedAsker? = nil) -> RecoveryKeys {
        RecoveryKeys(session(vault, asker: asker ?? ScriptedAsker([passphrase])))
    }

    /// Splits a new recovery key of `vault` and writes its share files into `directory`.
    @discardableResult
    private func makeShares(
        _ vault: URL, threshold: Int = 3, count: Int = 5, replace: Bool = false, into directory: String = "shares"
    ) throws -> [URL] {
        let folder = path(directory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var files: [URL] = []
        let outcome = try keys(vault).createShares(threshold: threshold, count: count, replace: replace) { shares in
            for share in shares {
                let file = folder.appendingPathComponent(RecoveryShareFile.fileName(for: share))
                try Data(RecoveryShareFile.contents(of: share, created: created).utf8).write(to: file)
                files.append(file)
            }
        }
        XCTAssertEqual(outcome.threshold, threshold)
        XCTAssertEqual(outcome.count, count)
        XCTAssertNil(outcome.syncNotTold)
        return files
    }

    private func reset(_ vault: URL, with files: [URL], to newPassphrase: String = "a new one") throws {
        let asker = ScriptedAsker([], newAnswer: newPassphrase)
        _ = try keys(vault, asker: asker)
            .reset(withShareFiles: files, newPassphrase: NewPassphraseSource(fileOption: nil, allowWeak: true))
    }

    func testThreeOfFiveShareFilesResetTheForgottenPassphrase() throws {
        let vault = try makeVault(.files)
        let ids = try (0..<2).map { try vault.add(text: "day \($0)").id }
        let files = try makeShares(vault.directory)
        XCTAssertEqual(files.map(\.lastPathComponent), (1...5).map { "share-\($0)-of-5.txt" })
        try vault.changePassphrase(current: secret(passphrase), new: secret("forgotten"))
        try vault.rotateKey(passphrase: secret("forgotten"))

        try reset(vault.directory, with: [files[4], files[1], files[2]])
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("a new one"))
        XCTAssertEqual(try ids.map { try reopened.entry($0).text }, ["day 0", "day 1"])
        XCTAssertThrowsVaultError(
            .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("forgotten")))
    }

    func testTwoOfFiveAreTooFewAndChangeNothing() throws {
        let vault = try makeVault(.sqlite)
        let files = try makeShares(vault.directory)
        XCTAssertThrowsError(try reset(vault.directory, with: [files[0], files[3]])) { error in
            guard case .set(.tooFew(needed: 3, have: 2)) = error as? ShareRecoveryError else {
                return XCTFail("\(error)")
            }
        }
        XCTAssertNoThrow(try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
    }

    func testAShareOfAnotherVaultIsNamedByItsFile() throws {
        let vault = try makeVault(.files)
        let other = try makeVault(.files, name: "other")
        let mine = try makeShares(vault.directory)
        let theirs = try makeShares(other.directory, into: "theirs")
        XCTAssertThrowsError(try reset(vault.directory, with: [mine[0], theirs[1], mine[2]])) { error in
            guard case .file(let file, .otherVault(let id)) = error as? ShareRecoveryError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(file, theirs[1])
            XCTAssertEqual(id, other.id)
        }
        XCTAssertNoThrow(try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
    }

    func testSetProblemsNameTheirFiles() throws {
        let vault = try makeVault(.files)
        let old = try makeShares(vault.directory, into: "old")
        let new = try makeShares(vault.directory, replace: true, into: "new")
        XCTAssertThrowsError(try reset(vault.directory, with: [new[0], new[1], old[2]])) { error in
            guard case .otherShareSet(let file, let first) = error as? ShareRecoveryError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([file, first], [old[2], new[0]])
        }
        let copy = path("copy-of-share-2.txt")
        try FileManager.default.copyItem(at: new[1], to: copy)
        XCTAssertThrowsError(try reset(vault.directory, with: [new[0], new[1], copy])) { error in
            guard case .sameShare(let file, let earlier) = error as? ShareRecoveryError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([file, earlier], [copy, new[1]])
        }
        // Enough shares of the replaced key: they pass every check but rebuild the old key.
        XCTAssertThrowsError(try reset(vault.directory, with: Array(old.prefix(3)))) { error in
            guard case .rebuiltKeyIsNotTheVaults = error as? ShareRecoveryError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try reset(vault.directory, with: [new[0], path("missing.txt")])) { error in
            guard case .unreadable(let file, _) = error as? ShareRecoveryError else { return XCTFail("\(error)") }
            XCTAssertEqual(file.lastPathComponent, "missing.txt")
        }
        try reset(vault.directory, with: Array(new.suffix(3)))
    }

    func testAMistypedShareFileIsNamed() throws {
        let vault = try makeVault(.files)
        let files = try makeShares(vault.directory)
        var text = try String(contentsOf: files[1], encoding: .utf8)
        let last = text.index(text.endIndex, offsetBy: -3)
        text.replaceSubrange(last...last, with: text[last] == "7" ? "8" : "7")
        try Data(text.utf8).write(to: files[1])
        XCTAssertThrowsError(try reset(vault.directory, with: Array(files.prefix(3)))) { error in
            guard case .file(let file, .mistyped(.checksumMismatch)) = error as? ShareRecoveryError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(file, files[1])
        }
    }

    /// The key is set only once its shares are delivered: a failed delivery leaves the vault
    /// as it was, and a vault with a key refuses before anything is made.
    func testNothingIsSetWhenTheDeliveryFails() throws {
        struct Interrupted: Error {}
        let vault = try makeVault(.files)
        XCTAssertThrowsError(
            try keys(vault.directory).createShares(threshold: 2, count: 3, replace: false) { _ in throw Interrupted() }
        ) { XCTAssertTrue($0 is Interrupted) }
        XCTAssertEqual(try keys(vault.directory).status(), .none)

        try makeShares(vault.directory, threshold: 2, count: 3)
        var delivered = false
        XCTAssertThrowsVaultError(
            .recoveryKeyExists,
            try keys(vault.directory).createShares(threshold: 2, count: 2, replace: false) { _ in delivered = true })
        XCTAssertFalse(delivered)
    }
}
