import DiaryCrypto
import Foundation

/// Splitting a recovery key into shares for people one trusts, and rebuilding it from enough
/// of them (docs/FORMAT.md, Recovery shares).
public enum RecoveryShares {
    /// `count` shares of `key` of which any `threshold` rebuild it, under a new share-set id.
    public static func split(key: SecretBytes, vaultID: UUID, threshold: Int, count: Int) throws -> [RecoveryShare] {
        precondition(key.count == RecoveryShare.yByteCount, "a recovery key is 32 bytes")
        guard 2 <= threshold, threshold <= count, count <= RecoveryShare.maximumCount else {
            throw RecoveryShareError.invalidParameters(threshold: threshold, count: count)
        }
        let shareSetID = SecureRandom.bytes(count: RecoveryShare.shareSetIDByteCount)
        return try Shamir.split(secret: key, threshold: threshold, count: count).map {
            RecoveryShare(
                shareSetID: shareSetID, vaultID: vaultID, threshold: threshold, count: count, x: Int($0.x), y: $0.y)
        }
    }

    /// Checks one share alone against the vault it is meant for.
    public static func check(_ share: RecoveryShare, vaultID: UUID) throws {
        guard share.vaultID == vaultID else { throw RecoveryShareError.otherVault(share.vaultID) }
    }

    /// The key `shares` rebuild, after checking that they are of this vault, of one set,
    /// agree, are all different and are enough.
    ///
    /// What is rebuilt is not proof of anything: a forged share leads to some other key, so
    /// the caller compares its public half with the vault's before using it.
    public static func combine(_ shares: [RecoveryShare], vaultID: UUID) throws -> SecretBytes {
        for share in shares { try check(share, vaultID: vaultID) }
        guard let first = shares.first else { throw RecoveryShareError.tooFew(needed: 2, have: 0) }
        var seen = Set<Int>()
        for share in shares {
            guard share.shareSetID == first.shareSetID else { throw RecoveryShareError.otherShareSet }
            guard share.threshold == first.threshold, share.count == first.count else {
                throw RecoveryShareError.thresholdsDisagree
            }
            guard seen.insert(share.x).inserted else { throw RecoveryShareError.duplicateShare(x: share.x) }
        }
        guard shares.count >= first.threshold else {
            throw RecoveryShareError.tooFew(needed: first.threshold, have: shares.count)
        }
        return try Shamir.combine(shares.map { ShamirShare(x: UInt8($0.x), y: $0.y) })
    }
}
