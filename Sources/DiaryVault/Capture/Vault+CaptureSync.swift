import Foundation

extension Vault {
    /// True when this vault holds, unchanged, the entry that the item `bytes` becomes (its id is
    /// deterministic): the item was taken in already, here or on a machine whose record brought
    /// the entry, and a copy still in an inbox (an interrupted removal, a remote not yet cleaned)
    /// is removed instead of being set aside as a replay (docs/FORMAT.md §12.11, §13.3). An item
    /// of the same number with other content (a copied or restored capture key) is not: it stays
    /// a replay, set aside and reported, never deleted unseen.
    package func holdsCapturedEntry(of bytes: [UInt8]) throws -> Bool {
        guard let item = try? CaptureItem(bytes), item.vaultID == id else { return false }
        try sealedIndex.ensurePages(holding: [item.deviceID])
        guard sealedIndex.index[item.deviceID]?.summary.isCaptureDevice == true else { return false }
        let record = try captureDevice(item.deviceID)
        let entryID = try Self.capturedEntryID(record: record, counter: item.counter)
        guard let held = try storedEntry(entryID), let captured = try? item.open(with: record),
            let fresh = try? Self.capturedEntry(captured, id: entryID, device: record.name)
        else { return false }
        return EntryCodec.encode(held) == EntryCodec.encode(fresh)
    }

    /// True when a device record of this id is in the vault (revoked or not): an item of any
    /// other device cannot be opened here, so it is judged by its header alone, unread.
    package func knowsCaptureDevice(_ device: UUID) throws -> Bool {
        try sealedIndex.ensurePages(holding: [device])
        return sealedIndex.index[device]?.summary.isCaptureDevice == true
    }
}
