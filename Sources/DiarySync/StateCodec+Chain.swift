import DiaryStore
import DiaryVault
import Foundation

/// The accepted chain inside `state`: each statement as much as later checks need.
extension StateCodec {
    static func encode(_ chain: ChainState, into w: inout ByteWriter) {
        w.u32(UInt32(chain.statements.count))
        for s in chain.statements {
            w.u64(s.seq)
            w.append(s.hash)
            w.uuid(s.author)
            w.u8(s.kind.rawValue)
            w.append(s.keyID)
            w.u32(s.generation)
            w.append(s.previous)
            w.u8(s.superseded ? 1 : 0)
            w.u16(UInt16(s.members.count))
            for m in s.members {
                w.uuid(m.machine)
                w.append(m.publicKey)
                w.string16(m.name)
            }
            w.u8(UInt8(s.headerHashes.count))
            for (store, hash) in s.headerHashes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                w.string16(store.rawValue)
                w.append(hash)
            }
            w.u16(UInt16(s.cuts.count))
            for c in s.cuts {
                w.uuid(c.machine)
                w.u64(c.seq)
                w.append(c.hash)
            }
        }
    }

    static func decodeChain(_ r: inout ByteReader) throws -> ChainState {
        var chain = ChainState()
        for _ in 0..<Int(try r.u32()) {
            let seq = try r.u64()
            let hash = try r.take(32)
            let author = try r.uuid()
            guard let kind = StatementKind(rawValue: try r.u8()) else { throw FormatError.invalidField("kind") }
            let keyID = try r.take(32)
            let generation = try r.u32()
            let previous = try r.take(32)
            let superseded = try r.u8() == 1
            let members = try (0..<Int(try r.u16())).map { _ in
                Member(machine: try r.uuid(), publicKey: try r.take(32), name: try r.string16())
            }
            var headers: [StoreKind: [UInt8]] = [:]
            for _ in 0..<Int(try r.u8()) {
                guard let store = StoreKind(rawValue: try r.string16()) else { throw FormatError.invalidField("store") }
                headers[store] = try r.take(32)
            }
            let cuts = try (0..<Int(try r.u16())).map { _ in
                LogMark(machine: try r.uuid(), seq: try r.u64(), hash: try r.take(32))
            }
            var s = AcceptedStatement(
                Statement(
                    seq: seq, author: author, keyID: keyID, previous: previous, kind: kind, generation: generation,
                    members: members, headerHashes: headers, cuts: cuts),
                hash: hash)
            s.cuts = cuts
            s.superseded = superseded
            chain.statements.append(s)
        }
        return chain
    }
}
