import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// The files of the membership chain, `chain/<seq>-<machine>` (docs/FORMAT.md §12,
/// Statements): a clear prefix, the body sealed under the record key of the epoch the
/// statement makes current, and the author's signature.
///
/// Reading is strict (one encoding per statement). Whether a statement may follow its
/// predecessor is the chain reader's question, not the codec's.
enum StatementCodec {
    static let magic: [UInt8] = Array("DSYNCSTM".utf8)
    static let version: UInt8 = 2
    static let bodyVersion: UInt8 = 1
    static let prefixLength = SignedSealedFile.prefixLength
    static let signatureDomain: [UInt8] = Array("diary.sync.statement.v2\0".utf8)
    /// Far above any real chain link (a few hundred bytes per member).
    static let maximumFileBytes = 1 << 20

    static func hash(_ file: [UInt8]) -> [UInt8] { RecordCodec.hash(file) }

    static func prefix(vaultID: UUID, seq: UInt64, author: UUID, keyID: [UInt8]) -> [UInt8] {
        precondition(keyID.count == SyncKey.idByteCount, "a key id is 32 bytes")
        var w = ByteWriter(capacity: prefixLength)
        w.append(magic)
        w.u8(version)
        w.uuid(vaultID)
        w.u64(seq)
        w.uuid(author)
        w.append(keyID)
        return w.bytes
    }

    /// `statement` sealed under `key` (the key its key id names) and signed by its author.
    static func seal(_ statement: Statement, vaultID: UUID, key: SyncKey, signingKey: SecretBytes) throws -> [UInt8] {
        precondition(statement.keyID == key.id, "a statement is sealed under the key it names")
        var body = encode(statement)
        defer { secureZero(&body) }
        return try SignedSealedFile.seal(
            prefix: prefix(vaultID: vaultID, seq: statement.seq, author: statement.author, keyID: key.id),
            plaintext: body, key: key, signingKey: signingKey, domain: signatureDomain)
    }

    /// The clear prefix, read strictly, without any key.
    static func peek(_ file: [UInt8]) throws(RecordError) -> (vaultID: UUID, seq: UInt64, author: UUID, keyID: [UInt8])
    {
        var r = try SignedSealedFile.prefixFields(file, magic: magic, version: version)
        do {
            return (try r.uuid(), try r.u64(), try r.uuid(), try r.take(SyncKey.idByteCount))
        } catch {
            throw .notARecord
        }
    }

    /// True when the signature verifies under `publicKey` (the author's, from the statement
    /// this one follows).
    static func signatureIsValid(_ file: [UInt8], publicKey: [UInt8]) -> Bool {
        SignedSealedFile.signatureIsValid(file, publicKey: publicKey, domain: signatureDomain)
    }

    static func looksIncomplete(_ file: [UInt8]) -> Bool {
        SignedSealedFile.looksIncomplete(file, magic: magic)
    }

    /// Opens a statement of the vault `vaultID` sealed under `key`. Does not check the
    /// signature (the caller does, with the author's key from the predecessor).
    static func open(_ file: [UInt8], vaultID: UUID, key: SyncKey) throws(RecordError) -> Statement {
        let clear = try peek(file)
        guard clear.vaultID == vaultID else { throw .otherVault(clear.vaultID) }
        guard SignedSealedFile.hasValidLength(file.count, maximum: maximumFileBytes) else { throw .badLength }
        guard clear.keyID == key.id else { throw .unknownKey }
        var body = try SignedSealedFile.open(file, key: key)
        defer { secureZero(&body) }
        return try decode(body, seq: clear.seq, author: clear.author, keyID: clear.keyID, vaultID: vaultID)
    }

    static func encode(_ statement: Statement) -> [UInt8] {
        var w = ByteWriter()
        w.u8(bodyVersion)
        w.append(statement.previous)
        w.u8(statement.kind.rawValue)
        w.u32(statement.generation)
        w.u8(UInt8(statement.superseded.count))
        for tip in statement.superseded { w.append(tip) }
        let members = statement.members.sorted { $0.machine.precedes($1.machine) }
        w.u16(UInt16(members.count))
        for member in members {
            precondition(member.publicKey.count == Ed25519.publicKeyByteCount, "a public key is 32 bytes")
            w.uuid(member.machine)
            w.append(member.publicKey)
            w.string16(member.name)
        }
        let headers = statement.headerHashes.sorted { $0.key.rawValue < $1.key.rawValue }
        w.u8(UInt8(headers.count))
        for (store, hash) in headers {
            w.string16(store.rawValue)
            w.append(hash)
        }
        let cuts = statement.cuts.sorted { $0.machine.precedes($1.machine) }
        w.u16(UInt16(cuts.count))
        for cut in cuts { RecordCodec.writeMark(cut, to: &w) }
        w.u8(UInt8(statement.retired.count))
        for retired in statement.retired {
            w.u32(retired.generation)
            w.append(retired.keyID)
            retired.recordKey.withUnsafeBytes { raw in
                var copy = Array(raw)
                w.append(copy)
                secureZero(&copy)
            }
        }
        return w.bytes
    }
}
