import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

extension StatementCodec {
    /// The body of statement `seq` by `author`, refused unless it is in the one form `encode`
    /// writes and each retired record key hashes to the key id listed with it.
    static func decode(
        _ bytes: [UInt8], seq: UInt64, author: UUID, keyID: [UInt8], vaultID: UUID
    ) throws(RecordError) -> Statement {
        do {
            var r = ByteReader(bytes)
            guard try r.u8() == bodyVersion else { throw RecordError.undecodable("body version") }
            let previous = try r.take(RecordCodec.hashLength)
            guard let kind = StatementKind(rawValue: try r.u8()) else { throw RecordError.undecodable("kind") }
            guard (seq == 0) == (kind == .genesis) else {
                throw RecordError.undecodable("genesis is seq 0 and only it")
            }
            let generation = try r.u32()
            let superseded = try (0..<Int(try r.u8())).map { _ in try r.take(RecordCodec.hashLength) }
            guard superseded.isEmpty != (kind == .settle) else { throw RecordError.undecodable("superseded tips") }
            var statement = Statement(
                seq: seq, author: author, keyID: keyID, previous: previous, kind: kind, generation: generation,
                superseded: superseded, members: try readMembers(&r), headerHashes: try readHeaderHashes(&r))
            statement.cuts = try RecordCodec.readVector(&r, writer: nil)
            statement.retired = try readRetired(&r, vaultID: vaultID)
            try r.expectEnd()
            return statement
        } catch let error as RecordError {
            throw error
        } catch {
            throw .undecodable("\(error)")
        }
    }

    private static func readMembers(_ r: inout ByteReader) throws -> [Member] {
        let members = try (0..<Int(try r.u16())).map { _ in
            Member(machine: try r.uuid(), publicKey: try r.take(Ed25519.publicKeyByteCount), name: try r.string16())
        }
        guard !members.isEmpty else { throw RecordError.undecodable("no members") }
        for (a, b) in zip(members, members.dropFirst()) where !a.machine.precedes(b.machine) {
            throw RecordError.undecodable("members not sorted and unique")
        }
        return members
    }

    private static func readHeaderHashes(_ r: inout ByteReader) throws -> [StoreKind: [UInt8]] {
        var hashes: [StoreKind: [UInt8]] = [:]
        var last = ""
        for _ in 0..<Int(try r.u8()) {
            let name = try r.string16()
            // Sorted by name, so a store named twice cannot hide behind the first.
            guard let store = StoreKind(rawValue: name), name > last else {
                throw RecordError.undecodable("header stores")
            }
            last = name
            hashes[store] = try r.take(RecordCodec.hashLength)
        }
        return hashes
    }

    private static func readRetired(_ r: inout ByteReader, vaultID: UUID) throws -> [RetiredKey] {
        var retired: [RetiredKey] = []
        for _ in 0..<Int(try r.u8()) {
            let generation = try r.u32()
            let keyID = try r.take(SyncKey.idByteCount)
            var raw = try r.take(32)
            let recordKey = try SecretBytes(consuming: &raw)
            guard try SyncKey.id(recordKey: recordKey, vaultID: vaultID) == keyID,
                !retired.contains(where: { $0.keyID == keyID })
            else {
                throw RecordError.undecodable("retired key does not match its key id")
            }
            retired.append(RetiredKey(generation: generation, keyID: keyID, recordKey: recordKey))
        }
        return retired
    }
}
