import DiaryCrypto
import Foundation
import XCTest

@testable import DiaryVault

/// `detachIndexForExit`: the index leaves the vault whole; the vault keeps its generation.
final class VaultClosingTests: VaultTestCase {
    func testDetachedIndexHoldsEveryRowAndTheVaultKeepsItsGeneration() throws {
        forEachStore { kind in
            let vault = try makeVault(kind)
            let ids = try (0..<3).map { try vault.add(text: "entry \($0)").id }
            let generation = vault.indexGeneration
            let detached = try XCTUnwrap(vault.detachIndexForExit() as? IndexSnapshot)
            XCTAssertEqual(Set(detached.rows.keys), Set(ids))
            XCTAssertEqual(detached.generation, generation)
            XCTAssertEqual(vault.indexGeneration, generation, "the rollback record needs it")
            XCTAssertTrue(vault.list().isEmpty)
        }
    }

    func testReleasingAVaultAfterDetachingZeroesItsKeys() throws {
        forEachStore { kind in
            var vault: Vault? = try makeVault(kind)
            weak var key = vault?.vaultKey
            var kept: Any? = vault?.detachIndexForExit()
            XCTAssertNotNil(key)
            vault = nil
            XCTAssertNil(key, "the key's SecretBytes was freed (sodium_free zeroes it)")
            XCTAssertNotNil(kept)
            kept = nil
        }
    }
}
