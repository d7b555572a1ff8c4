import DiaryCrypto
import DiaryStore
import DiaryVault
import Foundation

/// One version of one entry: its text and fields, or a deletion (`content == nil`).
///
/// `parents` are the revisions it replaces. A revision no other revision names as a parent is
/// a head; an entry with more than one head was changed on two machines that had not seen each
/// other's change: a conflict, kept until someone resolves it (docs/FORMAT.md §12.5).
struct Revision: Equatable {
    var entry: UUID
    var id: UUID
    var parents: [UUID]
    var content: Entry?
}

/// The plaintext of one record of a machine's log (docs/FORMAT.md §12, Records).
struct SyncRecord {
    var machine: UUID
    var seq: UInt64
    /// BLAKE2b-256 of the previous record's file, zeros for the first: the chain that makes a
    /// removed, reordered or replaced record visible.
    var previous: [UInt8]
    /// Above every lamport this machine had seen (1…2^62), strictly increasing in a log.
    var lamport: UInt64
    var machineName: String
    /// The writer's clock, Unix seconds: shown by `sync status`, trusted for nothing.
    var written: UInt64 = 0
    /// The chain statement the writer followed (its seq and the hash of its file).
    var epochSeq: UInt64 = 0
    var epochHash: [UInt8] = [UInt8](repeating: 0, count: RecordCodec.hashLength)
    /// What the writer had read of every other log, sorted by machine id.
    var vector: [LogMark] = []
    var revisions: [Revision] = []
    /// Set only on record 1 of a machine asking to join, as its only operation.
    var join: JoinRequest?
    /// The id of the key that sealed the record (its clear prefix); set when it is opened.
    var keyID: [UInt8] = []
}

/// Why a record or statement file could not be read.
enum RecordError: Error, Equatable {
    case notARecord
    case unsupportedVersion(Int)
    case otherVault(UUID)
    case wrongPlace
    case unknownKey
    /// A length no sealed record has.
    case badLength
    case doesNotAuthenticate
    /// The signature does not verify under the key of the machine that should have written it.
    case badSignature
    /// A lamport of 0 or above 2^62.
    case lamportOutOfRange
    /// It authenticates, but its plaintext does not decode (`detail` says where).
    case undecodable(String)
}

enum RecordCodec {
    static let magic: [UInt8] = Array("DSYNCREC".utf8)
    static let version: UInt8 = 2
    static let plaintextVersion: UInt8 = 2
    static let prefixLength = SignedSealedFile.prefixLength
    static let hashLength = 32
    static let signatureDomain: [UInt8] = Array("diary.sync.record.v2\0".utf8)
    /// Records are cut at about this much plaintext, so one sync of a large diary is a few
    /// files rather than one that a sync tool must move whole.
    static let batchBytes = 4 << 20
    /// What a reader accepts: the largest padding bucket of a batch with one entry at the
    /// text limit on top.
    static let maximumFileBytes = 64 << 20
    static let lamportRange: ClosedRange<UInt64> = 1...(1 << 62)

    static func hash(_ file: [UInt8]) -> [UInt8] { BLAKE2b.hash(file, outputCount: hashLength) }

    static func prefix(vaultID: UUID, machine: UUID, seq: UInt64, keyID: [UInt8]) -> [UInt8] {
        precondition(keyID.count == SyncKey.idByteCount, "a key id is 32 bytes")
        var w = ByteWriter(capacity: prefixLength)
        w.append(magic)
        w.u8(version)
        w.uuid(vaultID)
        w.uuid(machine)
        w.u64(seq)
        w.append(keyID)
        return w.bytes
    }

    /// The record sealed under `key` and signed with the writer's secret signing key
    /// (the signature is the last 64 bytes).
    static func seal(_ record: SyncRecord, vaultID: UUID, key: SyncKey, signingKey: SecretBytes) throws -> [UInt8] {
        var plaintext = encode(record)
        defer { secureZero(&plaintext) }
        return try SignedSealedFile.seal(
            prefix: prefix(vaultID: vaultID, machine: record.machine, seq: record.seq, keyID: key.id),
            plaintext: plaintext, key: key, signingKey: signingKey, domain: signatureDomain)
    }

    /// The clear prefix, read strictly, without any key.
    static func peek(_ file: [UInt8]) throws(RecordError) -> (vaultID: UUID, machine: UUID, seq: UInt64, keyID: [UInt8])
    {
        var r = try SignedSealedFile.prefixFields(file, magic: magic, version: version)
        do {
            return (try r.uuid(), try r.uuid(), try r.u64(), try r.take(SyncKey.idByteCount))
        } catch {
            throw .notARecord
        }
    }

    /// True when the signature verifies under `publicKey` (the writer's, from the chain).
    static func signatureIsValid(_ file: [UInt8], publicKey: [UInt8]) -> Bool {
        SignedSealedFile.signatureIsValid(file, publicKey: publicKey, domain: signatureDomain)
    }

    /// True for the beginning of a record and not a whole one: a file starting like a record
    /// (or empty) whose length no record has. A file-sync tool that writes in place shows
    /// such a file while it copies.
    static func looksIncomplete(_ file: [UInt8]) -> Bool {
        SignedSealedFile.looksIncomplete(file, magic: magic)
    }

    /// Opens the record stored at `machine`/`seq` of the vault `vaultID`. Does not check the
    /// signature: the caller does, with the key the chain gives the log's machine.
    static func open(
        _ file: [UInt8], vaultID: UUID, machine: UUID, seq: UInt64, keys: SyncKeyRing
    ) throws(RecordError) -> SyncRecord {
        let clear = try peek(file)
        guard clear.vaultID == vaultID else { throw .otherVault(clear.vaultID) }
        guard clear.machine == machine, clear.seq == seq else { throw .wrongPlace }
        guard SignedSealedFile.hasValidLength(file.count, maximum: maximumFileBytes) else { throw .badLength }
        guard let key = keys[clear.keyID] else { throw .unknownKey }
        var plaintext = try SignedSealedFile.open(file, key: key)
        defer { secureZero(&plaintext) }
        var record = try decode(plaintext, machine: machine, seq: seq)
        record.keyID = clear.keyID
        return record
    }
}
