/// One share of a secret split with `Shamir`: the point (x, P(x)) of each byte's polynomial.
public struct ShamirShare: Sendable {
    /// The x coordinate, 1…255 (0 would be the secret itself).
    public let x: UInt8
    /// P(x) for each byte of the secret, as long as the secret.
    public let y: SecretBytes

    public init(x: UInt8, y: SecretBytes) {
        self.x = x
        self.y = y
    }
}

/// Why shares cannot be made or combined.
public enum ShamirError: Error, Equatable, Sendable {
    /// Not 2 ≤ threshold ≤ count ≤ 255.
    case invalidParameters(threshold: Int, count: Int)
    /// An empty secret.
    case emptySecret
    /// No share to combine.
    case noShares
    /// A share at x = 0, which no split makes.
    case zeroX
    /// Two shares with the same x: the same share twice (or one of them forged).
    case duplicateX(UInt8)
    /// Shares of different lengths: they cannot be of one secret.
    case lengthMismatch
}

/// Shamir's secret sharing over GF(2^8), byte by byte, as Debian's libgfshare does it: the field
/// GF(2)[x]/(x^8 + x^4 + x^3 + x^2 + 1) (0x11D), a share at x = 1…255 holds P(x) and the
/// secret is P(0) (docs/FORMAT.md, Shares).
///
/// Any `threshold` shares rebuild the secret by Lagrange interpolation at 0; fewer say nothing
/// about it, because every value of P(0) fits them equally well. The coefficients are fresh
/// from libsodium for each split and live in guarded memory. The arithmetic is constant time:
/// a bitwise multiply and an inverse by exponentiation, with no branch and no table indexed by
/// a secret (libgfshare's log tables are, which leaks through the cache).
public enum Shamir {
    /// Splits `secret` into `count` shares at x = 1…count, any `threshold` of which rebuild it.
    public static func split(secret: SecretBytes, threshold: Int, count: Int) throws -> [ShamirShare] {
        guard 2 <= threshold, threshold <= count, count <= 255 else {
            throw ShamirError.invalidParameters(threshold: threshold, count: count)
        }
        guard secret.count > 0 else { throw ShamirError.emptySecret }
        let coefficients = try SecretBytes(randomCount: (threshold - 1) * secret.count)
        return try split(secret: secret, coefficients: coefficients, xs: (1...count).map { UInt8($0) })
    }

    /// The shares at `xs` of the polynomials whose other coefficients are `coefficients`: rows
    /// of `secret.count` bytes, the highest degree first, as libgfshare lays them out (so a test
    /// can give both the same coefficients).
    static func split(secret: SecretBytes, coefficients: SecretBytes, xs: [UInt8]) throws -> [ShamirShare] {
        let length = secret.count
        precondition(length > 0 && coefficients.count % length == 0, "whole rows of coefficients")
        let rows = coefficients.count / length
        return try xs.map { x in
            let y = try SecretBytes(count: length) { out in
                secret.withUnsafeBytes { secret in
                    coefficients.withUnsafeBytes { coefficients in
                        // Horner: ((c_{K-1}·x + c_{K-2})·x + …)·x + secret.
                        for position in 0..<length {
                            var value: UInt8 = 0
                            for row in 0..<rows {
                                value = GF256.multiply(value, x) ^ coefficients[row * length + position]
                            }
                            out[position] = GF256.multiply(value, x) ^ secret[position]
                        }
                    }
                }
            }
            return ShamirShare(x: x, y: y)
        }
    }

    /// The secret at P(0) of the polynomial through `shares`.
    ///
    /// Given fewer shares than the threshold the result is some other value, not an error: the
    /// shares do not say how many are needed. Callers check what they rebuild (diary compares
    /// the key's public half with the vault's).
    public static func combine(_ shares: [ShamirShare]) throws -> SecretBytes {
        guard let length = shares.first?.y.count else { throw ShamirError.noShares }
        guard shares.allSatisfy({ $0.y.count == length }) else { throw ShamirError.lengthMismatch }
        var seen = Set<UInt8>()
        for share in shares {
            guard share.x != 0 else { throw ShamirError.zeroX }
            guard seen.insert(share.x).inserted else { throw ShamirError.duplicateX(share.x) }
        }
        let weights = shares.indices.map { lagrangeWeightAtZero(of: $0, in: shares.map(\.x)) }
        return try SecretBytes(count: length) { out in
            for (share, weight) in zip(shares, weights) {
                share.y.withUnsafeBytes { y in
                    for position in 0..<length { out[position] ^= GF256.multiply(y[position], weight) }
                }
            }
        }
    }

    /// L_i(0) = Π_{j≠i} x_j / (x_j − x_i) (subtraction is XOR).
    static func lagrangeWeightAtZero(of index: Int, in xs: [UInt8]) -> UInt8 {
        var numerator: UInt8 = 1
        var denominator: UInt8 = 1
        for (other, x) in xs.enumerated() where other != index {
            numerator = GF256.multiply(numerator, x)
            denominator = GF256.multiply(denominator, x ^ xs[index])
        }
        return GF256.multiply(numerator, GF256.inverse(denominator))
    }
}

/// GF(2^8) with libgfshare's polynomial x^8 + x^4 + x^3 + x^2 + 1; constant time.
enum GF256 {
    /// a·b, shift and add: the same eight steps whatever the operands.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product: UInt8 = 0
        var a = a
        var b = b
        for _ in 0..<8 {
            product ^= a & (0 &- (b & 1))
            // Reduce by 0x1D (x^8 = x^4 + x^3 + x^2 + 1) when the top bit is shifted out.
            a = (a << 1) ^ (0x1D & (0 &- (a >> 7)))
            b >>= 1
        }
        return product
    }

    /// a^(−1) = a^254 (the multiplicative group has order 255); 0 for 0. Square and multiply
    /// over the public exponent, so the steps do not depend on a.
    static func inverse(_ a: UInt8) -> UInt8 {
        var result: UInt8 = 1
        var square = a
        var exponent = 254
        while exponent > 0 {
            // The exponent is public: branching on its bits leaks nothing about a.
            if exponent & 1 == 1 { result = multiply(result, square) }
            square = multiply(square, square)
            exponent >>= 1
        }
        return result
    }
}
