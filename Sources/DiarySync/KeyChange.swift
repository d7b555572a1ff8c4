import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// A passphrase change or a key rotation made on this machine, waiting in its sync state.
///
/// Transitional: format 1 published it as an operation of a record; format 2 publishes key
/// changes as chain statements, so it is no longer part of any record and lives only in the
/// local state until the engine moves to statements.
struct KeyChange {
    var headers: [StoreKind: [UInt8]]
    var retired: [(generation: UInt32, key: SecretBytes)]

    /// The local state's encoding of an optional pending change.
    static func encode(_ change: KeyChange?, to w: inout ByteWriter) {
        guard let change else { return w.u8(0) }
        w.u8(1)
        let headers = change.headers.sorted { $0.key.rawValue < $1.key.rawValue }
        w.u8(UInt8(headers.count))
        for (store, header) in headers {
            w.string16(store.rawValue)
            w.u16(UInt16(header.count))
            w.append(header)
        }
        w.u8(UInt8(change.retired.count))
        for retired in change.retired {
            w.u32(retired.generation)
            retired.key.withUnsafeBytes { w.append(Array($0)) }
        }
    }

    static func decode(_ r: inout ByteReader) throws -> KeyChange? {
        guard try r.u8() == 1 else { return nil }
        var headers: [StoreKind: [UInt8]] = [:]
        for _ in 0..<Int(try r.u8()) {
            guard let store = StoreKind(rawValue: try r.string16()) else { throw FormatError.invalidField("store") }
            headers[store] = try r.take(Int(try r.u16()))
        }
        var retired: [(UInt32, SecretBytes)] = []
        for _ in 0..<Int(try r.u8()) {
            let generation = try r.u32()
            var raw = try r.take(32)
            retired.append((generation, try SecretBytes(consuming: &raw)))
        }
        return KeyChange(headers: headers, retired: retired)
    }
}
