import DiaryCrypto
import DiaryStore
import Foundation

extension Vault {
    /// Takes the recovery block of `published`, the header another machine published with a
    /// newer recovery epoch than this vault's (the key replaced or removed there while this
    /// machine changed its vault key or passphrase before taking that in), so that the change
    /// made here is published sealed to the key in force, never to the replaced one.
    ///
    /// Its tag is checked first with the key it wraps: this vault's key of that generation,
    /// or, after a rotation here, the key `passphrase` opens it with; a block that does not
    /// verify is `recoveryKeyMismatch`. Then every key this vault holds is sealed to its public
    /// key under its epoch, tagged with this vault's newest key, the passphrase slot sealed
    /// again, and header and index root written together. Returns the headers to publish.
    package func takeRecoveryBlock(of published: [UInt8], passphrase: SecretBytes) throws -> PassphraseChange {
        let theirs = try Self.decodeForeignHeader(published)
        guard theirs.vaultID == header.vaultID, let block = theirs.recovery else {
            throw VaultError.recoveryKeyMismatch
        }
        if block.hasKey {
            let keys = try keyRing[theirs.currentGeneration] ?? Self.unwrap(theirs, passphrase: passphrase).current
            guard block.tagVerifies(vaultID: header.vaultID, keys: keys) else { throw VaultError.recoveryKeyMismatch }
        }
        return try changeRecovery(passphrase: passphrase) { current, ring in
            let known = current?.epoch ?? 0
            guard block.epoch > known else {
                throw VaultError.recoveryEpochRolledBack(found: block.epoch, known: known)
            }
            guard block.hasKey else {
                return RecoveryBlock(epoch: block.epoch, publicKey: RecoveryBlock.noKey, tag: [], slots: [])
            }
            let slots = try ring.all.map {
                try RecoveryBlock.seal($0, to: block.publicKey, vaultID: self.header.vaultID)
            }
            let tag = try RecoveryBlock.tag(
                vaultID: header.vaultID, epoch: block.epoch, publicKey: block.publicKey, keys: ring.current)
            return RecoveryBlock(epoch: block.epoch, publicKey: block.publicKey, tag: tag, slots: slots)
        }
    }
}
