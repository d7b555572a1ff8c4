import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation
import XCTest

/// Base class for vault tests: temporary directories, passphrases, and the habit (GRDB's) of
/// writing a behaviour once and running it against every store (`forEachStoreKind`).
open class VaultTestCase: XCTestCase {
    public private(set) var scratch: URL!

    override open func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("diary-vault-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override open func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A fresh path inside the scratch directory (not created).
    public func path(_ name: String) -> URL { scratch.appendingPathComponent(name) }

    public func secret(_ text: String) -> SecretBytes {
        var bytes = Array(text.utf8)
        return try! SecretBytes(consuming: &bytes)
    }

    /// Creates a vault with the test-only KDF cost (KDFParameters.insecureForTesting).
    public func makeVault(_ kind: StoreKind, name: String? = nil, passphrase: String = "correct horse") throws -> Vault
    {
        try Vault.create(
            at: path(name ?? "vault-\(kind.rawValue)"), store: kind, passphrase: secret(passphrase),
            kdf: .insecureForTesting)
    }

    public func date(_ iso: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: iso)!
    }
}

/// Asserts that `body` throws exactly `expected`.
public func XCTAssertThrowsVaultError<T>(
    _ expected: VaultError, _ body: @autoclosure () throws -> T, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertThrowsError(try body(), file: file, line: line) { error in
        XCTAssertEqual(error as? VaultError, expected, "\(error)", file: file, line: line)
    }
}
