import DiaryCrypto
import Foundation

@testable import DiaryVault

/// A backup file's records taken apart and put back together (docs/FORMAT.md §10), so that a
/// test can change what the records say while the container around them stays well formed.
enum BackupContainer {
    typealias Record = (type: UInt8, payload: [UInt8])

    /// The records of the backup at `file`, in order, without the end record.
    static func records(of file: URL) throws -> [Record] {
        var reader = ByteReader(Array(try Data(contentsOf: file)), offset: 10)
        var records: [Record] = []
        while true {
            let type = try reader.u8()
            let payload = try reader.take(Int(try reader.u32()))
            if type == BackupFile.endType { return records }
            records.append((type, payload))
        }
    }

    /// The container around `records`: magic, version, records, and an end record with `count`
    /// (the true count unless given) and the hash of everything before it.
    static func bytes(_ records: [Record], count: Int? = nil) -> [UInt8] {
        var w = ByteWriter()
        w.append(BackupFile.magic)
        w.u16(BackupFile.version)
        for record in records {
            w.u8(record.type)
            w.u32(UInt32(record.payload.count))
            w.append(record.payload)
        }
        let hash = BLAKE2b.hash(w.bytes)
        w.u8(BackupFile.endType)
        w.u32(40)
        w.u64(UInt64(count ?? records.count))
        w.append(hash)
        return w.bytes
    }
}
