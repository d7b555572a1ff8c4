import DiaryStore
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

@testable import DiaryApp

/// The recovery key as DiaryApp runs it: create, status, replace, remove, and a reset that
/// checks the key before asking for a new passphrase.
final class RecoveryKeysTests: SessionTestCase {
    private let passphrase = "correct horse"

    func testCreatedKeyResetsAForgottenPassphraseAfterPasswdTwiceAndRekey() throws {
        let vault = try makeVault(.sqlite)
        let ids = try (0..<3).map { try vault.add(text: "day \($0)").id }
        let created = try RecoveryKeys(session(vault.directory, asker: ScriptedAsker([passphrase]))).create(
            replace: false)
        XCTAssertNil(created.syncNotTold)
        guard case .active(epoch: 1, _) = created.status else { return XCTFail("\(created.status)") }
        let text = created.key.text
        XCTAssertEqual(text.split(separator: "-").map(\.count), Array(repeating: 6, count: 9))

        try vault.changePassphrase(current: secret(passphrase), new: secret("second one"))
        try vault.changePassphrase(current: secret("second one"), new: secret("third one"))
        try vault.rotateKey(passphrase: secret("third one"))

        // Nobody to ask for the current passphrase: the reset needs none.
        let asker = ScriptedAsker([], newAnswer: "a brand new passphrase")
        let outcome = try RecoveryKeys(session(vault.directory, asker: asker))
            .reset(
                with: try RecoveryKey(text: text),
                newPassphrase: NewPassphraseSource(fileOption: nil, allowWeak: true))
        XCTAssertNil(outcome.syncNotTold)
        let reopened = try Vault.open(at: vault.directory, passphrase: secret("a brand new passphrase"))
        XCTAssertEqual(try ids.map { try reopened.entry($0).text }, ["day 0", "day 1", "day 2"])
        XCTAssertThrowsVaultError(
            .wrongPassphrase, try Vault.open(at: vault.directory, passphrase: secret("third one")))
    }

    func testWrongKeyIsRefusedBeforeANewPassphraseIsAskedFor() throws {
        let vault = try makeVault(.files)
        _ = try RecoveryKeys(session(vault.directory, asker: ScriptedAsker([passphrase]))).create(replace: false)
        let asker = ScriptedAsker([], newAnswer: "never used here")
        XCTAssertThrowsVaultError(
            .wrongRecoveryKey,
            try RecoveryKeys(session(vault.directory, asker: asker))
                .reset(
                    with: RecoveryKey.generate(), newPassphrase: NewPassphraseSource(fileOption: nil, allowWeak: true)))
        XCTAssertNoThrow(try Vault.open(at: vault.directory, passphrase: secret(passphrase)))
    }

    func testReplaceAndRemoveAndStatus() throws {
        let vault = try makeVault(.files)
        let keys = { RecoveryKeys(self.session(vault.directory, asker: ScriptedAsker([self.passphrase]))) }
        XCTAssertEqual(try keys().status(), .none)
        let first = try keys().create(replace: false)
        // Refused before any passphrase is asked for: nobody here could give one.
        XCTAssertThrowsVaultError(
            .recoveryKeyExists,
            try RecoveryKeys(session(vault.directory, asker: ScriptedAsker())).create(replace: false))
        let second = try keys().create(replace: true)
        XCTAssertFalse(try keys().matches(first.key))
        XCTAssertTrue(try keys().matches(second.key))
        XCTAssertEqual(try keys().status(), second.status)
        let removed = try keys().remove()
        XCTAssertEqual(removed.status, .removed(epoch: 3))
        XCTAssertEqual(try keys().status(), .removed(epoch: 3))
        XCTAssertThrowsVaultError(.noRecoveryKey, try keys().matches(second.key))
    }

    /// The key is delivered (written and flushed, or shown) before the vault changes: a
    /// delivery that fails leaves the recovery key as it was, with and without --replace.
    func testAFailedDeliveryLeavesTheVaultsKeyAsItWas() throws {
        struct DiskFull: Error {}
        let vault = try makeVault(.files)
        let keys = { RecoveryKeys(self.session(vault.directory, asker: ScriptedAsker([self.passphrase]))) }
        XCTAssertThrowsError(try keys().create(replace: false) { _ in throw DiskFull() }) {
            XCTAssertTrue($0 is DiskFull, "\($0)")
        }
        XCTAssertEqual(try keys().status(), .none)
        let first = try keys().create(replace: false)
        var delivered: RecoveryKey?
        XCTAssertThrowsError(
            try keys().create(replace: true) {
                delivered = $0
                throw DiskFull()
            })
        XCTAssertEqual(try keys().status(), first.status)
        XCTAssertTrue(try keys().matches(first.key))
        XCTAssertFalse(try keys().matches(try XCTUnwrap(delivered)))
    }

    /// An error reported after the change is durable (the header written, then a failing
    /// flush) is not "not set": the key delivered is in force, and the caller must keep it.
    /// An error before the change is "not set", and the old key stays.
    func testAFailureAfterTheKeyLandedSaysItIsSet() throws {
        struct FlushFailed: Error {}
        let vault = try makeVault(.files)
        let keys = { RecoveryKeys(self.session(vault.directory, asker: ScriptedAsker([self.passphrase]))) }
        let first = try keys().create(replace: false)

        var failingBefore = keys()
        failingBefore.setKey = { _, _, _, _ in throw FlushFailed() }
        XCTAssertThrowsError(try failingBefore.create(replace: true)) {
            XCTAssertTrue(($0 as? RecoveryKeyNotSet)?.underlying is FlushFailed, "\($0)")
        }
        XCTAssertTrue(try keys().matches(first.key))

        var failingAfter = keys()
        failingAfter.setKey = {
            _ = try $0.setRecoveryKey(publicKeyOf: $1, replace: $2, passphrase: $3)
            throw FlushFailed()
        }
        var delivered: RecoveryKey?
        XCTAssertThrowsError(try failingAfter.create(replace: true) { delivered = $0 }) {
            let kept = $0 as? RecoveryKeySetDespiteError
            XCTAssertEqual(kept?.certain, true, "\($0)")
            XCTAssertTrue(kept?.underlying is FlushFailed)
        }
        XCTAssertTrue(try keys().matches(try XCTUnwrap(delivered)))

        var sharesAfter = keys()
        sharesAfter.setKey = failingAfter.setKey
        XCTAssertThrowsError(try sharesAfter.createShares(threshold: 2, count: 3, replace: true) { _ in }) {
            XCTAssertEqual(($0 as? RecoveryKeySetDespiteError)?.certain, true, "\($0)")
        }
        XCTAssertFalse(try keys().matches(try XCTUnwrap(delivered)), "the shares' key replaced it")
    }

    /// `--output FILE`: the key reaches FILE whole under a temporary name linked into place,
    /// which is gone afterwards; a FILE that appears meanwhile is never written over.
    func testAKeyFileIsLinkedIntoPlaceWholeAndNeverOverAnything() throws {
        let directory = path("key-files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let path = directory.appendingPathComponent("key.txt").path
        let key = try RecoveryKey.generate()
        let file = try RecoveryKeyFile.create(at: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at FILE before the key is whole")
        try file.write(key, vaultID: UUID(), created: Date())
        XCTAssertEqual(try RecoveryKeyFile.read(at: path).text, key.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["key.txt"])
        XCTAssertThrowsError(try RecoveryKeyFile.create(at: path)) {
            XCTAssertEqual($0 as? RecoveryKeyFileError, .exists(path: path))
        }

        try assertARacedFileIsLeftAlone(in: directory, key: key)
    }

    /// FAT and exFAT have no hard links (link(2) fails with EPERM): FILE is then made new and
    /// written directly, whole, never over anything, and no temporary name is left.
    func testWithoutHardLinksTheKeyFileIsWrittenDirectly() throws {
        let directory = path("no-links")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let key = try RecoveryKey.generate()
        let path = directory.appendingPathComponent("key.txt").path
        let file = try RecoveryKeyFile.create(at: path)
        file.linkFile = { _, _ in
            errno = EPERM
            return -1
        }
        try file.write(key, vaultID: UUID(), created: Date())
        XCTAssertEqual(try RecoveryKeyFile.read(at: path).text, key.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["key.txt"])
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int, 0o600)
        XCTAssertTrue(file.keepsPermissions)

        let racedPath = try assertARacedFileIsLeftAlone(in: directory, key: key, linkFile: file.linkFile)
        XCTAssertEqual(chmod(racedPath, 0o644), 0)
        XCTAssertFalse(RecoveryKeyFile.isPrivate(racedPath), "others can read it")
    }

    /// A vault that lost an entry this machine saw (disk damage): the reset is refused, as
    /// every command refuses, unless it is told to accept the loss; then it resets, names the
    /// loss, and the repair with the new passphrase (`reindex --accept-older`) works.
    func testAResetOfAVaultWithALossNeedsAcceptOlderAndThenTheRepairWorks() throws {
        let vault = try makeVault(.files)
        let file = try passphraseFile(passphrase)
        let writer = session(vault.directory, passphraseFile: file)
        let opened = try writer.open()
        _ = try opened.add(text: "kept")
        let lost = try opened.add(text: "lost")
        try writer.finish()
        let created = try RecoveryKeys(session(vault.directory, asker: ScriptedAsker([passphrase]))).create(
            replace: false)
        try FileManager.default.removeItem(at: vault.directory.appendingPathComponent("vault.index"))
        try FileManager.default.removeItem(at: vault.directory.appendingPathComponent("index"))
        try FileManager.default.removeItem(
            at: vault.directory.appendingPathComponent("entries/\(lost.id.uuidString.lowercased())"))
        let newPassphrase = NewPassphraseSource(fileOption: nil, allowWeak: true)

        let refused = RecoveryKeys(session(vault.directory, asker: ScriptedAsker([], newAnswer: "never set")))
        XCTAssertThrowsError(try refused.reset(with: created.key, newPassphrase: newPassphrase)) {
            XCTAssertEqual($0 as? AppError, .entriesLost(vault: vault.directory.path))
        }
        XCTAssertNoThrow(try Vault.open(at: vault.directory, passphrase: secret(passphrase)))

        let accepting = RecoveryKeys(session(vault.directory, asker: ScriptedAsker([], newAnswer: "the new one")))
        let outcome = try accepting.reset(with: created.key, newPassphrase: newPassphrase, acceptOlder: true)
        XCTAssertEqual(outcome.loss?.missing.map(\.id), [lost.id])

        // `reindex --accept-older` with the new passphrase.
        let repair = session(vault.directory, passphraseFile: try passphraseFile("the new one"))
        let repaired = try repair.open(mode: .report)
        try repair.acceptOlderState(of: repaired)
        _ = try repaired.reindex(minimumGeneration: repair.entrySet.report(for: repaired)?.seenGeneration ?? 0)
        try repair.finish()
        let after = session(vault.directory, passphraseFile: try passphraseFile("the new one"))
        XCTAssertEqual(try after.read { try $0.list().count }, 1)
    }

    /// A process killed while writing a key leaves its hidden temporary name: the next create
    /// in that directory removes it, and leaves a live process's and anything else alone.
    func testTheTemporaryNameOfADeadProcessIsRemovedByTheNextCreate() throws {
        let directory = path("leftovers")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let dead = ".key.txt.\(finished.processIdentifier).17.tmp"
        let alive = ".key.txt.\(getpid()).18.tmp"
        for name in [dead, alive, ".notes.tmp", "key.tmp"] {
            try Data("a key never set\n".utf8).write(to: directory.appendingPathComponent(name))
        }
        let file = try RecoveryKeyFile.create(at: directory.appendingPathComponent("new.txt").path)
        defer { file.discard() }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertFalse(left.contains(dead), "\(left)")
        XCTAssertEqual(Set(left).intersection([alive, ".notes.tmp", "key.tmp"]).count, 3, "\(left)")
    }

    /// A `raced.txt` that someone else wrote between `create` and `write` is refused as existing
    /// and left as it was, beside `key.txt`; returns its path.
    @discardableResult
    private func assertARacedFileIsLeftAlone(
        in directory: URL, key: RecoveryKey, linkFile: ((String, String) -> Int32)? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let racedPath = directory.appendingPathComponent("raced.txt").path
        let raced = try RecoveryKeyFile.create(at: racedPath)
        if let linkFile { raced.linkFile = linkFile }
        try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: racedPath))
        XCTAssertThrowsError(try raced.write(key, vaultID: UUID(), created: Date()), file: file, line: line) {
            XCTAssertEqual($0 as? RecoveryKeyFileError, .exists(path: racedPath), file: file, line: line)
        }
        XCTAssertEqual(
            try String(contentsOfFile: racedPath, encoding: .utf8), "someone else's\n", file: file, line: line)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), ["key.txt", "raced.txt"],
            file: file, line: line)
        return racedPath
    }
}
