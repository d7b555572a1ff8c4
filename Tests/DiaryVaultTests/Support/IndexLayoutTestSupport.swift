import DiaryCrypto
import DiaryStore
import Foundation

@testable import DiaryVault

extension IndexLayout {
    /// The pages every index starts with: depth 6, numbers 64...127 (a vault of fewer than
    /// `maximumRows` entries per page never splits one).
    static let firstPages = 64..<128

    /// What a store holds for an index that has not split: those pages and directory 1.
    static let firstStored = Set(firstPages).union([IndexDirectory.storeBase + 1])

    /// The store numbers of the directories `root` names (none for a root of version 3).
    static func storeNumbers(of root: IndexRoot) -> Set<Int> {
        Set((root.directories ?? []).map { IndexDirectory.storeBase + $0.number })
    }

    /// The page of depth 6 that holds `id` in an index that has not split.
    static func firstPage(of id: UUID) -> Int { 64 | head(of: id) >> 10 }
}

/// Builds a vault's index in the version-2 layout (root of 64 pages 0...63), the way the
/// code before index version 3 wrote it, to test reading and migrating old vaults.
enum LegacyIndexWriter {
    /// Replaces `vault`'s index, in its store, with a version-2 index of the same rows.
    static func downgrade(_ vault: Vault) throws {
        try vault.sealedIndex.ensureAllPages()
        let change = try change(
            rows: vault.sealedIndex.index.allRows(), generation: vault.sealedIndex.index.generation,
            vaultID: vault.id, keys: vault.keyRing.current,
            removing: Set(try vault.backend.readIndexPages().keys))
        try vault.backend.apply(change)
        try vault.sealedIndex.load()
    }

    /// Replaces `vault`'s root, in its store, with one of version 3 (naming its pages, as
    /// diaries before root version 5 wrote it) and removes its directories; pages stay.
    static func downgradeToVersion3(_ vault: Vault) throws {
        try vault.sealedIndex.ensureAllDirectories()
        var root = vault.sealedIndex.index.root
        let directories = IndexLayout.storeNumbers(of: root)
        root.directories = nil
        let sealed = try Envelope.seal(
            root.encoded(), kind: .index, objectID: Envelope.indexObjectID, vaultID: vault.id,
            keys: vault.keyRing.current)
        try vault.backend.apply(StoreChange(index: sealed, deleteIndexPages: directories))
        try vault.sealedIndex.load()
    }

    /// The store change that writes a version-2 index of `rows` and removes `removing`.
    static func change(
        rows: [IndexRow], generation: UInt64, vaultID: UUID, keys: GenerationKeys, removing: Set<Int> = []
    ) throws -> StoreChange {
        var pages = (0..<64).map { IndexPage(number: $0, version: IndexLayout.legacyVersion) }
        for row in rows { pages[IndexLayout.head(of: row.summary.id) >> 10].upsert(row) }
        var change = StoreChange(deleteIndexPages: removing)
        var records: [(number: Int, record: PageRecord)] = []
        for page in pages {
            let sealed = try Envelope.seal(
                page.encoded(), kind: .indexPage, objectID: IndexLayout.objectID(ofPage: page.number),
                vaultID: vaultID, keys: keys)
            change.putIndexPages[page.number] = sealed
            records.append(
                (page.number, PageRecord(rows: page.count, newest: page.newestKey(), tag: IndexRow.tag(of: sealed))))
        }
        let root = IndexRoot(version: IndexLayout.legacyVersion, generation: generation, pages: records)
        change.index = try Envelope.seal(
            root.encoded(), kind: .index, objectID: Envelope.indexObjectID, vaultID: vaultID, keys: keys)
        return change
    }
}
