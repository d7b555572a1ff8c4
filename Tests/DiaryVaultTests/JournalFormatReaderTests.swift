import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryStore
@testable import DiaryVault

/// `Scripts/decrypt-vault.py`, written from docs/FORMAT.md, reads a files vault left in the
/// middle of a change as diary opens it: a valid `vault.journal` is applied first, even over a
/// change half performed, and a torn one is ignored (§2.1).
final class JournalFormatReaderTests: VaultTestCase {
    /// Every file of the vault a journal may name (§2.1), by that name.
    private func files(_ vault: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in ["vault.header", "vault.index"] {
            out[name] = try Data(contentsOf: vault.appendingPathComponent(name))
        }
        for folder in ["index", "entries"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: vault.appendingPathComponent(folder).path)
            for name in names where !name.hasPrefix(".tmp-") {
                out[folder + "/" + name] = try Data(contentsOf: vault.appendingPathComponent(folder + "/" + name))
            }
        }
        return out
    }

    /// Puts the vault's files back as `state` has them.
    private func restore(_ state: [String: Data], in vault: URL) throws {
        for name in try files(vault).keys where state[name] == nil {
            try FileManager.default.removeItem(at: vault.appendingPathComponent(name))
        }
        for (name, bytes) in state { try bytes.write(to: vault.appendingPathComponent(name)) }
    }

    private func read(_ vault: URL) throws -> String {
        let run = try PythonReader.run([PythonReader.script.path, vault.path, "correct horse"])
        XCTAssertEqual(run.status, 0, run.output)
        return run.output
    }

    func testTheReaderAppliesAPendingJournalAsDiaryDoes() throws {
        try PythonReader.requireSecretstream()
        let vault = try makeVault(.files)
        let directory = vault.directory
        _ = try vault.add(text: "kept as it was")
        let edited = try vault.add(text: "the first text")
        let deleted = try vault.add(text: "soon deleted")
        let before = try files(directory)
        try vault.update(edited.id, text: "the second text")
        try vault.delete(deleted.id)
        _ = try vault.add(text: "added since")
        let after = try files(directory)
        let names = Set(before.keys).union(after.keys).sorted().filter { before[$0] != after[$0] }
        let operations = names.map { name -> FileJournal.Operation in
            if let bytes = after[name] { return .put(name: name, bytes: [UInt8](bytes)) }
            return .delete(name: name)
        }
        XCTAssertTrue(operations.contains { if case .delete = $0 { true } else { false } })
        let journal = FileJournal(operations: operations).encoded()
        let journalURL = directory.appendingPathComponent("vault.journal")

        // Died before the first rename, and the journal torn: the old state, the journal ignored.
        try restore(before, in: directory)
        var torn = journal
        torn[torn.count - 1] ^= 1
        try Data(torn).write(to: journalURL)
        let old = try read(directory)
        XCTAssertTrue(old.contains("vault.journal is torn or damaged: ignored"), old)
        XCTAssertTrue(old.contains("the first text") && old.contains("soon deleted"), old)
        XCTAssertFalse(old.contains("the second text") || old.contains("added since"), old)

        // Died halfway through the renames: the reader finishes the change in memory.
        try Data(journal).write(to: journalURL)
        for name in names.prefix(names.count / 2) {
            let url = directory.appendingPathComponent(name)
            if let bytes = after[name] { try bytes.write(to: url) } else { try FileManager.default.removeItem(at: url) }
        }
        let new = try read(directory)
        XCTAssertTrue(new.contains("holds an interrupted change of \(operations.count) operations"), new)
        for text in ["kept as it was", "the second text", "added since"] { XCTAssertTrue(new.contains(text), text) }
        XCTAssertFalse(new.contains("the first text") || new.contains("soon deleted"), new)
        XCTAssertNotEqual(try files(directory), after, "the reader wrote nothing: the files are still half changed")

        // And diary, opening the vault, finishes it the same way.
        let reopened = try Vault.open(at: directory, passphrase: secret("correct horse"))
        XCTAssertEqual(
            Set(try reopened.list().map(\.title)), ["kept as it was", "the second text", "added since"])
        XCTAssertEqual(try files(directory), after)
    }
}
