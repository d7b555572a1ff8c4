import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// Invariant 9 by construction: every read through the session compares the vault with this
/// machine's record after it; a loss stops the command.
final class EntrySetGuardTests: SessionTestCase {
    /// A files vault of three entries, recorded by this machine, then one index page damaged.
    private func damagedVault() throws -> (URL, [Entry]) {
        let vault = try makeVault(.files)
        let directory = vault.directory
        let first = session(directory, passphraseFile: try passphraseFile("correct horse"))
        let opened = try first.open()
        let entries = try ["one heron", "two herons", "three herons"].map { try opened.add(text: $0) }
        try first.finish()
        try damagePage(of: entries[1].id, in: directory)
        events = []
        return (directory, entries)
    }

    private func readWarns(_ body: (Vault) throws -> Void, file: StaticString = #filePath, line: UInt = #line) throws {
        let (directory, _) = try damagedVault()
        let reader = session(directory, passphraseFile: try passphraseFile("correct horse"))
        try reader.open()
        XCTAssertEqual(damageEvents, [], "the root alone looks intact", file: file, line: line)
        try reader.read(body)
        XCTAssertEqual(damageEvents, [.indexDamaged(vault: directory, noRecord: false)], file: file, line: line)
        try reader.finish()
        XCTAssertEqual(damageEvents.count, 1, "said once", file: file, line: line)
    }

    func testListWarns() throws { try readWarns { _ = try $0.list() } }

    func testSearchWarns() throws { try readWarns { _ = try $0.search("heron") } }

    func testExportsReadWarns() throws {
        try readWarns { vault in _ = try vault.list().map { try? vault.entry($0.id) } }
    }

    func testWordCountsWarn() throws { try readWarns { _ = try $0.wordCounts(EntryFilter()) } }

    func testAReadAroundTheSessionIsCaughtWhenItFinishes() throws {
        let (directory, _) = try damagedVault()
        let reader = session(directory, passphraseFile: try passphraseFile("correct horse"))
        _ = try reader.open().list()
        XCTAssertEqual(damageEvents, [])
        try reader.finish()
        XCTAssertEqual(damageEvents, [.indexDamaged(vault: directory, noRecord: false)])
    }

    func testALossStopsTheCommandNamingWhatIsGone() throws {
        let vault = try makeVault(.files)
        let file = try passphraseFile("correct horse")
        let first = session(vault.directory, passphraseFile: file)
        let opened = try first.open()
        _ = try opened.add(text: "kept")
        let lost = try opened.add(text: "lost")
        try first.finish()
        try FileManager.default.removeItem(at: vault.directory.appendingPathComponent("vault.index"))
        try FileManager.default.removeItem(at: vault.directory.appendingPathComponent("index"))
        try FileManager.default.removeItem(
            at: vault.directory.appendingPathComponent("entries/\(lost.id.uuidString.lowercased())"))
        XCTAssertThrowsError(try session(vault.directory, passphraseFile: file).read { try $0.list() }) { error in
            XCTAssertEqual(error as? AppError, .entriesLost(vault: vault.directory.path))
        }
        guard case .entriesLost(let report, let directory)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(directory, vault.directory)
        XCTAssertEqual(report.missing.map(\.id), [lost.id])
        // In report mode (verify, reindex) the comparison is kept for the command to word.
        let verifier = session(vault.directory, passphraseFile: file)
        let reported = try verifier.open(mode: .report)
        XCTAssertEqual(verifier.entrySet.report(for: reported)?.missing.map(\.id), [lost.id])
    }

    func testAWitnessThatCannotFollowAWriteIsSaidAtTheEnd() throws {
        let vault = try makeVault(.sqlite)
        let writer = session(vault.directory, passphraseFile: try passphraseFile("correct horse"))
        let opened = try writer.open()
        // The record's directory replaced by a file: the write stands, the record cannot follow.
        let witness = writer.stateDirectory.appendingPathComponent("witness")
        try? FileManager.default.removeItem(at: witness)
        try FileManager.default.createDirectory(at: writer.stateDirectory, withIntermediateDirectories: true)
        try Data().write(to: witness)
        _ = try opened.add(text: "stands")
        XCTAssertEqual(try opened.list().count, 1)
        try writer.finish()
        guard case .recordNotUpdated(let directory, _)? = events.last else { return XCTFail("\(events)") }
        XCTAssertEqual(directory, vault.directory)
    }
}
