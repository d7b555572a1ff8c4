import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A journaled change writes the files that already exist in place.
///
/// Replacing a file by a new one renamed over it costs a new inode and the old one's eviction:
/// for a rekey's batch of thousands of entries, most of the work. Once the journal naming the
/// change is durable, writing over the existing file is as safe: a writer killed halfway
/// leaves the journal, and replaying it (which stages and renames, as before) writes every
/// file again; readers never see a file mid-write, since they take the lock the writer holds.
/// New files are still staged before the journal is named, so a full disk found then leaves
/// nothing changed; a file written over keeps its blocks when its size does not change.
extension FileStore {
    /// The put operations whose target is an existing regular file, and every other operation.
    static func splitByPresence(_ operations: [FileJournal.Operation], in directory: URL)
        -> (inPlace: [FileJournal.Operation], rest: [FileJournal.Operation])
    {
        var inPlace: [FileJournal.Operation] = []
        var rest: [FileJournal.Operation] = []
        for operation in operations {
            var info = stat()
            if case .put = operation, lstat(directory.appendingPathComponent(operation.name).path, &info) == 0,
                info.st_mode & S_IFMT == S_IFREG
            {
                inPlace.append(operation)
            } else {
                rest.append(operation)
            }
        }
        return (inPlace, rest)
    }

    /// Writes each put over its file; one that turns out not to be a plain file is staged
    /// instead, and returned for the caller to rename into place.
    static func overwrite(_ operations: [FileJournal.Operation], in directory: URL) throws -> [(URL, URL)] {
        var restage: [FileJournal.Operation] = []
        for case .put(let name, let bytes) in operations {
            if try !DurableFile.overwrite(bytes, at: directory.appendingPathComponent(name)) {
                restage.append(.put(name: name, bytes: bytes))
            }
        }
        return try stage(restage, in: directory, sync: false)
    }
}
