import DiaryStore
import Foundation

extension Vault {
    /// Ids named in the finding about stale records at most; the rest are counted.
    static let staleCopyIdsNamed = 3

    /// What `verify` says of the store's scan copy (the files store's `entries.pack`,
    /// docs/FORMAT.md §2.2): nothing when there is none, or every record is the sealed copy its
    /// index row records. Only a diary that knows no copy (an older one) changes entries
    /// without removing it, and then the copy keeps an entry's earlier ciphertext, or a deleted
    /// entry's, that the vault no longer shows: removing the copy is always safe. Judged by the
    /// index's tags, so no entry file is opened a second time.
    ///
    /// `rowless` holds the tags of the entry files the index does not list: the copy copies
    /// every file, so a record that is such a file's copy is not blamed (the file is reported
    /// on its own); one that is not (an earlier copy of it) is.
    static func scanCopyDamage(
        _ reader: any StoreReader, _ expected: Verifier.Expectations, rowless: [UUID: SealTag]
    ) -> [Damage] {
        guard let copy = reader as? ScanCopyReading else { return [] }
        var stale: [UUID] = []
        let problems = copy.forEachScanCopyRecord { id, sealed in
            // A record in a damaged page's range, or with no index at all: the index cannot say.
            guard expected.covers(id) else { return }
            guard let recorded = expected.rows?[id] else {
                if !(rowless[id]?.matches(sealed) ?? false) { stale.append(id) }
                return
            }
            if !recorded.matches(sealed) { stale.append(id) }
        }
        var damage = problems.map { Damage(object: .store, reason: $0) }
        if !stale.isEmpty {
            let named = stale.prefix(staleCopyIdsNamed).map { $0.uuidString.lowercased() }.joined(separator: ", ")
            let more = stale.count > staleCopyIdsNamed ? " and \(stale.count - staleCopyIdsNamed) more" : ""
            damage.append(
                Damage(
                    object: .store,
                    reason: "entries.pack holds sealed entries the index does not record: \(named)\(more)"
                        + " (earlier copies, left by a diary that did not know it; remove it, a search writes it again)"
                ))
        }
        return damage
    }
}
