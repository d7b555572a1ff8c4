import DiaryCrypto
import DiaryStore
import Foundation

/// What `capture-key list` shows of an enrolled device: never a key.
public struct CaptureDeviceSummary: Equatable, Sendable {
    public let id: UUID
    public let name: String
    public let enrolled: Date
    public let revoked: Date?
    /// How many of its items were taken in.
    public let takenIn: UInt64
    /// The fingerprint of the device's public key (as `Ed25519.fingerprint` shows a key).
    public let fingerprint: String

    init(_ record: CaptureDeviceRecord) {
        (id, name, enrolled, revoked) = (record.id, record.name, record.enrolled, record.revoked)
        takenIn = record.counters.count
        fingerprint = Ed25519.fingerprint(record.devicePublicKey)
    }
}

extension Vault {
    /// Enrols a capture device called `name` and returns its credential: the only copy of the
    /// device's secret key. The vault keeps the device's public key and the inbox key pair its
    /// items are sealed to, in a sealed device record (docs/FORMAT.md §7.7).
    public func enrolCaptureDevice(name: String) throws -> CaptureCredential {
        guard CaptureDeviceName.isValid(name) else { throw CaptureError.invalidDeviceName(name) }
        let (device, inbox) = (try X25519KeyPair.generate(), try X25519KeyPair.generate())
        let record = CaptureDeviceRecord(
            id: SecureRandom.uuid(), name: name, enrolled: Self.now(), devicePublicKey: device.publicKey,
            inboxSecretKey: inbox.secretKey)
        try write(allPages: true) { index in
            // Every name once, revoked devices' included: `capture:NAME` names one device.
            let key = CaptureDeviceName.key(name)
            if Self.deviceRows(in: index).contains(where: { CaptureDeviceName.key($0.title) == key }) {
                throw CaptureError.duplicateDevice(name)
            }
            let sealed = try sealEntry(record.entry)
            index[record.id] = IndexRow(summary: record.entry.summary, sealTag: IndexRow.tag(of: sealed))
            return (StoreChange(putEntries: [record.id: sealed]), ())
        }
        return CaptureCredential(
            vaultID: id, deviceID: record.id, name: name, inboxPublicKey: inbox.publicKey, device: device)
    }

    /// Every enrolled device, revoked ones included, by name.
    public func captureDevices() throws -> [CaptureDeviceSummary] {
        try sealedIndex.ensureAllPages()
        return try Self.deviceRows(in: sealedIndex.index).map { CaptureDeviceSummary(try captureDevice($0.id)) }
    }

    /// Revokes the device called `name` (letter case ignored): its items are refused from now
    /// on, on every machine the vault syncs to. False when it was revoked already.
    @discardableResult
    public func revokeCaptureDevice(named name: String) throws -> Bool {
        try sealedIndex.ensureAllPages()
        let key = CaptureDeviceName.key(name)
        guard let row = Self.deviceRows(in: sealedIndex.index).first(where: { CaptureDeviceName.key($0.title) == key })
        else { throw CaptureError.unknownDevice(name) }
        return try write(ids: [row.id]) { index in
            var record = try captureDevice(row.id, in: index)
            guard record.revoked == nil else { return (StoreChange(), false) }
            record.revoked = Self.now()
            let sealed = try sealEntry(record.entry)
            index[record.id] = IndexRow(summary: record.entry.summary, sealTag: IndexRow.tag(of: sealed))
            return (StoreChange(putEntries: [record.id: sealed]), true)
        }
    }

    /// Removes the record of a device enrolled by this command whose key could not be handed
    /// over: nobody holds its key, so no item of it exists, and its name is free again.
    /// Refuses a device any item of which was taken in (that one is revoked, never removed).
    public func withdrawCaptureDevice(_ id: UUID) throws {
        try write(ids: [id]) { index in
            let record = try captureDevice(id, in: index)
            guard record.counters.count == 0 else { throw VaultError.unknownID(id.lowercaseString) }
            index[id] = nil
            return (StoreChange(deleteEntries: [id]), ())
        }
    }

    /// The device record stored under `id`, checked against the index as `entry(_:)` checks.
    func captureDevice(_ id: UUID) throws -> CaptureDeviceRecord {
        guard let record = try storedObject(id).captureDevice else { throw VaultError.unknownID(id.lowercaseString) }
        return record
    }

    /// The device record under `id` as stored now, checked against `index` (inside `write`,
    /// where the index being written is the one to trust). Nil when `index` has no device row.
    func captureDevice(_ id: UUID, in index: PagedIndex) throws -> CaptureDeviceRecord {
        guard let row = index[id], row.summary.isCaptureDevice, let sealed = try backend.readEntry(id) else {
            throw VaultError.unknownID(id.lowercaseString)
        }
        let entry: Entry
        do { entry = try openEntry(sealed, id: id) } catch { throw VaultError.entryDamaged(id, "\(error)") }
        guard IndexRow.tag(of: sealed) == row.sealTag, let record = entry.captureDevice else {
            throw VaultError.entryDamaged(id, "differs from the index (an older copy put back?)")
        }
        return record
    }

    /// The rows of every device in `index` (whose pages must all be loaded), by name, then id.
    static func deviceRows(in index: PagedIndex) -> [EntrySummary] {
        var rows: [EntrySummary] = []
        for page in index.pages.values {
            for i in 0..<page.count where page.isCaptureDevice(rowAt: i) { rows.append(page.summary(at: i)) }
        }
        return rows.sorted {
            let (a, b) = (CaptureDeviceName.key($0.title), CaptureDeviceName.key($1.title))
            return a != b ? a < b : $0.id.sortKey < $1.id.sortKey
        }
    }
}
