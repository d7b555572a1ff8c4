import DiaryCrypto
import DiaryStore
import Foundation

/// Opens the directories of a version-5 root (`IndexDirectory`), each checked against what the
/// root records of it: the tag of its sealed copy, its page count, rows and newest key.
struct DirectoryOpener {
    let vaultID: UUID
    let keyRing: KeyRing

    /// The pages directory `number` names; throws when it is absent, is not the copy the root
    /// names, fails to open or does not agree with the root.
    func pages(of number: Int, record: DirectoryRecord, sealed: [UInt8]?) throws -> [(
        number: Int, record: PageRecord
    )] {
        guard let sealed else { throw FormatError.invalidField("missing") }
        guard SealTag(record.tag).matches(sealed) else {
            throw FormatError.invalidField("not the copy the root names (an older directory put back?)")
        }
        let plaintext = try Envelope.open(
            sealed, kind: .indexDirectory, objectID: IndexDirectory.objectID(of: number), vaultID: vaultID,
            keyRing: keyRing)
        return try IndexDirectory.decode(plaintext, number: number, record: record)
    }

    /// `root` with the pages its directories name (a root of an earlier version as it is).
    /// `read` gives a stored object by store number; what it throws (the store failing) is
    /// passed on, while a directory that is wrong throws `FormatError`.
    func resolve(_ root: IndexRoot, read: (Int) throws -> [UInt8]?) throws -> IndexRoot {
        guard let directories = root.directories else { return root }
        var resolved = root
        resolved.pages.reserveCapacity(directories.reduce(0) { $0 + $1.record.pages })
        for (number, record) in directories {
            let sealed = try read(IndexDirectory.storeBase + number)
            resolved.pages += try pages(of: number, record: record, sealed: sealed)
        }
        return resolved
    }
}

extension SealedIndex {
    /// Gives `index` the directories naming its pages and seals those that changed into
    /// `change`: the directories holding a page in `changed` (split while they have more than
    /// `IndexDirectory.maximumPages` records), or all of them when the index had none (one
    /// read from a root of an earlier version, or built in memory). A directory the write
    /// splits, or one `previous` names and the new root does not, is removed from the store.
    /// The page records must be final (their tags set).
    static func sealDirectories(
        _ index: inout PagedIndex, changed: Set<Int>, previous: Set<Int>, into change: inout StoreChange,
        vaultID: UUID, keys: GenerationKeys
    ) throws {
        let version = index.version
        var plan: [(directory: Int, pages: ArraySlice<Int>, seal: Bool)] = []
        if let old = index.directories {
            // Only the directories holding a changed page, which the write read: the others
            // keep their records, read or not.
            let touched = Set(
                changed.compactMap {
                    index.directory(ofHead: IndexLayout.heads(ofPage: $0, version: version).lowerBound)
                })
            for directory in old.keys where !touched.contains(directory) { plan.append((directory, [], false)) }
            for directory in touched {
                precondition(!index.unreadDirectories.contains(directory), "a changed page's directory was read")
                let pages = index.pageNumbers(inDirectory: directory)
                plan += PagedIndex.directories(partitioning: pages[...], within: directory, version: version).map {
                    ($0.directory, $0.pages, true)
                }
            }
        } else {
            plan = PagedIndex.directories(partitioning: index.numbers[...], within: 1, version: version).map {
                ($0.directory, $0.pages, true)
            }
        }
        var directories: [Int: DirectoryRecord] = [:]
        for (directory, pages, seal) in plan {
            if !seal, let old = index.directories?[directory] {
                directories[directory] = old
                continue
            }
            directories[directory] = try sealDirectory(
                directory, pages: pages, of: index, into: &change, vaultID: vaultID, keys: keys)
        }
        let gone = previous.union(index.directories.map { Set($0.keys) } ?? []).subtracting(directories.keys)
        change.deleteIndexPages.formUnion(gone.map { IndexDirectory.storeBase + $0 })
        index.unreadDirectories.subtract(gone)
        index.directories = directories
    }

    /// Seals directory `number` naming `pages` into `change`; returns the root's record of it.
    private static func sealDirectory(
        _ number: Int, pages: ArraySlice<Int>, of index: PagedIndex, into change: inout StoreChange,
        vaultID: UUID, keys: GenerationKeys
    ) throws -> DirectoryRecord {
        let named = pages.map { (number: $0, record: index.records[$0]!) }
        let (rows, newest) = IndexDirectory.summary(of: named.lazy.map(\.record))
        let sealed = try Envelope.seal(
            IndexDirectory.encode(number: number, pages: named[...]), kind: .indexDirectory,
            objectID: IndexDirectory.objectID(of: number), vaultID: vaultID, keys: keys)
        change.putIndexPages[IndexDirectory.storeBase + number] = sealed
        return DirectoryRecord(pages: named.count, rows: rows, newest: newest, tag: IndexRow.tag(of: sealed))
    }
}
