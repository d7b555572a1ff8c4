import Foundation

extension Vault {
    /// True when this vault holds the entry that item `counter` of device `device` becomes (its
    /// id is deterministic): the item was taken in already, here or on a machine whose record
    /// brought the entry. Sync then removes a copy of the item still in a remote's inbox
    /// instead of setting it aside as a replay (docs/FORMAT.md §12.11).
    package func holdsCapturedEntry(device: UUID, counter: UInt64) throws -> Bool {
        try sealedIndex.ensurePages(holding: [device])
        guard sealedIndex.index[device]?.summary.isCaptureDevice == true else { return false }
        let entryID = try Self.capturedEntryID(record: try captureDevice(device), counter: counter)
        try sealedIndex.ensurePages(holding: [entryID])
        return sealedIndex.index[entryID] != nil
    }

    /// True when a device record of this id is in the vault (revoked or not): an item of any
    /// other device cannot be opened here, so it is judged by its header alone, unread.
    package func knowsCaptureDevice(_ device: UUID) throws -> Bool {
        try sealedIndex.ensurePages(holding: [device])
        return sealedIndex.index[device]?.summary.isCaptureDevice == true
    }
}
