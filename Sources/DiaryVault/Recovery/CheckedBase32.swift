import DiaryCrypto

/// Bytes as text a person can copy by hand: Crockford base32 with two check characters that
/// catch every single wrong character and every swap of two neighbours (docs/FORMAT.md,
/// Checked base32).
///
/// The characters' values v_0 … v_{n−1} (the data characters, then the two checks) are
/// elements of GF(32) = GF(2)[x]/(x^5 + x^2 + 1), and the checks are chosen so that
/// `Σ v_i = 0` and `Σ α^i·v_i = 0` with α = x. One wrong character changes the first sum by
/// the (non-zero) error; swapping different neighbours a, b at i, i+1 leaves the first sum and
/// changes the second by α^i·(a + b)·(1 + α), which is never zero. Both are guaranteed, where
/// a truncated hash would miss one change in 1,024.
///
/// The text is usually a key, so neither the digits' values nor the check arithmetic take a
/// branch or index a table by a character's value (only a character that is no digit at all
/// ends the work early).
public enum CheckedBase32 {
    /// Why a text is not the checked base32 of the bytes expected.
    public enum Error: Swift.Error, Equatable, Sendable {
        /// `character`, the `position`th character of the text counted from 1 among its
        /// digits (separators skipped, as a person counts a key's characters), is not a
        /// base32 digit.
        case badCharacter(position: Int, character: Unicode.Scalar)
        /// Not the number of characters (separators not counted) that encode the bytes.
        case wrongLength(expected: Int, got: Int)
        /// The check characters do not match: a character is mistyped.
        case checksumMismatch
        /// The last data character's spare bits are not zero (the checks match: not a typo,
        /// a text no encoder writes).
        case nonZeroPadding
    }

    /// The digits, value order: Crockford's, without I, L, O and U.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    /// True for what decoding skips: spaces, tabs, dashes and line breaks. Compared with each
    /// in turn rather than looked up, like the digits.
    package static func isSeparator(_ character: Unicode.Scalar) -> Bool {
        let byte = character.isASCII ? UInt8(character.value) : 0xFF
        let found =
            isEqual(byte, UInt8(ascii: " ")) | isEqual(byte, UInt8(ascii: "\t")) | isEqual(byte, UInt8(ascii: "-"))
            | isEqual(byte, UInt8(ascii: "\n")) | isEqual(byte, UInt8(ascii: "\r"))
        return found == 1
    }
    /// The number of check characters after the data.
    public static let checkCount = 2

    /// The number of characters (without separators) that encode `byteCount` bytes.
    public static func characterCount(byteCount: Int) -> Int {
        (byteCount * 8 + 4) / 5 + checkCount
    }

    /// `bytes` as upper-case digits in groups of `groupSize` joined by `-` (no separators
    /// when `groupSize` is 0).
    public static func encode(_ bytes: [UInt8], groupSize: Int = 6) -> String {
        precondition(groupSize >= 0, "a group size is not negative")
        var values = dataValues(bytes)
        defer { secureZero(&values) }
        values += checks(values)
        var digits = values.map(digit(of:))
        defer { secureZero(&digits) }
        guard groupSize > 0 else { return String(decoding: digits, as: UTF8.self) }
        var grouped: [UInt8] = []
        defer { secureZero(&grouped) }
        grouped.reserveCapacity(digits.count + digits.count / groupSize)
        for (index, digit) in digits.enumerated() {
            if index > 0 && index % groupSize == 0 { grouped.append(UInt8(ascii: "-")) }
            grouped.append(digit)
        }
        return String(decoding: grouped, as: UTF8.self)
    }

    /// The `expectedByteCount` bytes `text` encodes. Spaces, tabs, dashes and line breaks are
    /// ignored, lower case is read as upper case, and I and L are read as 1 and O as 0.
    public static func decode(_ text: String, expectedByteCount: Int) throws(Error) -> [UInt8] {
        var values = try significantValues(text)
        defer { secureZero(&values) }
        let expected = characterCount(byteCount: expectedByteCount)
        guard values.count == expected else { throw .wrongLength(expected: expected, got: values.count) }
        guard syndromes(values) == (0, 0) else { throw .checksumMismatch }
        let data = Array(values[0..<(expected - checkCount)])
        var bytes = [UInt8](repeating: 0, count: expectedByteCount)
        var accumulator = 0
        var bits = 0
        var next = 0
        for value in data {
            accumulator = (accumulator << 5 | Int(value)) & 0xFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes[next] = UInt8(truncatingIfNeeded: accumulator >> bits)
                next += 1
            }
        }
        let spare = accumulator & ((1 << bits) - 1)
        accumulator = 0
        guard spare == 0 else {
            secureZero(&bytes)
            throw .nonZeroPadding
        }
        return bytes
    }

    /// The bytes `text` encodes, however many: for telling what a text of an unexpected
    /// length is (its checks hold whatever the length).
    static func decodeAnyLength(_ text: String) throws(Error) -> [UInt8] {
        var values = try significantValues(text)
        let byteCount = max(values.count - checkCount, 0) * 5 / 8
        secureZero(&values)
        return try decode(text, expectedByteCount: byteCount)
    }

    /// The values of the digits in `text`, separators skipped.
    private static func significantValues(_ text: String) throws(Error) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            if isSeparator(character) { continue }
            guard let value = value(of: character) else {
                let position = values.count + 1
                secureZero(&values)
                throw .badCharacter(position: position, character: character)
            }
            values.append(value)
        }
        return values
    }

    /// A digit's value, with Crockford's readings of I, L and O and of lower case; nil for
    /// anything else. Every entry of the alphabet is compared, whatever the character.
    package static func value(of character: Unicode.Scalar) -> UInt8? {
        guard character.isASCII else { return nil }
        let byte = UInt8(character.value)
        // Lower case to upper case without a branch: clear bit 5 only for a…z.
        let upper = byte ^ (0x20 & mask(isAtLeast(byte, UInt8(ascii: "a")) & ~isAtLeast(byte, UInt8(ascii: "z") + 1)))
        var value: UInt8 = 0
        var found: UInt8 = 0
        for (index, digit) in alphabet.enumerated() {
            let same = isEqual(upper, digit)
            value |= UInt8(index) & mask(same)
            found |= same
        }
        let one = isEqual(upper, UInt8(ascii: "I")) | isEqual(upper, UInt8(ascii: "L"))
        value |= 1 & mask(one)
        found |= one | isEqual(upper, UInt8(ascii: "O"))
        return found == 1 ? value : nil
    }

    /// The digit of a value 0…31: '0' + v, moved past the gaps (':'…'@', I, L, O, U) it lies
    /// beyond.
    package static func digit(of value: UInt8) -> UInt8 {
        let beyond =
            7 &* isAtLeast(value, 10) &+ isAtLeast(value, 18) &+ isAtLeast(value, 20)
            &+ isAtLeast(value, 22) &+ isAtLeast(value, 27)
        return UInt8(ascii: "0") &+ value &+ beyond
    }

    /// 1 when a ≥ b, else 0, without a branch.
    private static func isAtLeast(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: ((Int(a) &- Int(b)) >> 8) &+ 1)
    }

    /// 1 when a = b, else 0, without a branch.
    private static func isEqual(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: ((Int(a ^ b) &- 1) >> 8) & 1)
    }

    /// 0xFF for 1, 0 for 0.
    private static func mask(_ bit: UInt8) -> UInt8 { 0 &- bit }

    /// The bytes as 5-bit values, most significant bit first, the last one padded with zeros.
    static func dataValues(_ bytes: [UInt8]) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(characterCount(byteCount: bytes.count))
        var accumulator = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8 | Int(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                values.append(UInt8((accumulator >> bits) & 31))
            }
        }
        if bits > 0 { values.append(UInt8((accumulator << (5 - bits)) & 31)) }
        accumulator = 0
        return values
    }

    /// The two check values c0, c1 that make both syndromes of `data ‖ c0 ‖ c1` zero.
    ///
    /// With m data values, S0 = Σ v_i and S1 = Σ α^i·v_i over the data, the checks solve
    /// c0 + c1 = S0 and α^m·c0 + α^(m+1)·c1 = S1, so c1 = (S1 + α^m·S0) / (α^m·(1 + α)) and
    /// c0 = S0 + c1 (addition is XOR).
    package static func checks(_ data: [UInt8]) -> [UInt8] {
        let (s0, s1) = syndromes(data)
        let alphaM = GF32.power(GF32.alpha, data.count)
        let c1 = GF32.multiply(s1 ^ GF32.multiply(alphaM, s0), GF32.inverse(GF32.multiply(alphaM, GF32.alpha ^ 1)))
        return [s0 ^ c1, c1]
    }

    /// `(Σ v_i, Σ α^i·v_i)` over `values`.
    static func syndromes(_ values: [UInt8]) -> (UInt8, UInt8) {
        var s0: UInt8 = 0
        var s1: UInt8 = 0
        var alphaI: UInt8 = 1
        for value in values {
            s0 ^= value
            s1 ^= GF32.multiply(alphaI, value)
            alphaI = GF32.multiply(alphaI, GF32.alpha)
        }
        return (s0, s1)
    }
}

/// GF(32) = GF(2)[x]/(x^5 + x^2 + 1), elements as 5-bit values; bitwise, without branches on
/// the operands.
enum GF32 {
    /// x, a generator of the multiplicative group (31 is prime, so every element but 0 and 1 is).
    static let alpha: UInt8 = 2
    static let reduction: UInt8 = 0b00101  // x^5 = x^2 + 1

    /// a·b.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        var product: UInt8 = 0
        var a = a
        for bit in 0..<5 {
            // 0xFF when bit `bit` of b is set, else 0: no branch on the value.
            product ^= a & (0 &- ((b >> UInt8(bit)) & 1))
            let carry = 0 &- ((a >> 4) & 1)
            a = ((a << 1) & 0x1F) ^ (reduction & carry)
        }
        return product
    }

    /// a^n for n ≥ 0.
    static func power(_ a: UInt8, _ n: Int) -> UInt8 {
        var result: UInt8 = 1
        for _ in 0..<n { result = multiply(result, a) }
        return result
    }

    /// a^(−1) = a^30 for a ≠ 0 (the group has order 31); 0 for 0.
    static func inverse(_ a: UInt8) -> UInt8 { power(a, 30) }
}
