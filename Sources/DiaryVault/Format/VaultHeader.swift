import DiaryCrypto
import DiaryStore
import Foundation

/// The vault header: everything needed to turn a passphrase into the vault key.
///
/// Layout (big-endian; see docs/FORMAT.md §3):
/// ```
/// magic "DIARYVLT" | version u16 | store u8 | kdf alg u8 | vault id 16 | opslimit u64 |
/// memlimit u64 | salt 16 | [version 2: recovery epoch u32 | recovery public key 32 | recovery tag 32] |
/// slot count u8 | slots (generation u32, nonce 24, sealed key 48)… |
/// [version 2 with a key: recovery slots (generation u32, box 100)…] |
/// checksum 32 = BLAKE2b-256(all preceding bytes)
/// ```
/// Version 2 is written only once a recovery key exists or existed (`RecoveryBlock`); a vault
/// that never had one keeps the bytes of version 1.
package struct VaultHeader: Equatable {
    static let magic: [UInt8] = Array("DIARYVLT".utf8)
    /// The newest version this code reads and writes.
    static let currentVersion: UInt16 = 2
    static let recoveryVersion: UInt16 = 2
    static let fixedLength = 61
    static let slotLength = 4 + XChaCha20Poly1305.nonceByteCount + 32 + XChaCha20Poly1305.tagByteCount
    package static let checksumLength = 32
    /// Argon2id v1.3 as libsodium's crypto_pwhash_ALG_ARGON2ID13.
    static let kdfArgon2id13: UInt8 = 1

    /// The vault key of one generation, sealed under the passphrase-derived key.
    struct KeySlot: Equatable {
        var generation: UInt32
        var nonce: [UInt8]
        var sealedKey: [UInt8]
    }

    var vaultID: UUID
    var store: StoreKind
    package var kdf: KDFParameters
    var salt: [UInt8]
    /// One slot normally; two (generations g and g+1) while a key rotation is unfinished.
    var slots: [KeySlot]
    /// The recovery block (version 2); nil in a header of version 1.
    var recovery: RecoveryBlock? = nil

    var version: UInt16 { recovery == nil ? 1 : Self.recoveryVersion }

    var currentGeneration: UInt32 { slots.map(\.generation).max() ?? 0 }

    /// The authenticated prefix: every field except the slots and the checksum. Each slot's
    /// associated data is this prefix plus its generation, so changing the KDF parameters,
    /// the salt, the store or the vault id makes every slot fail to open (no downgrade). In
    /// version 2 the recovery epoch, public key and tag are part of it too.
    var authenticatedPrefix: [UInt8] {
        var w = ByteWriter(capacity: Self.fixedLength + RecoveryBlock.fixedLength)
        w.append(Self.magic)
        w.u16(version)
        w.u8(store.headerCode)
        w.u8(Self.kdfArgon2id13)
        w.uuid(vaultID)
        w.u64(kdf.opsLimit)
        w.u64(kdf.memLimit)
        w.append(salt)
        if let recovery {
            w.u32(recovery.epoch)
            w.append(recovery.publicKey)
            w.append(recovery.tag)
        }
        return w.bytes
    }

    static func slotAssociatedData(prefix: [UInt8], generation: UInt32) -> [UInt8] {
        var w = ByteWriter()
        w.append(prefix)
        w.u32(generation)
        return w.bytes
    }

    package func encoded() -> [UInt8] {
        var w = ByteWriter()
        w.append(authenticatedPrefix)
        w.u8(UInt8(slots.count))
        for slot in slots {
            w.u32(slot.generation)
            w.append(slot.nonce)
            w.append(slot.sealedKey)
        }
        for slot in recovery?.slots ?? [] {
            w.u32(slot.generation)
            w.append(slot.box)
        }
        w.append(BLAKE2b.hash(w.bytes))
        return w.bytes
    }

    /// Parses a header strictly. Throws `HeaderParseError` saying whether the bytes are not a
    /// header at all, a newer version, or damaged.
    package static func decode(_ bytes: [UInt8]) throws(HeaderParseError) -> VaultHeader {
        guard bytes.count >= 10, Array(bytes[0..<8]) == magic else { throw .notAHeader }
        let version = Int(bytes[8]) << 8 | Int(bytes[9])
        let checksumOK =
            bytes.count > checksumLength
            && constantTimeEquals(
                BLAKE2b.hash(Array(bytes[..<(bytes.count - checksumLength)])),
                Array(bytes[(bytes.count - checksumLength)...]))
        guard version == 1 || version == Int(recoveryVersion) else {
            // A newer vault carries a valid checksum; a flipped version byte does not.
            throw checksumOK ? .unsupportedVersion(version) : .damaged("checksum mismatch")
        }
        guard checksumOK else { throw .damaged("checksum mismatch") }
        do {
            return try parseFields(Array(bytes[..<(bytes.count - checksumLength)]))
        } catch let error as HeaderParseError {
            throw error
        } catch {
            throw .damaged("\(error)")
        }
    }

    private static func parseFields(_ body: [UInt8]) throws -> VaultHeader {
        var r = ByteReader(body, offset: 10)
        guard let store = StoreKind(headerCode: try r.u8()) else { throw FormatError.invalidField("store kind") }
        guard try r.u8() == kdfArgon2id13 else { throw FormatError.invalidField("kdf algorithm") }
        let vaultID = try r.uuid()
        let kdf = KDFParameters(opsLimit: try r.u64(), memLimit: try r.u64())
        let salt = try r.take(PassphraseKDF.saltByteCount)
        let version = UInt16(body[8]) << 8 | UInt16(body[9])
        var recovery = version == recoveryVersion ? try parseRecoveryFields(&r) : nil
        let count = Int(try r.u8())
        guard count == 1 || count == 2 else { throw FormatError.invalidField("key slot count") }
        var slots: [KeySlot] = []
        for _ in 0..<count {
            slots.append(
                KeySlot(
                    generation: try r.u32(),
                    nonce: try r.take(XChaCha20Poly1305.nonceByteCount),
                    sealedKey: try r.take(32 + XChaCha20Poly1305.tagByteCount)))
        }
        if recovery?.hasKey == true {
            for slot in slots {
                guard try r.u32() == slot.generation else { throw FormatError.invalidField("recovery slot generation") }
                recovery?.slots.append(
                    RecoveryBlock.Slot(generation: slot.generation, box: try r.take(RecoveryBlock.boxLength)))
            }
        }
        try r.expectEnd()
        // Two slots: a rotation under way, to the next generation, or (following another
        // machine's key change after missing some) to a later one.
        if count == 2, slots[1].generation <= slots[0].generation {
            throw FormatError.invalidField("key slot generations")
        }
        return VaultHeader(vaultID: vaultID, store: store, kdf: kdf, salt: salt, slots: slots, recovery: recovery)
    }

    /// Epoch (at least 1: version 2 is written only once a key was set), public key, tag.
    private static func parseRecoveryFields(_ r: inout ByteReader) throws -> RecoveryBlock {
        let epoch = try r.u32()
        guard epoch >= 1 else { throw FormatError.invalidField("recovery epoch") }
        return RecoveryBlock(
            epoch: epoch, publicKey: try r.take(SealedBox.publicKeyByteCount), tag: try r.take(RecoveryBlock.tagLength),
            slots: [])
    }
}

/// Why a header could not be parsed.
package enum HeaderParseError: Error, Equatable {
    case notAHeader
    case unsupportedVersion(Int)
    case damaged(String)
}

extension StoreKind {
    var headerCode: UInt8 {
        switch self {
        case .sqlite: return 1
        case .files: return 2
        }
    }

    init?(headerCode: UInt8) {
        switch headerCode {
        case 1: self = .sqlite
        case 2: self = .files
        default: return nil
        }
    }
}
