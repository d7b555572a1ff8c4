import DiaryCrypto
import DiaryStore
import Foundation

/// What `Vault.wordCounts` found.
public struct WordCounts: Sendable, Equatable {
    /// Words per entry (see `WordCount`), for every listed entry that opened.
    public var words: [UUID: Int] = [:]
    /// Entries that failed to open or are not the copy the index recorded: not counted.
    public var damaged: [UUID] = []
}

extension Vault {
    /// The word count of each entry that passes `filter` (its limit ignored), for `calendar`
    /// and `stats`. Dates, stars and tags come from the index (`list`); only the words need
    /// the texts, so only the entries the filter keeps are decrypted, one at a time into one
    /// guarded buffer that is zeroed after each: no String of any text is built.
    ///
    /// Read as `search` reads: one snapshot in the store's own order, falling back to a lookup
    /// per id when a row or file cannot be read, and a sealed copy that differs from the index
    /// is counted only if the index, read again, records it (another process wrote meanwhile).
    public func wordCounts(_ filter: EntryFilter = EntryFilter()) throws -> WordCounts {
        var unlimited = filter
        unlimited.limit = nil
        try sealedIndex.ensureAllPages()
        let index = sealedIndex.index
        let buffer = PlaintextBuffer()
        var found = WordCounts()
        var differing: [(id: UUID, sealed: [UInt8])] = []
        func count(_ id: UUID, _ sealed: [UInt8]) {
            do {
                found.words[id] = try Envelope.open(
                    sealed, kind: .entry, objectID: id, vaultID: header.vaultID, keyRing: keyRing, into: buffer
                ) { plaintext in
                    WordCount.count(try EntryCodec.text(in: plaintext, textLimit: Vault.maximumTextBytes))
                }
            } catch {
                found.damaged.append(id)
            }
        }
        func take(_ id: UUID, _ sealed: [UInt8]) {
            let page = index.page(of: id)
            let (listed, row) = page.position(of: id)
            guard listed, IndexListing.passes(unlimited, page, row) else { return }
            guard page.sealTag(ofRowAt: row).matches(sealed) else { return differing.append((id, sealed)) }
            count(id, sealed)
        }
        do {
            try storeCall {
                try backend.withSnapshot { reader in
                    try reader.forEachEntry { id, sealed in take(id, sealed) }
                }
            }
        } catch {
            found = WordCounts()
            differing = []
            let ids = try list(unlimited).map(\.id)
            try storeCall {
                try backend.withSnapshot { reader in
                    for id in ids {
                        let stored: [UInt8]?
                        do { stored = try reader.readEntry(id) } catch {
                            found.damaged.append(id)
                            continue
                        }
                        if let sealed = stored { take(id, sealed) }  // nil: deleted meanwhile
                    }
                }
            }
        }
        if !differing.isEmpty {
            try sealedIndex.load()
            for (id, sealed) in differing {
                if try sealedIndex.recordsSeal(sealed, of: id) { count(id, sealed) } else { found.damaged.append(id) }
            }
        }
        found.damaged.sort { $0.uuidString < $1.uuidString }
        return found
    }
}
