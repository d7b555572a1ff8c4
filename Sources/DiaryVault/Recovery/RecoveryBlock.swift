import DiaryCrypto
import Foundation

/// What the sealed index root keeps of the recovery key (docs/FORMAT.md §7): the epoch and
/// the public key. The header's copy must equal it, so a header put back or edited by someone
/// with file access is noticed before anything is sealed to its key.
package struct RecoveryBinding: Equatable, Sendable {
    /// Grows with every change of the recovery key (create, replace, remove); 0: never had one.
    package var epoch: UInt32
    /// 32 bytes; all zero when there is no key (never had one, or removed).
    package var publicKey: [UInt8]

    package static let none = RecoveryBinding(epoch: 0, publicKey: RecoveryBlock.noKey)

    package var hasKey: Bool { publicKey != RecoveryBlock.noKey }
}

/// The recovery block of a version-2 header (docs/FORMAT.md §3): the epoch, the recovery
/// public key, a tag under the vault key, and one box per key generation holding that
/// generation's vault key sealed to the public key.
struct RecoveryBlock: Equatable {
    static let noKey = [UInt8](repeating: 0, count: SealedBox.publicKeyByteCount)
    static let tagLength = 32
    /// The inside of a box: vault id 16 ‖ generation u32 ‖ vault key 32.
    static let insideLength = 16 + 4 + 32
    static let boxLength = insideLength + SealedBox.overhead
    static let slotLength = 4 + boxLength
    static let fixedLength = 4 + SealedBox.publicKeyByteCount + tagLength
    static let authContext = try! SubkeyContext("diaryrec")
    static let tagDomain = Array("diary.recovery.tag.v1".utf8)

    /// One generation's vault key sealed to the recovery public key.
    struct Slot: Equatable {
        var generation: UInt32
        var box: [UInt8]
    }

    var epoch: UInt32
    var publicKey: [UInt8]
    var tag: [UInt8]
    /// Empty when the key was removed.
    var slots: [Slot]

    var binding: RecoveryBinding { RecoveryBinding(epoch: epoch, publicKey: publicKey) }
    var hasKey: Bool { publicKey != Self.noKey }

    /// The tag over vault id, epoch and public key under `RAK_g = KDF(VK_g, 1, "diaryrec")`.
    static func tag(vaultID: UUID, epoch: UInt32, publicKey: [UInt8], keys: GenerationKeys) throws -> [UInt8] {
        let rak = try keys.vaultKey.deriveSubkey(id: 1, context: authContext)
        var w = ByteWriter()
        w.append(tagDomain)
        w.uuid(vaultID)
        w.u32(epoch)
        w.append(publicKey)
        return try BLAKE2b.keyedHash(w.bytes, key: rak)
    }

    /// True when the tag was made with `keys` (compared in constant time).
    func tagVerifies(vaultID: UUID, keys: GenerationKeys) -> Bool {
        guard let expected = try? Self.tag(vaultID: vaultID, epoch: epoch, publicKey: publicKey, keys: keys) else {
            return false
        }
        return constantTimeEquals(expected, tag)
    }

    /// `keys`' vault key sealed to `publicKey`, with the vault id and generation inside.
    static func seal(_ keys: GenerationKeys, to publicKey: [UInt8], vaultID: UUID) throws -> Slot {
        let inside = try SecretBytes(count: insideLength) { out in
            var w = ByteWriter(capacity: 20)
            w.uuid(vaultID)
            w.u32(keys.generation)
            out.copyBytes(from: w.bytes)
            keys.vaultKey.withUnsafeBytes { key in
                UnsafeMutableRawBufferPointer(rebasing: out[20...]).copyMemory(from: key)
            }
        }
        return Slot(generation: keys.generation, box: try SealedBox.seal(inside, to: publicKey))
    }

    /// Opens one slot with the recovery key pair; the inside must name this vault and the
    /// slot's generation (else the box is damage, or was moved from another vault).
    func open(_ slot: Slot, with keyPair: BoxKeyPair, vaultID: UUID) throws -> GenerationKeys {
        let inside: SecretBytes
        do {
            inside = try SealedBox.open(slot.box, with: keyPair)
        } catch {
            throw VaultError.headerDamaged("a recovery slot does not open with the recovery key")
        }
        var w = ByteWriter(capacity: 20)
        w.uuid(vaultID)
        w.u32(slot.generation)
        let named = inside.withUnsafeBytes { Array($0[0..<20]) }
        guard constantTimeEquals(named, w.bytes) else {
            throw VaultError.headerDamaged("a recovery slot names another vault or generation")
        }
        return try GenerationKeys(generation: slot.generation, vaultKey: inside.slice(20..<Self.insideLength))
    }

    /// Makes the block fit `keys` (the header's generations, oldest first): a slot for each
    /// generation, those already there kept as they are, and the tag under the newest.
    ///
    /// Sealing to the public key, or tagging it anew, is what a swapped key would profit from,
    /// so the tag must first be found made by a key of this vault (`taggedUnder`, the
    /// generation the tag was made under before this change).
    mutating func fit(_ keys: [GenerationKeys], vaultID: UUID, taggedUnder: UInt32) throws {
        if hasKey {
            guard let tagKey = keys.first(where: { $0.generation == taggedUnder }),
                tagVerifies(vaultID: vaultID, keys: tagKey)
            else { throw VaultError.recoveryKeyMismatch }
            slots = try keys.map { key in
                try slots.first { $0.generation == key.generation } ?? Self.seal(key, to: publicKey, vaultID: vaultID)
            }
        } else {
            slots = []
        }
        tag = try Self.tag(vaultID: vaultID, epoch: epoch, publicKey: publicKey, keys: keys.last!)
    }
}

extension VaultHeader {
    /// What this header says of the recovery key: `.none` for a version-1 header.
    package var recoveryBinding: RecoveryBinding { recovery?.binding ?? .none }
}
