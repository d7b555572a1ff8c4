import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// Removes the scan copy (`EntryPack`) before a change that replaces or removes an entry
    /// file, and makes the removal durable first: the copy must never keep an entry's earlier
    /// sealed bytes once the entry's file has moved on (the files store's counterpart of
    /// SQLite's `secure_delete`). A change that only adds entries leaves it: a new entry is not
    /// in it, and a search reads that entry's file. Caller holds the write lock.
    static func dropPack(before change: StoreChange, in directory: URL) throws {
        let pack = directory.appendingPathComponent(EntryPack.fileName)
        guard access(pack.path, F_OK) == 0 else { return }
        let entries = directory.appendingPathComponent(entriesName)
        let replaces = change.putEntries.keys.contains {
            access(entries.appendingPathComponent(fileName(for: $0)).path, F_OK) == 0
        }
        guard replaces || !change.deleteEntries.isEmpty else { return }
        try dropPack(in: directory)
    }

    /// Removes the scan copy, if there is one, durably. Caller holds the write lock. A
    /// directory under its name is left alone: every reader refuses it (`verify` reports it),
    /// and it must not stop a change or the replay of a journal.
    static func dropPack(in directory: URL) throws {
        guard try DurableFile.removeUnlessDirectory(directory.appendingPathComponent(EntryPack.fileName)) else {
            return
        }
        try DurableFile.syncDirectory(directory)
    }
}
