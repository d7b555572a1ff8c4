import DiaryCrypto
import DiaryStore
import Foundation

/// What became of one captured item that `Vault.takeIn` was given.
public enum CaptureOutcome: Equatable, Sendable {
    /// Stored as the entry `entryID` (source `capture:<device>`): remove the item.
    case added(entryID: UUID, device: String, counter: UInt64)
    /// The device's item `counter` was taken in before (a copy put back): move it aside.
    case replay(device: String, counter: UInt64)
    /// The device is revoked: move it aside.
    case revoked(device: String, counter: UInt64)
    /// No device of this id is enrolled in the vault: move it aside.
    case unknownDevice(UUID)
    /// An item of another vault (its id): leave it alone or move it aside, never open it.
    case otherVault(UUID)
    /// Not an item, or it does not open or parse or pass the checks `new` makes: move it aside.
    /// `device` is the enrolled device it claims to be from, when there is one.
    case damaged(device: String?, reason: String)

    /// True when the item is done with (taken in): the caller removes it.
    public var isTakenIn: Bool {
        if case .added = self { return true }
        return false
    }
}

extension Vault {
    /// The source of an entry taken in from the device called `name`.
    public static func captureSource(device name: String) -> String { "capture:" + name }

    /// The capture device an entry came from, by its source (`capture:NAME`); nil otherwise.
    public static func captureDevice(ofSource source: String?) -> String? {
        guard let source, source.hasPrefix("capture:") else { return nil }
        return String(source.dropFirst("capture:".count))
    }

    /// Takes captured items in as ordinary entries, all in one change: each is hostile input,
    /// checked in full (header, vault, device, revocation, counter, seal, plaintext, and every
    /// check `add` makes) before it becomes an entry. The devices' records gain the counters
    /// taken in, in the same change, so an item is taken in at most once on every machine that
    /// syncs. Returns one outcome per item, in order; throws only when the vault itself cannot
    /// be read or written (nothing is then stored, and no item should be removed).
    ///
    /// The caller checks an item's size (`CaptureItem.maximumBytes`) before reading it.
    public func takeIn(items: [[UInt8]]) throws -> [CaptureOutcome] {
        var outcomes = [CaptureOutcome?](repeating: nil, count: items.count)
        var parsed: [(Int, CaptureItem)] = []
        for (i, bytes) in items.enumerated() {
            do {
                let item = try CaptureItem(bytes)
                if item.vaultID != id { outcomes[i] = .otherVault(item.vaultID) } else { parsed.append((i, item)) }
            } catch {
                outcomes[i] = .damaged(device: nil, reason: Self.describe(error))
            }
        }
        guard !parsed.isEmpty else { return outcomes.map { $0! } }
        // The entry ids hang on the devices' inbox keys: read the records first, then write
        // with the pages of devices and entries loaded, reading the records again under the lock.
        let deviceIDs = Set(parsed.map(\.1.deviceID))
        var entryIDs: [UUID] = []
        for deviceID in deviceIDs {
            // One page at a time: reading a record may read the index again.
            try sealedIndex.ensurePages(holding: [deviceID])
            guard sealedIndex.index[deviceID]?.summary.isCaptureDevice == true else { continue }
            let record = try captureDevice(deviceID)
            for (_, item) in parsed where item.deviceID == deviceID {
                entryIDs.append(try Self.capturedEntryID(record: record, counter: item.counter))
            }
        }
        let decided = try write(ids: Array(deviceIDs) + entryIDs) { index in
            var batch = TakeInBatch(vault: self)
            for (i, item) in parsed { batch.take(i, item, index: &index) }
            if let error = batch.loadErrors.first { throw error }
            return (try batch.finish(index: &index), batch.outcomes)
        }
        for (i, outcome) in decided { outcomes[i] = outcome }
        return outcomes.map { $0! }
    }

    /// `UUIDv8(KH(key = inbox secret key, "diary.capture.entry.v1" ‖ device id ‖ u64 counter)[0..16])`:
    /// the same on every machine, so two machines taking in one item make one entry.
    static func capturedEntryID(record: CaptureDeviceRecord, counter: UInt64) throws -> UUID {
        var message = ByteWriter(capacity: 48)
        message.append(Array("diary.capture.entry.v1".utf8))
        message.uuid(record.id)
        message.u64(counter)
        var bytes = Array(try BLAKE2b.keyedHash(message.bytes, key: record.inboxSecretKey).prefix(16))
        bytes[6] = bytes[6] & 0x0f | 0x80  // version 8
        bytes[8] = bytes[8] & 0x3f | 0x80  // RFC 9562 variant
        return UUID(bytes: bytes)
    }

    /// The entry an accepted item becomes: what `add` would store, dated by the item, checked
    /// by the very function `add` (and `CapturedEntry.new`, on the capture side) checks with,
    /// so an item `capture` made is never refused here.
    static func capturedEntry(_ captured: CapturedEntry, id: UUID, device: String) throws -> Entry {
        try validate(text: captured.text, tags: captured.tags, source: captureSource(device: device))
        return Entry(
            id: id, text: captured.text, date: captured.date, created: captured.captured,
            modified: captured.captured, starred: captured.starred, tags: EntryText.normalizedTags(captured.tags),
            source: captureSource(device: device), isCalendarDay: captured.isCalendarDay)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case CaptureItemDamage.tooLarge: "larger than any item"
        case CaptureItemDamage.truncated: "truncated"
        case CaptureItemDamage.notAnItem: "not a captured item"
        case CaptureItemDamage.unsupportedVersion(let v): "unsupported item version \(v)"
        case CryptoError.authenticationFailed: "does not open (tampered, or not sealed by the device)"
        default: "\(error)"
        }
    }
}

/// The items of one `takeIn`, decided under the write lock against the index being written.
private struct TakeInBatch {
    let vault: Vault
    var outcomes: [(Int, CaptureOutcome)] = []
    var records: [UUID: CaptureDeviceRecord] = [:]
    var changed = Set<UUID>()
    var putEntries: [UUID: [UInt8]] = [:]
    /// A device record that cannot be read is the vault's damage, not the item's: nothing is stored.
    var loadErrors: [any Error] = []
    private var unknown = Set<UUID>()

    init(vault: Vault) { self.vault = vault }

    mutating func take(_ i: Int, _ item: CaptureItem, index: inout PagedIndex) {
        guard let record = record(item.deviceID, index: index) else {
            outcomes.append((i, .unknownDevice(item.deviceID)))
            return
        }
        let name = record.name
        if record.revoked != nil { return outcomes.append((i, .revoked(device: name, counter: item.counter))) }
        if record.counters.contains(item.counter) {
            return outcomes.append((i, .replay(device: name, counter: item.counter)))
        }
        // A counter that touches no interval taken in needs a new one; past the cap the record
        // would grow without bound (a stolen credential leaving gaps on purpose), so it is refused.
        let counters = record.counters.inserting(item.counter)
        guard counters.isStorable else {
            return outcomes.append((i, .damaged(device: name, reason: "too many gaps in its numbering")))
        }
        do {
            let entryID = try Vault.capturedEntryID(record: record, counter: item.counter)
            // An entry of that id stored already: the item was taken in by a record we lost.
            if index[entryID] != nil { return outcomes.append((i, .replay(device: name, counter: item.counter))) }
            let entry = try Vault.capturedEntry(try item.open(with: record), id: entryID, device: name)
            let sealed = try vault.sealEntry(entry)
            index[entryID] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            putEntries[entryID] = sealed
            records[record.id]?.counters = counters
            changed.insert(record.id)
            outcomes.append((i, .added(entryID: entryID, device: name, counter: item.counter)))
        } catch {
            outcomes.append((i, .damaged(device: name, reason: Vault.describe(error))))
        }
    }

    /// The record of `id` as stored now; nil (unknown device) when the index has no device row.
    private mutating func record(_ id: UUID, index: PagedIndex) -> CaptureDeviceRecord? {
        if let known = records[id] { return known }
        guard !unknown.contains(id), index[id]?.summary.isCaptureDevice == true else {
            unknown.insert(id)
            return nil
        }
        do {
            let record = try vault.captureDevice(id, in: index)
            records[id] = record
            return record
        } catch {
            loadErrors.append(error)
            unknown.insert(id)
            return nil
        }
    }

    /// The change: the new entries, and each device record that gained counters.
    func finish(index: inout PagedIndex) throws -> StoreChange {
        var puts = putEntries
        for id in changed {
            let entry = records[id]!.entry
            let sealed = try vault.sealEntry(entry)
            index[id] = IndexRow(summary: entry.summary, sealTag: IndexRow.tag(of: sealed))
            puts[id] = sealed
        }
        return StoreChange(putEntries: puts)
    }
}
