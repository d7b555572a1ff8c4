import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileReader {
    /// `readEntry` for each id, each file opened relative to one open `entries/` (as
    /// `forEachEntry` reads them): a path resolved from the root and a URL built for every id
    /// cost more than the read (an export reads every entry this way, in its own order). The
    /// checks and the errors are `readEntry`'s; an `entries/` that does not open leaves the
    /// decision to `readEntry`, one id at a time.
    func readEntriesInDirectory(_ ids: some Collection<UUID>) throws -> [[UInt8]?] {
        let entries = directory.appendingPathComponent(FileStore.entriesName)
        let dirFD = open(entries.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { return try ids.map { try readEntry($0) } }
        defer { close(dirFD) }
        return try ids.map { id in
            let name = id.lowercaseString  // `FileStore.fileName(for:)`, without snprintf
            return try Self.readEntryFile(name, in: dirFD) { entries.appendingPathComponent(name).path }
        }
    }
}
