import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// The independent reader (Scripts/decrypt-vault.py) rebuilds the recovery key from share files
/// with `--share-file` (FORMAT.md §14) and opens the vault with it; it refuses too few shares, a
/// share of another vault and a forged share.
final class RecoveryShareReaderTests: VaultTestCase {
    private func read(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try PythonReader.requireSecretstream()
        return try PythonReader.run([PythonReader.script.path] + arguments)
    }

    /// Writes share files for `shares` and returns their paths.
    private func write(_ shares: [RecoveryShare], prefix: String) throws -> [String] {
        try shares.map { share in
            let file = path("\(prefix)-\(RecoveryShareFile.fileName(for: share))")
            try RecoveryShareFile.contents(of: share, created: Date()).write(
                to: file, atomically: true, encoding: .utf8)
            return file.path
        }
    }

    func testThreeOfFiveSharesOpenTheVaultAfterARekeyAndTwoDoNot() throws {
        let vault = try makeVault(.files)
        _ = try vault.add(text: "Before the shares")
        let key = try RecoveryKey.generate()
        let shares = try RecoveryShares.split(key: key.bytes, vaultID: vault.id, threshold: 3, count: 5)
        _ = try vault.setRecoveryKey(publicKeyOf: key, replace: false, passphrase: secret("correct horse"))
        try vault.rotateKey(passphrase: secret("correct horse"))
        _ = try vault.add(text: "After the rekey")
        let files = try write(shares, prefix: "mine")

        let three = try read([
            "--share-file", files[4], "--share-file", files[0], "--share-file", files[2], vault.directory.path,
        ])
        XCTAssertEqual(three.status, 0, three.output)
        XCTAssertTrue(
            three.output.contains("Before the shares") && three.output.contains("After the rekey"), three.output)

        let two = try read(["--share-file", files[1], "--share-file", files[3], vault.directory.path])
        XCTAssertNotEqual(two.status, 0)
        XCTAssertTrue(two.output.contains("3 shares are needed, 2 given"), two.output)
        XCTAssertFalse(two.output.contains("Traceback"), "one line, no traceback: \(two.output)")

        let other = try RecoveryShares.split(
            key: try SecretBytes(randomCount: 32), vaultID: UUID(), threshold: 3, count: 5)
        let theirs = try write(other, prefix: "theirs")
        let mixed = try read(
            ["--share-file", files[0], "--share-file", theirs[1], "--share-file", files[2], vault.directory.path])
        XCTAssertNotEqual(mixed.status, 0)
        XCTAssertTrue(mixed.output.contains("\(theirs[1]) is a share of another vault"), mixed.output)

        // A share that passes every check alone but was altered leads to another key: refused.
        var bytes = shares[1].encoded()
        defer { secureZero(&bytes) }
        bytes[40] ^= 0x01
        let forged = path("forged.txt")
        try (CheckedBase32.encode(bytes) + "\n").write(to: forged, atomically: true, encoding: .utf8)
        let cheated = try read(
            ["--share-file", files[0], "--share-file", forged.path, "--share-file", files[2], vault.directory.path])
        XCTAssertNotEqual(cheated.status, 0)
        XCTAssertTrue(cheated.output.contains("not this vault's"), cheated.output)
        XCTAssertFalse(cheated.output.contains("Traceback"), cheated.output)
        // Beside the genuine share of the same number, it is named as a different share, not a copy.
        let numberedAlike = try read(
            ["--share-file", files[1], "--share-file", forged.path, "--share-file", files[2], vault.directory.path])
        XCTAssertTrue(
            numberedAlike.output.contains("\(files[1]) and \(forged.path) are two different shares numbered 2"),
            numberedAlike.output)
        XCTAssertEqual(try read(["--help"]).status, 0)
    }

    /// The reader's rebuild gives FORMAT.md §14.3's worked example back.
    func testTheReaderRebuildsTheWorkedExample() throws {
        try PythonReader.requireSecretstream()
        let files = try RecoveryShareExampleTests.texts.enumerated().map { index, text in
            let file = path("example-\(index + 1).txt")
            try (text + "\n").write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let program = """
            import importlib.util, sys, uuid
            spec = importlib.util.spec_from_file_location("reader", sys.argv[1])
            reader = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(reader)
            vault = uuid.UUID("1b4e28ba-2fa1-11d2-883f-0016d3cca427").bytes
            print(reader.rebuild_from_shares(sys.argv[2:], vault).hex())
            """
        for pair in [[0, 1], [2, 0], [1, 2]] {
            let result = try PythonReader.run(["-c", program, PythonReader.script.path] + pair.map { files[$0] })
            XCTAssertEqual(result.status, 0, result.output)
            XCTAssertEqual(
                result.output.trimmingCharacters(in: .whitespacesAndNewlines),
                PythonReader.hex((0..<32).map { UInt8($0) }))
        }
    }
}
