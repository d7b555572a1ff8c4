internal import CSodium

/// Argon2id cost parameters, as stored in a vault header.
///
/// Every value read from disk is checked against `bounds` *before* any work is done, so a
/// crafted header cannot make `diary` allocate gigabytes or run for hours (compare age's
/// scrypt work-factor cap).
public struct KDFParameters: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Argon2id passes (libsodium's `opslimit`).
    public var opsLimit: UInt64
    /// Memory in bytes (libsodium's `memlimit`); Argon2id uses `memLimit / 1024` KiB.
    public var memLimit: UInt64

    public init(opsLimit: UInt64, memLimit: UInt64) {
        self.opsLimit = opsLimit
        self.memLimit = memLimit
    }

    /// libsodium's interactive preset: 2 passes, 64 MiB.
    public static var interactive: KDFParameters {
        _ = Sodium.ready
        return KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_interactive()),
            memLimit: UInt64(crypto_pwhash_memlimit_interactive()))
    }

    /// libsodium's moderate preset: 3 passes, 256 MiB. The default for new vaults.
    public static var moderate: KDFParameters {
        _ = Sodium.ready
        return KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_moderate()),
            memLimit: UInt64(crypto_pwhash_memlimit_moderate()))
    }

    /// libsodium's sensitive preset: 4 passes, 1 GiB.
    public static var sensitive: KDFParameters {
        _ = Sodium.ready
        return KDFParameters(
            opsLimit: UInt64(crypto_pwhash_opslimit_sensitive()),
            memLimit: UInt64(crypto_pwhash_memlimit_sensitive()))
    }

    /// Deliberately weak parameters (1 pass, 64 KiB) so tests can create many vaults quickly.
    ///
    /// Never used by default: the CLI offers it only through the explicit, documented
    /// `DIARY_INSECURE_TEST_KDF=1` switch, and `diary audit` flags any vault that uses it.
    public static let insecureForTesting = KDFParameters(opsLimit: 1, memLimit: 64 * 1024)

    /// The smallest and largest values accepted when deriving: libsodium's Argon2id minimum
    /// below, and the `sensitive` preset's cost above. Anything outside is refused unread.
    public static let opsLimitBounds: ClosedRange<UInt64> = 1...4
    public static let memLimitBounds: ClosedRange<UInt64> = 8192...(1 << 30)

    /// Throws `kdfParametersOutOfBounds` unless both values are within `…Bounds`.
    public func validate() throws {
        guard Self.opsLimitBounds.contains(opsLimit) else {
            throw CryptoError.kdfParametersOutOfBounds(
                "opslimit \(opsLimit) not in \(Self.opsLimitBounds.lowerBound)...\(Self.opsLimitBounds.upperBound)")
        }
        guard Self.memLimitBounds.contains(memLimit) else {
            throw CryptoError.kdfParametersOutOfBounds(
                "memlimit \(memLimit) not in \(Self.memLimitBounds.lowerBound)...\(Self.memLimitBounds.upperBound)")
        }
    }

    /// True when these parameters cost less than the `moderate` default.
    public var isBelowDefault: Bool {
        opsLimit < Self.moderate.opsLimit || memLimit < Self.moderate.memLimit
    }

    public var description: String {
        "argon2id(ops: \(opsLimit), mem: \(memLimit / 1024) KiB)"
    }
}
