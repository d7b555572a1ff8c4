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
            let name = Self.entryFileName(id)
            return try Self.readEntryFile(name, in: dirFD) { entries.appendingPathComponent(name).path }
        }
    }

    /// `FileStore.fileName(for:)` (the lowercase 8-4-4-4-12 form), written digit by digit:
    /// `uuidString` formats through `snprintf` and `lowercased()` copies it again.
    static func entryFileName(_ id: UUID) -> String {
        withUnsafeBytes(of: id.uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var at = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    out[at] = hexDigits[Int(byte >> 4)]
                    out[at + 1] = hexDigits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
}
