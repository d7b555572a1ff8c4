import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The independent reader (Scripts/decrypt-vault.py) opens a vault of header version 2 and
/// index root version 4 with the passphrase, and with the recovery key alone (FORMAT.md §3, §4).
final class RecoveryFormatReaderTests: VaultTestCase {
    private func read(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonReader.requireSecretstream()
        return try PythonReader.run([PythonReader.script.path] + arguments)
    }

    func testTheReaderOpensTheVaultWithTheRecoveryKeyAfterARekey() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "Before the key")
        let key = try RecoveryKey.generate()
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret("correct horse"))
        try vault.rotateKey(passphrase: secret("correct horse"))
        _ = try vault.add(text: "After the rekey")
        let keyFile = path("key.txt")
        try "# diary recovery key\n\(key.text.lowercased())\n".write(to: keyFile, atomically: true, encoding: .utf8)

        let withKey = try read(["--recovery-key-file", keyFile.path, vault.directory.path])
        XCTAssertEqual(withKey.status, 0, withKey.output)
        XCTAssertTrue(withKey.output.contains("Before the key") && withKey.output.contains("After the rekey"))
        XCTAssertTrue(withKey.output.contains("recovery epoch, public key | 1, "), withKey.output)
        let withPassphrase = try read([vault.directory.path, "correct horse"])
        XCTAssertEqual(withPassphrase.status, 0, withPassphrase.output)
        XCTAssertTrue(withPassphrase.output.contains("After the rekey"))

        let other = path("other.txt")
        try "\(try RecoveryKey.generate().text)\n".write(to: other, atomically: true, encoding: .utf8)
        let wrong = try read(["--recovery-key-file", other.path, vault.directory.path])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.output.contains("not this vault's"), wrong.output)
    }

    func testTheReaderRefusesAHeaderPutBackOverANewerRecoveryEpoch() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "one")
        _ = try vault.setRecoveryKey(
            publicKeyOf: RecoveryKey.generate(), replace: false, passphrase: secret("correct horse"))
        let old = try vault.backend.readHeader()
        _ = try vault.setRecoveryKey(
            publicKeyOf: RecoveryKey.generate(), replace: true, passphrase: secret("correct horse"))
        try vault.backend.apply(StoreChange(header: old))
        let result = try read([vault.directory.path, "correct horse"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("does not match the index"), result.output)
    }

    /// What is not a key file, a share, a vault or a backup is one line each, and a key file is
    /// read no further than its size cap.
    func testTheReadersInputErrorsAreOneLineEach() throws {
        let vault = try makeVault(.files)
        let keyFile = path("key.txt")
        try "\(try RecoveryKey.generate().text)\n".write(to: keyFile, atomically: true, encoding: .utf8)
        let large = path("large.txt")
        try Data(count: 64 * 1024 + 1).write(to: large)
        let cases: [([String], String)] = [
            (["--recovery-key-file", large.path, vault.directory.path], "larger than 65536 bytes"),
            (["--recovery-key-file", keyFile.path, path("nowhere").path], "no such vault directory or backup file"),
            (
                ["--recovery-key-file", keyFile.path, vault.directory.appendingPathComponent("vault.header").path],
                "is not a diary backup file"
            ),
            (["--share-file", keyFile.path, vault.directory.path], "holds a whole recovery key, not a share"),
        ]
        for (arguments, expected) in cases {
            let result = try read(arguments)
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains(expected), result.output)
            XCTAssertFalse(result.output.contains("Traceback"), result.output)
        }
    }
}
