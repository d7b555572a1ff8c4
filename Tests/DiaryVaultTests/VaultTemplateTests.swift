import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Templates in a vault: stored, found by name, never seen by any enumeration of entries, and
/// carried by reindex, key rotation, backup, restore and verify like entries.
final class VaultTemplateTests: VaultTestCase {
    func testTemplatesAreFoundByNameAndNamesAreUniqueWithoutLetterCase() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let added = try vault.addTemplate(name: "Evening", text: "{date}\n---prompts---\nA\nB")
            XCTAssertThrowsVaultError(.duplicateTemplate("evening"), try vault.addTemplate(name: "evening", text: "x"))
            XCTAssertThrowsVaultError(
                .invalidTemplateName("a\nb", limit: TemplateName.maximumBytes),
                try vault.addTemplate(name: "a\nb", text: "x"))
            XCTAssertThrowsVaultError(.emptyText, try vault.addTemplate(name: "blank", text: " \n"))
            XCTAssertEqual(try vault.template(named: "EVENING"), added)
            XCTAssertThrowsVaultError(.unknownTemplate("morning"), try vault.template(named: "morning"))
            _ = try vault.addTemplate(name: "apple", text: "y")
            XCTAssertEqual(try vault.templates().map(\.name), ["apple", "Evening"])

            let remembered = try vault.updateTemplate(added.id, recentPrompts: ["B", "A"])
            XCTAssertEqual(remembered.recentPrompts, ["B", "A"])
            XCTAssertEqual(remembered.text, added.text)
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try reopened.template(named: "evening"), remembered)
            XCTAssertThrowsVaultError(
                .invalidPrompt(limit: TemplateName.maximumPromptBytes),
                try vault.updateTemplate(added.id, recentPrompts: ["a\u{1B}b"]))

            try vault.deleteTemplate(added.id)
            XCTAssertEqual(try vault.templates().map(\.name), ["apple"])
        }
    }

    /// The one filter (`IndexListing.passes`) and `resolve` keep a template out of everything
    /// about entries.
    func testNoEnumerationOfEntriesSeesATemplate() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entry = try vault.add(text: "walk by the river", tags: ["walk"])
            let template = try vault.addTemplate(name: "river", text: "walk by the river")
            XCTAssertEqual(try vault.list().map(\.id), [entry.id])
            XCTAssertEqual(try vault.list(EntryFilter(limit: 5)).map(\.id), [entry.id])
            XCTAssertEqual(try vault.search("river").matches.map(\.id), [entry.id])
            XCTAssertEqual(Array(try vault.wordCounts().words.keys), [entry.id])
            let full = template.id.uuidString.lowercased()
            XCTAssertThrowsVaultError(.unknownID(full), try vault.resolve(full))
            XCTAssertThrowsVaultError(.unknownID(String(full.prefix(8))), try vault.resolve(String(full.prefix(8))))
            XCTAssertThrowsVaultError(.unknownID(full), try vault.entry(template.id))
            XCTAssertThrowsVaultError(.unknownID(full), try vault.update(template.id, starred: true))
            XCTAssertNotNil(try vault.storedEntry(template.id)?.template, "sync still sees it")
        }
    }

    func testReindexRotationBackupRestoreAndVerifyKeepTemplates() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            _ = try vault.add(text: "an entry")
            let template = try vault.addTemplate(name: "t", text: "{prompt}\n---prompts---\nOne")
            let remembered = try vault.updateTemplate(template.id, recentPrompts: ["One"])
            XCTAssertEqual(try vault.reindex(), 2)
            XCTAssertEqual(try vault.template(named: "t"), remembered)
            try vault.rotateKey(passphrase: secret("correct horse"))
            XCTAssertEqual(try vault.template(named: "t"), remembered)
            let verified = try vault.verify()
            XCTAssertTrue(verified.isClean)
            XCTAssertEqual([verified.checkedEntries, verified.checkedTemplates], [2, 1], "the template told apart")
            let file = path("t-\(kind.rawValue).diarybak")
            try vault.backup(to: file)
            let backedUp = try Vault.verifyBackup(file, passphrase: secret("correct horse"))
            XCTAssertTrue(backedUp.isClean)
            XCTAssertEqual([backedUp.checkedEntries, backedUp.checkedTemplates], [2, 1])
            let restored = try Vault.restore(
                backup: file, to: path("restored-\(kind.rawValue)"), passphrase: secret("correct horse"))
            XCTAssertEqual(try restored.template(named: "t"), remembered)
            XCTAssertEqual(try restored.list().count, 1)
            XCTAssertTrue(try restored.verify().isClean)
        }
    }
}
