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

/// A passphrase change or a key rotation one machine made: the vault header for each store
/// kind (each machine adopts the one for its own store), and, after a rotation, the vault keys
/// it retired, sealed under the new one so that records sealed before stay readable.
struct KeyChange {
    var headers: [StoreKind: [UInt8]]
    var retired: [(generation: UInt32, key: SecretBytes)]
}

/// The plaintext of one record of a machine's log (docs/FORMAT.md §12.2).
struct SyncRecord {
    var machine: UUID
    var seq: UInt64
    /// BLAKE2b-256 of the previous record's file, zeros for the first: the chain that makes a
    /// removed, reordered or replaced record visible.
    var previous: [UInt8]
    /// Above every lamport this machine had seen: orders key changes without a clock.
    var lamport: UInt64
    var machineName: String
    var revisions: [Revision] = []
    var keyChange: KeyChange?
    /// The id of the key that sealed the record (its clear prefix); set when it is opened.
    var keyID: [UInt8] = []
}

/// Why a record file could not be read.
enum RecordError: Error, Equatable {
    case notARecord
    case unsupportedVersion(Int)
    case otherVault(UUID)
    case wrongPlace
    case unknownKey
    /// A length no sealed record has.
    case badLength
    case doesNotAuthenticate
    /// It authenticates, but its plaintext does not decode (`detail` says where).
    case undecodable(String)
}

enum RecordCodec {
    static let magic: [UInt8] = Array("DSYNCREC".utf8)
    static let version: UInt8 = 1
    static let plaintextVersion: UInt8 = 1
    static let prefixLength = 8 + 1 + 16 + 16 + 8 + 16
    static let hashLength = 32
    /// Records are cut at about this much plaintext, so one sync of a large diary is a few
    /// files rather than one that a sync tool must move whole.
    static let batchBytes = 4 << 20
    /// What a reader accepts: the largest padding bucket of a batch with one entry at the
    /// text limit on top.
    static let maximumFileBytes = 64 << 20

    private enum Op: UInt8 {
        case put = 1
        case delete = 2
        case keys = 3
    }

    static func hash(_ file: [UInt8]) -> [UInt8] { BLAKE2b.hash(file, outputCount: hashLength) }

    static func prefix(vaultID: UUID, machine: UUID, seq: UInt64, keyID: [UInt8]) -> [UInt8] {
        var w = ByteWriter(capacity: prefixLength)
        w.append(magic)
        w.u8(version)
        w.uuid(vaultID)
        w.uuid(machine)
        w.u64(seq)
        w.append(keyID)
        return w.bytes
    }

    static func seal(_ record: SyncRecord, vaultID: UUID, key: SyncKey) throws -> [UInt8] {
        var plaintext = encode(record)
        defer { secureZero(&plaintext) }
        var padded = try LengthPadding.pad(plaintext)
        defer { secureZero(&padded) }
        let ad = prefix(vaultID: vaultID, machine: record.machine, seq: record.seq, keyID: key.id)
        let box = try XChaCha20Poly1305.seal(padded, key: key.recordKey, associatedData: ad)
        return ad + box.nonce + box.ciphertext
    }

    /// The clear prefix, read strictly, without any key.
    static func peek(_ file: [UInt8]) throws(RecordError) -> (vaultID: UUID, machine: UUID, seq: UInt64, keyID: [UInt8])
    {
        guard file.count >= prefixLength, Array(file[0..<8]) == magic else { throw .notARecord }
        guard file[8] == version else { throw .unsupportedVersion(Int(file[8])) }
        var r = ByteReader(Array(file[9..<prefixLength]))
        do {
            return (try r.uuid(), try r.uuid(), try r.u64(), try r.take(16))
        } catch {
            throw .notARecord
        }
    }

    /// True for the beginning of a record and not a whole one: a file starting like a record
    /// (or empty) whose length no record has. A file-sync tool that writes in place shows
    /// such a file while it copies.
    static func looksIncomplete(_ file: [UInt8]) -> Bool {
        guard file.count >= magic.count else { return Array(magic.prefix(file.count)) == file }
        guard Array(file[0..<magic.count]) == magic else { return false }
        let sealed = file.count - prefixLength - XChaCha20Poly1305.nonceByteCount - XChaCha20Poly1305.tagByteCount
        return sealed < LengthPadding.minimumBucket || !LengthPadding.isBucketSize(sealed)
    }

    /// Opens the record stored at `machine`/`seq` of the vault `vaultID`.
    static func open(
        _ file: [UInt8], vaultID: UUID, machine: UUID, seq: UInt64, keys: SyncKeyRing
    ) throws(RecordError) -> SyncRecord {
        let clear = try peek(file)
        guard clear.vaultID == vaultID else { throw .otherVault(clear.vaultID) }
        guard clear.machine == machine, clear.seq == seq else { throw .wrongPlace }
        guard let key = keys[clear.keyID] else { throw .unknownKey }
        let nonceEnd = prefixLength + XChaCha20Poly1305.nonceByteCount
        guard file.count >= nonceEnd + XChaCha20Poly1305.tagByteCount + LengthPadding.minimumBucket,
            file.count <= maximumFileBytes,
            LengthPadding.isBucketSize(file.count - nonceEnd - XChaCha20Poly1305.tagByteCount)
        else {
            throw .badLength
        }
        var padded: [UInt8]
        do {
            padded = try XChaCha20Poly1305.open(
                Array(file[nonceEnd...]), key: key.recordKey, nonce: Array(file[prefixLength..<nonceEnd]),
                associatedData: Array(file[0..<prefixLength]))
        } catch {
            throw .doesNotAuthenticate
        }
        defer { secureZero(&padded) }
        do {
            var plaintext = try LengthPadding.unpad(padded)
            defer { secureZero(&plaintext) }
            var record = try decode(plaintext, machine: machine, seq: seq)
            record.keyID = clear.keyID
            return record
        } catch {
            throw .undecodable("\(error)")
        }
    }

    static func encode(_ record: SyncRecord) -> [UInt8] {
        var w = ByteWriter()
        w.u8(plaintextVersion)
        w.append(record.previous)
        w.u64(record.lamport)
        w.string16(record.machineName)
        w.u32(UInt32(record.revisions.count + (record.keyChange == nil ? 0 : 1)))
        for revision in record.revisions {
            w.u8(revision.content == nil ? Op.delete.rawValue : Op.put.rawValue)
            w.uuid(revision.entry)
            w.uuid(revision.id)
            w.u16(UInt16(revision.parents.count))
            for parent in revision.parents { w.uuid(parent) }
            if let content = revision.content {
                var bytes = SyncedEntryCodec.encode(content)
                w.u32(UInt32(bytes.count))
                w.append(bytes)
                secureZero(&bytes)
            }
        }
        if let change = record.keyChange {
            w.u8(Op.keys.rawValue)
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
        return w.bytes
    }

    static func decode(_ bytes: [UInt8], machine: UUID, seq: UInt64) throws -> SyncRecord {
        var r = ByteReader(bytes)
        guard try r.u8() == plaintextVersion else { throw FormatError.unsupportedVersion(Int(bytes[0])) }
        var record = SyncRecord(
            machine: machine, seq: seq, previous: try r.take(hashLength), lamport: try r.u64(),
            machineName: try r.string16())
        let count = try r.u32()
        for _ in 0..<count {
            guard let op = Op(rawValue: try r.u8()) else { throw FormatError.invalidField("operation") }
            switch op {
            case .put, .delete:
                let entry = try r.uuid()
                let id = try r.uuid()
                let parents = try (0..<Int(try r.u16())).map { _ in try r.uuid() }
                var content: Entry?
                if op == .put {
                    let length = Int(try r.u32())
                    guard length <= Vault.maximumTextBytes + 70_000 else { throw FormatError.fieldTooLarge }
                    var raw = try r.take(length)
                    defer { secureZero(&raw) }
                    content = try SyncedEntryCodec.decode(raw, id: entry)
                }
                record.revisions.append(Revision(entry: entry, id: id, parents: parents, content: content))
            case .keys:
                guard record.keyChange == nil else { throw FormatError.invalidField("second key change") }
                var headers: [StoreKind: [UInt8]] = [:]
                for _ in 0..<Int(try r.u8()) {
                    guard let store = StoreKind(rawValue: try r.string16()) else {
                        throw FormatError.invalidField("store")
                    }
                    headers[store] = try r.take(Int(try r.u16()))
                }
                var retired: [(UInt32, SecretBytes)] = []
                for _ in 0..<Int(try r.u8()) {
                    let generation = try r.u32()
                    var raw = try r.take(32)
                    retired.append((generation, try SecretBytes(consuming: &raw)))
                }
                record.keyChange = KeyChange(headers: headers, retired: retired)
            }
        }
        try r.expectEnd()
        return record
    }
}
