import DiaryApp
import DiaryTestSupport
import DiaryVault
import Foundation
import XCTest

/// The session takes a vault's inbox in at every opening with the key, moves refused items
/// aside once, and the capture side numbers items through its key file.
final class CaptureInboxTests: SessionTestCase {
    private func enrolled(_ kind: StoreKind = .files) throws -> (Vault, String) {
        let vault = try makeVault(kind)
        let key = path("phone-\(kind.rawValue).key").path
        _ = try CaptureKeys.create("phone", in: vault, output: key)
        return (vault, key)
    }

    private func send(_ text: String, key: String, to vault: Vault) throws -> CaptureReceipt {
        let entry = try CapturedEntry.new(text: text, date: nil, dateIsDay: false, starred: false, tags: ["t"])
        return try CaptureSender.capture(entry, keyFile: key, to: vault.directory.path)
    }

    func testOpeningWithThePassphraseTakesTheInboxInAndSaysItOnce() throws {
        forEachStoreKind { kind in
            events = []
            let (vault, key) = try enrolled(kind)
            let first = try send("one", key: key, to: vault)
            let second = try send("two", key: key, to: vault)
            XCTAssertEqual([first.counter, second.counter], [1, 2])
            XCTAssertEqual(first.target, .vault)
            let file = try passphraseFile("correct horse")
            let opened = try session(vault.directory, passphraseFile: file).open()
            XCTAssertEqual(Set(try opened.list().map(\.title)), ["one", "two"])
            XCTAssertEqual(events, [.capturesTakenIn(device: "phone", count: 2)])
            XCTAssertFalse(FileManager.default.fileExists(atPath: first.path))
            events = []
            _ = try session(vault.directory, passphraseFile: file).open()
            XCTAssertEqual(events, [], "nothing left to take in or say")
        }
    }

    func testAnAgentOpeningTakesInToo() throws {
        let (vault, key) = try enrolled()
        _ = try send("by the agent", key: key, to: vault)
        let agent = FakeAgent { .key(vault.vaultKey, generation: vault.keyGeneration, vaultID: vault.id) }
        let opened = try session(vault.directory, asker: ScriptedAsker(["never asked"]), agent: agent).open()
        XCTAssertEqual(try opened.list().map(\.title), ["by the agent"])
    }

    func testAVaultWithoutAnInboxGainsNone() throws {
        let vault = try makeVault(.sqlite)
        _ = try session(vault.directory, passphraseFile: try passphraseFile("correct horse")).open()
        XCTAssertFalse(FileManager.default.fileExists(atPath: vault.directory.appendingPathComponent("inbox").path))
        XCTAssertEqual(events, [])
    }

    func testACopyWhoseEntryIsHeldIsRemovedQuietlyAndOneWhoseEntryIsGoneIsAReplay() throws {
        let (vault, key) = try enrolled()
        let receipt = try send("once", key: key, to: vault)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: receipt.path))
        let file = try passphraseFile("correct horse")
        _ = try session(vault.directory, passphraseFile: file).open()
        // A take-in stopped between its change and the removal leaves the item where it was.
        try bytes.write(to: URL(fileURLWithPath: receipt.path))
        events = []
        let opened = try session(vault.directory, passphraseFile: file).open()
        XCTAssertEqual(events, [], "an interrupted take-in is no replay")
        XCTAssertFalse(FileManager.default.fileExists(atPath: receipt.path))
        let entry = try XCTUnwrap(try opened.list().first { $0.title == "once" })
        try opened.delete(entry.id)
        try bytes.write(to: URL(fileURLWithPath: receipt.path))
        events = []
        _ = try session(vault.directory, passphraseFile: file).open()
        let name = URL(fileURLWithPath: receipt.path).lastPathComponent
        XCTAssertEqual(
            events,
            [
                .captureMovedAside(
                    CaptureRejection(outcome: .replay(device: "phone", counter: 1), path: "inbox/rejected/" + name))
            ])
        events = []
        _ = try session(vault.directory, passphraseFile: file).open()
        XCTAssertEqual(events, [])
    }

    /// A copied (or restored) capture key numbers its next item as one already taken in: that
    /// item has other text, so it is a replay set aside and said, never removed unseen.
    func testAnItemOfATakenNumberWithOtherTextIsSetAsideNotRemoved() throws {
        let (vault, key) = try enrolled()
        let copy = path("copied.key").path
        try FileManager.default.copyItem(atPath: key, toPath: copy)
        _ = try send("ALPHA", key: key, to: vault)
        let file = try passphraseFile("correct horse")
        _ = try session(vault.directory, passphraseFile: file).open()
        let bravo = try send("BRAVO", key: copy, to: vault)
        XCTAssertEqual(bravo.counter, 1)
        events = []
        let opened = try session(vault.directory, passphraseFile: file).open()
        let name = URL(fileURLWithPath: bravo.path).lastPathComponent
        XCTAssertEqual(
            events,
            [
                .captureMovedAside(
                    CaptureRejection(outcome: .replay(device: "phone", counter: 1), path: "inbox/rejected/" + name))
            ])
        let rejected = vault.directory.appendingPathComponent("inbox/rejected/" + name).path
        XCTAssertTrue(FileManager.default.fileExists(atPath: rejected), "kept for its owner to see")
        XCTAssertEqual(try opened.list().map(\.title), ["ALPHA"])
    }

    func testTheCaptureSideRefusesAnotherVaultAndWhatIsNotATarget() throws {
        let (vault, key) = try enrolled()
        let other = try makeVault(.sqlite, name: "other")
        let entry = try CapturedEntry.new(text: "x", date: nil, dateIsDay: false, starred: false, tags: [])
        XCTAssertThrowsError(try CaptureSender.capture(entry, keyFile: key, to: other.directory.path)) {
            XCTAssertEqual(
                $0 as? CaptureAppError, .otherVault(path: other.directory.path, key: vault.id, found: other.id))
        }
        XCTAssertThrowsError(try CaptureSender.capture(entry, keyFile: key, to: path("home").path))
        XCTAssertThrowsError(try CaptureSender.target(of: "git@example.org:diary.git")) {
            XCTAssertEqual($0 as? CaptureAppError, .gitRemote("git@example.org:diary.git"))
        }
        XCTAssertEqual(try CaptureKeyFile.read(key).counter, 0, "a refused capture spends no number")
        XCTAssertThrowsError(try CaptureKeys.create("laptop", in: vault, output: key)) {
            XCTAssertEqual($0 as? CaptureAppError, .credentialExists(path: key))
        }
        XCTAssertEqual(try vault.captureDevices().map(\.name), ["phone"], "nothing enrolled for a file that exists")
    }

    func testAFolderRemotesMarkerNamesItsVault() throws {
        let id = UUID()
        let marker = Array("diary-sync 2\n\(id.uuidString.lowercased())\n".utf8)
        XCTAssertEqual(CaptureSender.remoteVaultID(marker: marker), id)
        XCTAssertNil(CaptureSender.remoteVaultID(marker: Array("diary-sync 1\n\(id.uuidString.lowercased())\n".utf8)))
        XCTAssertNil(CaptureSender.remoteVaultID(marker: Array("diary-sync 2\n\(id.uuidString)\n".utf8)))
        let remote = path("remote")
        try FileManager.default.createDirectory(at: remote, withIntermediateDirectories: true)
        try Data(marker).write(to: remote.appendingPathComponent("diary-sync"))
        let (target, found) = try CaptureSender.target(of: remote.path)
        XCTAssertEqual(target, .folderRemote)
        XCTAssertEqual(found, id)
    }
}
