import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// Before a change that replaces or removes entry files, takes their earlier sealed bytes
    /// out of the scan copy (`EntryPack`), durably: the copy must never keep an entry's earlier
    /// bytes once the entry's file has moved on (the files store's counterpart of SQLite's
    /// `secure_delete`). The segments holding them are emptied in place (`EntryPack.empty`), so
    /// the next search still reads the rest of the copy and opens only those segments' entry
    /// files; a change too large for that removes the copy. A change that only adds entries
    /// leaves it: a new entry is not in it, and a search reads that entry's file. Caller holds
    /// the write lock.
    static func clearPack(before change: StoreChange, in directory: URL) throws {
        let pack = directory.appendingPathComponent(EntryPack.fileName)
        guard access(pack.path, F_OK) == 0 else { return }
        let entries = directory.appendingPathComponent(entriesName)
        let replaced = change.putEntries.keys.filter {
            access(entries.appendingPathComponent(fileName(for: $0)).path, F_OK) == 0
        }
        let leaving = change.deleteEntries.union(replaced)
        guard !leaving.isEmpty,
            EntryPack.empty(segmentsHolding: leaving, deleted: change.deleteEntries, in: directory) == .removeCopy
        else { return }
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
