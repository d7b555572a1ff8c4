import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation
import XCTest

@testable import DiaryVault

/// Write-only capture in the vault: enrolment, items taken in exactly once as ordinary entries,
/// and every item that must be refused refused without harm.
final class VaultCaptureTests: VaultTestCase {
    private func capture(
        _ text: String, with credential: inout CaptureCredential, tags: [String] = [], starred: Bool = false
    ) throws -> [UInt8] {
        credential = try credential.advanced()
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        return try CaptureItem.seal(
            CapturedEntry(text: text, date: now, captured: now, starred: starred, tags: tags), credential: credential)
    }

    func testAnItemArrivesOnceAsAnOrdinaryEntryOfItsDevice() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var phone = try vault.enrolCaptureDevice(name: "phone")
            let item = try capture("walked to the lake", with: &phone, tags: ["outside"], starred: true)
            XCTAssertNil(item.firstRange(of: Array("lake".utf8)), "the item does not hold the text")
            let outcomes = try vault.takeIn(items: [item, item])
            guard case .added(let id, "phone", 1) = outcomes[0] else { return XCTFail("\(outcomes)") }
            XCTAssertEqual(outcomes[1], .replay(device: "phone", counter: 1), "a copy in the same batch")
            let entry = try vault.entry(id)
            XCTAssertEqual([entry.text, entry.source], ["walked to the lake", "capture:phone"])
            XCTAssertEqual(entry.tags, ["outside"])
            XCTAssertTrue(entry.starred)
            XCTAssertEqual(try vault.list().map(\.id), [id], "the device record is not an entry")
            XCTAssertEqual(try vault.takeIn(items: [item]), [.replay(device: "phone", counter: 1)])
            let reopened = try Vault.open(at: vault.directory, passphrase: secret("correct horse"))
            XCTAssertEqual(try reopened.takeIn(items: [item]), [.replay(device: "phone", counter: 1)])
            XCTAssertEqual(try reopened.captureDevices().map(\.takenIn), [1])
            XCTAssertEqual(
                try Vault.capturedEntryID(record: try reopened.captureDevice(phone.deviceID), counter: 1), id)
        }
    }

    /// `IndexListing.passes` and `resolve` keep a device record out of everything about entries.
    func testNoEnumerationOfEntriesSeesADeviceRecord() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            let entry = try vault.add(text: "phone call with mum", tags: ["phone"])
            let device = try vault.enrolCaptureDevice(name: "phone").deviceID
            XCTAssertEqual(try vault.list().map(\.id), [entry.id])
            XCTAssertEqual(try vault.list(EntryFilter(limit: 5)).map(\.id), [entry.id])
            XCTAssertEqual(try vault.search("phone").matches.map(\.id), [entry.id])
            XCTAssertEqual(Array(try vault.wordCounts().words.keys), [entry.id])
            let full = device.uuidString.lowercased()
            XCTAssertThrowsVaultError(.unknownID(full), try vault.resolve(full))
            XCTAssertThrowsVaultError(.unknownID(String(full.prefix(8))), try vault.resolve(String(full.prefix(8))))
            XCTAssertThrowsVaultError(.unknownID(full), try vault.entry(device))
            XCTAssertThrowsVaultError(.unknownID(full), try vault.update(device, starred: true))
            XCTAssertEqual(try vault.templates().count, 0)
            XCTAssertNotNil(try vault.storedEntry(device)?.captureDevice, "sync still sees it")
        }
    }

    func testRefusedItemsChangeNothing() throws {
        let vault = try makeVault(.files)
        var phone = try vault.enrolCaptureDevice(name: "phone")
        let other = try makeVault(.files, name: "other")
        var stranger = try other.enrolCaptureDevice(name: "phone")
        let good = try capture("a good one", with: &phone)
        var tampered = good
        tampered[tampered.count - 1] ^= 1
        var forgedDevice = good
        forgedDevice[30] ^= 1
        let blank = try capture(" \n", with: &phone)
        let foreign = try capture("for the other vault", with: &stranger)
        let outcomes = try vault.takeIn(items: [
            Array(good.prefix(100)), tampered, forgedDevice, blank, foreign, Array("DIARYCAP".utf8) + [2] + good[9...],
        ])
        XCTAssertEqual(outcomes[0], .damaged(device: nil, reason: "truncated"))
        XCTAssertEqual(
            outcomes[1], .damaged(device: "phone", reason: "does not open (tampered, or not sealed by the device)"))
        guard case .unknownDevice = outcomes[2] else { return XCTFail("\(outcomes[2])") }
        guard case .damaged("phone", _) = outcomes[3] else { return XCTFail("\(outcomes[3])") }
        XCTAssertEqual(outcomes[4], .otherVault(other.id))
        XCTAssertEqual(outcomes[5], .damaged(device: nil, reason: "unsupported item version 2"))
        XCTAssertEqual(try vault.list().count, 0)
        XCTAssertEqual(try vault.captureDevices().map(\.takenIn), [0], "no counter was spent on a refused item")
        guard case .added = try vault.takeIn(items: [good])[0] else { return XCTFail("the good item still arrives") }
    }

    /// One rule for tags, `add`'s: what `capture` seals is taken in as `new` would store it,
    /// and a refusal names the real reason.
    func testTagsAreCheckedExactlyAsNewChecksThem() throws {
        let vault = try makeVault(.files)
        var phone = try vault.enrolCaptureDevice(name: "phone")
        let tags = ["a\u{1b}b", "#", " #x y "]
        let added = try vault.add(text: "by hand", tags: tags)
        let sealed = try CapturedEntry.new(text: "captured", date: nil, dateIsDay: false, starred: false, tags: tags)
        XCTAssertEqual(sealed.tags, added.tags, "the capture side normalises as new does")
        let item = try capture("captured", with: &phone, tags: tags)
        guard case .added(let id, _, _) = try vault.takeIn(items: [item])[0] else { return XCTFail("taken in") }
        XCTAssertEqual(try vault.entry(id).tags, added.tags)
        let long = String(repeating: "t", count: EntryText.maximumTagBytes + 1)
        XCTAssertThrowsError(
            try CapturedEntry.new(text: "x", date: nil, dateIsDay: false, starred: false, tags: [long]))
        XCTAssertEqual(
            try vault.takeIn(items: [try capture("too long a tag", with: &phone, tags: [long])]),
            [
                .damaged(
                    device: "phone",
                    reason: VaultError.invalidTag(bytes: long.utf8.count, limit: EntryText.maximumTagBytes).description)
            ])
    }

    func testARevokedDevicesItemsAreRefusedAndNamesAreUnique() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var phone = try vault.enrolCaptureDevice(name: "Phone")
            XCTAssertThrowsError(try vault.enrolCaptureDevice(name: "phone")) {
                XCTAssertEqual($0 as? CaptureError, .duplicateDevice("phone"))
            }
            XCTAssertThrowsError(try vault.enrolCaptureDevice(name: " x")) {
                XCTAssertEqual($0 as? CaptureError, .invalidDeviceName(" x"))
            }
            let item = try capture("late", with: &phone)
            XCTAssertTrue(try vault.revokeCaptureDevice(named: "PHONE"))
            XCTAssertFalse(try vault.revokeCaptureDevice(named: "phone"), "revoked already")
            XCTAssertThrowsError(try vault.revokeCaptureDevice(named: "laptop"))
            XCTAssertEqual(try vault.takeIn(items: [item]), [.revoked(device: "Phone", counter: 1)])
            XCTAssertNotNil(try vault.captureDevices().first?.revoked)
        }
    }

    func testVerifyBackupReindexAndRotationCarryDeviceRecords() throws {
        forEachStoreKind { kind in
            let vault = try makeVault(kind)
            var phone = try vault.enrolCaptureDevice(name: "phone")
            let item = try capture("kept", with: &phone)
            _ = try vault.takeIn(items: [item])
            XCTAssertEqual(try vault.reindex(), 2)
            try vault.rotateKey(passphrase: secret("correct horse"))
            let verified = try vault.verify()
            XCTAssertTrue(verified.isClean)
            XCTAssertEqual([verified.checkedEntries, verified.checkedCaptureDevices], [2, 1])
            let file = path("c-\(kind.rawValue).diarybak")
            try vault.backup(to: file)
            XCTAssertEqual(try Vault.verifyBackup(file, passphrase: secret("correct horse")).checkedCaptureDevices, 1)
            let restored = try Vault.restore(
                backup: file, to: path("restored-\(kind.rawValue)"), passphrase: secret("correct horse"))
            XCTAssertEqual(try restored.takeIn(items: [item]), [.replay(device: "phone", counter: 1)])
            XCTAssertEqual(try restored.list().count, 1)
            var next = phone
            guard case .added = try restored.takeIn(items: [try capture("after", with: &next)])[0] else {
                return XCTFail("the rotated vault still opens the device's items")
            }
        }
    }

    func testTheCredentialRoundTripsAndIsParsedStrictly() throws {
        let vault = try makeVault(.files)
        let credential = try vault.enrolCaptureDevice(name: "work laptop").advanced().advanced()
        let bytes = credential.encoded()
        let parsed = try CaptureCredential.parse(bytes)
        XCTAssertEqual([parsed.vaultID, parsed.deviceID], [vault.id, credential.deviceID])
        XCTAssertEqual(parsed.name, "work laptop")
        XCTAssertEqual(parsed.counter, 2)
        XCTAssertEqual(parsed.device.publicKey, credential.device.publicKey)
        XCTAssertEqual(parsed.inboxPublicKey, credential.inboxPublicKey)
        let text = String(decoding: bytes, as: UTF8.self)
        let variants = [
            text.replacingOccurrences(of: "counter 2", with: "counter 02"),
            text.replacingOccurrences(of: "counter 2\n", with: "counter 2"),
            text.replacingOccurrences(of: "diary capture key 1", with: "diary capture key 2"),
            text.replacingOccurrences(
                of: "vault \(vault.id.uuidString.lowercased())", with: "vault \(vault.id.uuidString)"),
            text + "extra\n",
            text.replacingOccurrences(of: "\nname ", with: "\n# a comment\nname "),
        ]
        for variant in variants {
            XCTAssertThrowsError(try CaptureCredential.parse(Array(variant.utf8)), variant)
        }
        XCTAssertThrowsError(try CaptureCredential.parse(Array(text.utf8) + [UInt8](repeating: 35, count: 5000)))
    }

    /// A record at the interval cap (a stolen credential leaving gaps on purpose): an item that
    /// would open one more interval is moved aside as damaged and stores nothing; one that
    /// extends an interval is still taken in.
    func testAnItemPastTheIntervalCapIsRefusedRatherThanGrowTheRecord() throws {
        let vault = try makeVault(.files)
        var phone = try vault.enrolCaptureDevice(name: "phone")
        let cap = UInt64(CaptureCounterSet.maximumIntervals)
        var record = try vault.captureDevice(phone.deviceID)
        record.counters = CaptureCounterSet((0..<cap).map { 2 * $0 + 1...2 * $0 + 1 })
        _ = try vault.applySynced(puts: [record.entry], deletes: [], expected: [:])
        phone.counter = 2 * cap + 2
        let gap = try capture("one gap too many", with: &phone)
        XCTAssertEqual(
            try vault.takeIn(items: [gap]), [.damaged(device: "phone", reason: "too many gaps in its numbering")])
        XCTAssertEqual(try vault.captureDevice(phone.deviceID), record, "nothing stored")
        phone.counter = 2 * cap - 1
        let extending = try capture("extends the last interval", with: &phone)
        guard case .added(_, "phone", 2 * cap) = try vault.takeIn(items: [extending])[0] else {
            return XCTFail("an item that extends an interval is taken in")
        }
        XCTAssertEqual(try vault.captureDevice(phone.deviceID).counters.intervals.count, Int(cap))
        XCTAssertEqual(try vault.list().count, 1)
    }
}

/// The independent reader (`Scripts/decrypt-vault.py`) reads device records and opens a waiting
/// item with them, giving the entry the id the vault gives it.
final class CaptureReaderTests: VaultTestCase {
    func testThePythonReaderOpensDeviceRecordsAndInboxItems() throws {
        try PythonReader.requireSecretstream()
        let vault = try makeVault(.files)
        let phone = try vault.enrolCaptureDevice(name: "phone").advanced()
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        let item = try CaptureItem.seal(
            CapturedEntry(text: "a heron, in Python", date: now, captured: now, starred: true, tags: ["birds"]),
            credential: phone)
        let inbox = vault.directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let name = CaptureItem.fileName(deviceID: phone.deviceID, counter: 1)
        try Data(item).write(to: inbox.appendingPathComponent(name))
        // Names diary does not take for items (upper case) are not items to the reader either;
        // one named as another item is refused as diary refuses it.
        try Data(item).write(
            to: inbox.appendingPathComponent(name.uppercased().replacingOccurrences(of: "DCAP", with: "dcap")))
        let renamed = CaptureItem.fileName(deviceID: phone.deviceID, counter: 9)
        try Data(item).write(to: inbox.appendingPathComponent(renamed))
        var stranger = item
        stranger.replaceSubrange(25..<41, with: [UInt8](repeating: 0x3a, count: 16))
        let strangerName = String(repeating: "3a", count: 16) + name.dropFirst(32)
        try Data(stranger).write(to: inbox.appendingPathComponent(strangerName))
        let waiting = try PythonReader.run([PythonReader.script.path, vault.directory.path, "correct horse"])
        XCTAssertTrue(
            waiting.output.contains(
                "\(strangerName): an item of a device this vault does not know: it waits where the vault syncs"),
            waiting.output)
        XCTAssertEqual(waiting.status, 0, waiting.output)
        XCTAssertTrue(waiting.output.contains("- name 'phone'"), waiting.output)
        XCTAssertTrue(waiting.output.contains("a heron, in Python"), waiting.output)
        XCTAssertEqual(waiting.output.components(separatedBy: "### inbox item").count, 4, "three items, not four")
        XCTAssertTrue(
            waiting.output.contains("\(renamed): diary will set it aside (its name is another item's)"), waiting.output)
        guard case .added(let id, _, _) = try vault.takeIn(items: [item])[0] else { return XCTFail("not taken in") }
        XCTAssertTrue(
            waiting.output.contains("\(name): waits to be taken in, as entry \(id.uuidString.lowercased())"),
            waiting.output)
        let taken = try PythonReader.run([PythonReader.script.path, vault.directory.path, "correct horse"])
        XCTAssertTrue(
            taken.output.contains(
                "\(name): taken in already, as entry \(id.uuidString.lowercased()): diary removes it if that entry"),
            taken.output)
        XCTAssertTrue(taken.output.contains("taken in: 1…1\n"), taken.output)
        try vault.delete(id)
        let deleted = try PythonReader.run([PythonReader.script.path, vault.directory.path, "correct horse"])
        XCTAssertTrue(
            deleted.output.contains("\(name): diary will set it aside (a replay of one whose entry is gone)"),
            deleted.output)
        XCTAssertEqual(CaptureItem.maximumBytes, 9_437_305, "the bound FORMAT.md §13.1 states")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: inbox.path)
        XCTAssertEqual(try VaultExposure.measure(at: vault.directory).tooOpen.map(\.path), ["inbox"])
    }
}

/// Mutated credentials, device records and items are refused, never trusted and never a crash.
final class CaptureHostileInputTests: VaultTestCase {
    func testMutatedCaptureInputsAreRefusedOrReadStrictly() throws {
        let vault = try makeVault(.files)
        let credential = try vault.enrolCaptureDevice(name: "phone").advanced()
        let now = Date(millisecondsSince1970: 1_700_000_000_000)
        let item = try CaptureItem.seal(
            CapturedEntry(text: "hostile", date: now, captured: now, starred: false, tags: ["t"]),
            credential: credential)
        let record = try XCTUnwrap(try vault.storedEntry(credential.deviceID)?.captureDevice)
        let recordBytes = EntryCodec.encode(record.entry)
        let credentialBytes = credential.encoded()
        var g = SeededGenerator(seed: SeededGenerator.announcedSeed("capture hostile input"))
        var mutatedItems: [[UInt8]] = []
        for _ in 0..<300 {
            if let parsed = try? CaptureCredential.parse(HostileInput.mutate(credentialBytes, using: &g)) {
                XCTAssertTrue(CaptureDeviceName.isValid(parsed.name))
            }
            if let decoded = try? EntryCodec.decode(
                HostileInput.mutate(recordBytes, using: &g), id: record.id, textLimit: 1 << 20)
            {
                let counters = try XCTUnwrap(decoded.captureDevice?.counters)
                XCTAssertEqual(counters, CaptureCounterSet(counters.intervals), "normalised")
            }
            mutatedItems.append(HostileInput.mutate(item, using: &g))
        }
        let outcomes = try vault.takeIn(items: mutatedItems)
        for (bytes, outcome) in zip(mutatedItems, outcomes) where outcome.isTakenIn {
            XCTAssertEqual(bytes, item, "only the unchanged item is taken in")
        }
        XCTAssertLessThanOrEqual(try vault.list().count, 1)
    }
}
