import DiaryCrypto
import Foundation

/// An entry as it is stored: its encoding (`EntryCodec`) sealed in an envelope bound to the
/// vault and the entry's id. One place for both directions, so the vault, the index rebuild
/// and verify open entries the same way.
enum SealedEntry {
    static func open(_ sealed: [UInt8], id: UUID, vaultID: UUID, keyRing: KeyRing) throws -> Entry {
        try EntryCodec.decode(
            Envelope.open(sealed, kind: .entry, objectID: id, vaultID: vaultID, keyRing: keyRing),
            id: id, textLimit: Vault.maximumTextBytes)
    }

    static func seal(_ entry: Entry, vaultID: UUID, keys: GenerationKeys) throws -> [UInt8] {
        try Envelope.seal(EntryCodec.encode(entry), kind: .entry, objectID: entry.id, vaultID: vaultID, keys: keys)
    }
}
