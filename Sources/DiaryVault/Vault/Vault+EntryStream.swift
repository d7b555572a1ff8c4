import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// The entries `ids`, decrypted, handed to `body` one at a time in the order given.
    ///
    /// One snapshot of the store, read a batch at a time: each batch is opened on every core
    /// while `body` works on the one before, so at most two batches are held, whatever the
    /// number of ids (an export of 100,000 entries uses the memory of a few hundred).
    /// Checked as `entry(_:)` checks one: an id the store lacks throws `unknownID`, an entry that
    /// does not open or is not the copy the index recorded throws `entryDamaged`; `body` has
    /// then seen every entry before it, none after.
    public func forEachEntry(_ ids: [UUID], _ body: (Entry) throws -> Void) throws {
        try forEachEntry(ids, preparing: { $0 }, body)
    }

    /// `forEachEntry(_:_:)`, with `prepare` run on each entry by the workers that open it (an
    /// export formats its entries there), and `body` given what it made, in order.
    public func forEachEntry<T>(
        _ ids: [UUID], preparing prepare: @escaping @Sendable (Entry) -> T, _ body: (T) throws -> Void
    ) throws {
        let (vaultID, keyRing) = (header.vaultID, keyRing)
        // The workers also check each entry against the index as the batch starts with it (a
        // copy: only read), so this thread, which reads and hands over, looks up only the
        // entries not found to be the recorded copy there.
        let opener = { (index: PagedIndex?) -> ((UUID, [UInt8])) -> OpenedEntry<T> in
            { item in
                OpenedEntry(
                    id: item.0, sealed: item.1,
                    recordedIn: Self.recorded(item.1, of: item.0, in: index) ? index?.generation : nil,
                    prepared: Result {
                        prepare(try SealedEntry.open(item.1, id: item.0, vaultID: vaultID, keyRing: keyRing))
                    })
            }
        }
        try storeCall {
            try backend.withSnapshot { reader in
                var inFlight: ParallelBatch.Job<(UUID, [UInt8]), OpenedEntry<T>>?
                for start in stride(from: 0, to: ids.count, by: ParallelBatch.size) {
                    let chunk = ids[start..<min(start + ParallelBatch.size, ids.count)]
                    let batch = try zip(chunk, reader.readEntries(chunk)).map { id, sealed in
                        guard let sealed else { throw VaultError.unknownID(id.uuidString.lowercased()) }
                        return (id, sealed)
                    }
                    let job = ParallelBatch.Job(batch, opener(sealedIndex.state == .ok ? sealedIndex.index : nil))
                    if let previous = inFlight { try deliver(previous.finish(), to: body) }
                    inFlight = job
                }
                if let last = inFlight { try deliver(last.finish(), to: body) }
            }
        }
    }

    /// One sealed entry and what opening it gave.
    struct OpenedEntry<T> {
        let id: UUID
        let sealed: [UInt8]
        /// The generation of the index the batch started with, when that index records this
        /// copy; nil is decided again by `SealedIndex.recordsSeal`, and so is a generation the
        /// index in memory no longer has (it was read again since).
        let recordedIn: UInt64?
        let prepared: Result<T, any Error>
    }

    /// True when `index` (as `SealedIndex.recordsSeal` decides) records `sealed` as `id`'s copy;
    /// false when it does not, or cannot say without reading a page.
    private static func recorded(_ sealed: [UInt8], of id: UUID, in index: PagedIndex?) -> Bool {
        guard let index, let number = index.pageNumberIfRead(of: id), let page = index.pages[number] else {
            return false
        }
        return page.recordsSeal(sealed, of: id) ?? true
    }

    /// Hands each opened entry to `body`, in order, once it is known to be authentic and the
    /// copy the index records.
    private func deliver<T>(_ opened: [OpenedEntry<T>], to body: (T) throws -> Void) throws {
        for item in opened {
            let entry: T
            do { entry = try item.prepared.get() } catch { throw VaultError.entryDamaged(item.id, "\(error)") }
            let current = sealedIndex.state == .ok ? sealedIndex.index.generation : nil
            let recorded = item.recordedIn != nil && item.recordedIn == current
            if try !recorded && !sealedIndex.recordsSeal(item.sealed, of: item.id) {
                // Another process may have written since our index was read: look again first.
                try sealedIndex.load()
                guard try sealedIndex.recordsSeal(item.sealed, of: item.id) else {
                    throw VaultError.entryDamaged(item.id, "differs from the index (an older copy put back?)")
                }
            }
            try body(entry)
        }
    }
}
