import DiaryCrypto
import DiaryStore
import DiaryTestSupport
import Foundation

@testable import DiaryVault

/// Files to attach and ways to read and damage stored objects, for the integrity tests.
enum AttachmentFixtures {
    /// `count` bytes that differ with `seed`.
    static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) ^ seed }
    }

    /// An input that hands out `bytes` in the sizes the vault asks for.
    static func input(_ bytes: [UInt8], name: String, dedup: Bool = true) -> AttachmentInput {
        return AttachmentInput.reading(bytes, name: name, dedup: dedup)
    }

    /// The plaintext of `record`, read through the vault.
    static func read(_ vault: Vault, _ record: AttachmentRecord) throws -> [UInt8] {
        try vault.plaintext(of: record)
    }

    /// The stored bytes of object `id`.
    static func stored(_ vault: Vault, _ id: UUID) throws -> [UInt8] {
        var out: [UInt8] = []
        _ = try vault.backend.readAttachment(id) { out.append(contentsOf: $0) }
        return out
    }

    /// Replaces object `id` with its bytes where byte `offset` has one bit flipped.
    static func flipBit(_ vault: Vault, _ id: UUID, at offset: Int) throws {
        var bytes = try stored(vault, id)
        bytes[offset] ^= 0x04
        try vault.backend.withWriteLock {
            try vault.backend.apply(StoreChange(deleteAttachments: [id]))
            try vault.backend.putAttachment(id) { try $0(bytes) }
        }
    }

    /// Stores an object no entry references, sealed as the vault seals one.
    static func orphan(in vault: Vault) throws -> UUID {
        let id = UUID()
        let sealer = try AttachmentSealer(
            vaultID: vault.id, objectID: id, key: try SecretStream.keygen(), dedupKey: nil)
        try vault.backend.putAttachment(id) { chunk in
            try sealer.push(bytes(1000, seed: 1), emit: chunk)
            _ = try sealer.finish(emit: chunk)
        }
        return id
    }
}
