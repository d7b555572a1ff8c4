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
    /// `secure_delete`). When `emptying`, the segments holding them are emptied in place
    /// (`EntryPack.empty`), so the next search still reads the rest of the copy and opens only
    /// those segments' entry files; a change too large for that, one that deletes an entry in
    /// the copy's range or changes the size of one, a key rotation's (`StoreChange.reseals`),
    /// and the parts of a change in parts (`emptying` false: an import's, each of which would
    /// empty its own segments) remove the copy. A change that only adds entries leaves it: a
    /// new entry is not in it, and a search reads that entry's file. Caller holds the write lock.
    static func clearPack(before change: StoreChange, in directory: URL, emptying: Bool = true) throws {
        let pack = directory.appendingPathComponent(EntryPack.fileName)
        guard access(pack.path, F_OK) == 0 else { return }
        let entries = directory.appendingPathComponent(entriesName)
        var replaced: [UUID] = []
        // The ids emptying may not hide: the deleted, and those whose size changes.
        var removing = change.deleteEntries
        for (id, bytes) in change.putEntries {
            var info = stat()
            guard lstat(entries.appendingPathComponent(fileName(for: id)).path, &info) == 0 else { continue }
            replaced.append(id)
            if (info.st_mode & S_IFMT) != S_IFREG || Int(info.st_size) != bytes.count { removing.insert(id) }
        }
        let leaving = change.deleteEntries.union(replaced)
        guard !leaving.isEmpty else { return }
        if emptying, !change.reseals,
            EntryPack.empty(segmentsHolding: leaving, removing: removing, in: directory) == .done
        {
            return
        }
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
