import DiaryCrypto
import DiarySync
import DiaryVault
import Foundation

/// Recovery shares: a new recovery key split for people one trusts, and a passphrase reset from
/// enough of their shares.
extension RecoveryKeys {
    /// Makes a new recovery key, splits it into `count` shares of which any `threshold` rebuild
    /// it, hands them to `deliver` (which writes or shows them), and only then sets the key: a
    /// delivery that fails or is interrupted changes nothing. A vault with a key refuses unless
    /// `replace` (checked before anything is made). The whole key is never handed out.
    public func createShares(
        threshold: Int, count: Int, replace: Bool, deliver: ([RecoveryShare]) throws -> Void
    ) throws -> RecoverySharesCreated {
        // Refused before the passphrase is asked for, and again once the vault is open.
        if !replace, case .active = try session.inspect().recovery { throw VaultError.recoveryKeyExists }
        let (vault, passphrase) = try session.openWithPassphrase()
        if case .active = vault.recoveryStatus, !replace { throw VaultError.recoveryKeyExists }
        try SyncLifecycle.checkHeaderInForce(vault: vault, stateDirectory: session.stateDirectory)
        let key = try RecoveryKey.generate()
        let shares = try RecoveryShares.split(key: key.bytes, vaultID: vault.id, threshold: threshold, count: count)
        try deliver(shares)
        let change: PassphraseChange
        do {
            change = try setDelivered(key, in: vault, replace: replace, passphrase: passphrase)
        } catch let error as RecoveryKeyNotSet {
            throw ShareRecoveryError.deliveredButNotSet(error.underlying)
        }
        return RecoverySharesCreated(
            vault: vault.directory, threshold: threshold, count: count, shareSetID: shares[0].shareSetHex,
            status: vault.recoveryStatus, syncNotTold: tellSync(change))
    }

    /// Sets a new passphrase with the recovery key rebuilt from the share files `files`: each
    /// share is checked alone first (named when it is of another vault or mistyped), then the
    /// set, then the rebuilt key against the vault's recovery public key, then `reset(with:)`.
    public func reset(
        withShareFiles files: [URL], newPassphrase: NewPassphraseSource, kdf: KDFParameters? = nil,
        acceptOlder: Bool = false
    ) throws -> PassphraseResetOutcome {
        let key = try rebuildKey(fromShareFiles: files)
        do {
            return try reset(with: key, newPassphrase: newPassphrase, kdf: kdf, acceptOlder: acceptOlder)
        } catch VaultError.wrongRecoveryKey {
            throw ShareRecoveryError.rebuiltKeyIsNotTheVaults
        }
    }

    /// The recovery key the share files rebuild, checked as `reset(withShareFiles:)` says but
    /// not yet against the vault's public key.
    func rebuildKey(fromShareFiles files: [URL]) throws -> RecoveryKey {
        let vaultID = try session.inspect().id
        var shares: [(file: URL, share: RecoveryShare)] = []
        for file in files {
            do {
                var raw = try Self.readShareFile(file)
                defer { secureZero(&raw) }
                let share = try RecoveryShareFile.read(raw)
                try RecoveryShares.check(share, vaultID: vaultID)
                shares.append((file, share))
            } catch let error as RecoveryShareError {
                throw ShareRecoveryError.file(file, error)
            }
        }
        try Self.checkSet(shares)
        do {
            return try RecoveryKey(bytes: try RecoveryShares.combine(shares.map(\.share), vaultID: vaultID))
        } catch let error as RecoveryShareError {
            // checkSet found what combine checks; this is only in case the two drift apart.
            throw ShareRecoveryError.set(error)
        }
    }

    /// One share set, one threshold, no share twice, enough of them: each problem named by
    /// the files it is in.
    private static func checkSet(_ shares: [(file: URL, share: RecoveryShare)]) throws {
        guard let first = shares.first else { throw ShareRecoveryError.set(.tooFew(needed: 2, have: 0)) }
        var seen: [Int: (file: URL, share: RecoveryShare)] = [:]
        for (file, share) in shares {
            guard share.shareSetID == first.share.shareSetID else {
                throw ShareRecoveryError.otherShareSet(file, first: first.file)
            }
            guard share.threshold == first.share.threshold else {
                throw ShareRecoveryError.thresholdsDisagree(file, first: first.file)
            }
            guard share.count == first.share.count else {
                throw ShareRecoveryError.countsDisagree(file, first: first.file)
            }
            if let earlier = seen[share.x] {
                guard earlier.share.holdsTheSameValue(as: share) || earlier.file == file else {
                    throw ShareRecoveryError.differentSharesNumberedAlike(file, earlier.file, x: share.x)
                }
                throw ShareRecoveryError.sameShare(file, as: earlier.file)
            }
            seen[share.x] = (file, share)
        }
        guard shares.count >= first.share.threshold else {
            throw ShareRecoveryError.set(.tooFew(needed: first.share.threshold, have: shares.count))
        }
    }

    /// The bytes of a share file, refused unread when far larger than any share file.
    private static func readShareFile(_ file: URL) throws -> [UInt8] {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ShareRecoveryError.unreadable(file, detail: String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: RecoveryShareFile.maximumByteCount + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 {
                secureZero(&bytes)
                throw ShareRecoveryError.unreadable(file, detail: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            count += n
        }
        let read = Array(bytes[..<count])
        secureZero(&bytes)
        return read
    }
}

/// What `RecoveryKeys.createShares` did: the vault's recovery key is the one the delivered
/// shares rebuild.
public struct RecoverySharesCreated {
    public let vault: URL
    public let threshold: Int
    public let count: Int
    /// The share set's id (16 hex digits), as the share files' comments name it.
    public let shareSetID: String
    public let status: RecoveryStatus
    /// Why sync could not be told, when it could not (the key stands).
    public let syncNotTold: Error?
}

/// Why shares could not make or rebuild a recovery key; each case names the files at fault.
public enum ShareRecoveryError: Error {
    /// A share file that cannot be used on its own: mistyped, of another vault, not a share…
    case file(URL, RecoveryShareError)
    /// A share file that cannot be read.
    case unreadable(URL, detail: String)
    /// `file` is of another share set than `first`.
    case otherShareSet(URL, first: URL)
    /// `file` and `first` disagree on how many shares are needed.
    case thresholdsDisagree(URL, first: URL)
    /// `file` and `first` disagree on how many shares were made.
    case countsDisagree(URL, first: URL)
    /// Two files hold different shares with the same number: one of them was altered.
    case differentSharesNumberedAlike(URL, URL, x: Int)
    /// `file` is the same share as `as` (the same x).
    case sameShare(URL, as: URL)
    /// A problem of the shares together, not of one file (too few).
    case set(RecoveryShareError)
    /// The shares rebuild a key whose public half is not the vault's: one was forged or
    /// damaged, or the key was replaced since the shares were made.
    case rebuiltKeyIsNotTheVaults
    /// The shares were delivered but the key could not be set: they rebuild nothing useful.
    case deliveredButNotSet(Error)
}
