import DiaryCrypto
import Glibc

/// Why a new passphrase is weak, with the numbers behind the verdict (the CLI words it).
public enum PassphraseWeakness: Equatable, Sendable {
    /// It is on the list of the most common passphrases (or made of words on it).
    case common
    /// One short unit repeated (`abcabcabc`): worth the unit and the count.
    case repeatedUnit(bits: Int)
    /// Half or more of its characters repeat or continue a sequence (`aaa`, `abc`).
    case mostlyPredictable(characters: Int, bits: Int)
    /// Too few characters for the alphabet they span.
    case tooShort(characters: Int, bits: Int)
}

/// A simple estimate of how guessable a new passphrase is, used to refuse weak ones at `init`
/// and `passwd`.
///
/// Deliberately plain, so its verdict can be explained in one sentence: each character that is
/// neither a repeat of the one before nor the next or previous in sequence (`aaa`, `abc`,
/// `321`) is worth log2 of the alphabet its character classes span (26 lowercase, 26
/// uppercase, 10 digits, 33 ASCII symbols and space, 100 for anything beyond ASCII); every
/// other character is worth 1 bit; a passphrase on a short list of the most common ones (after
/// lowercasing and dropping trailing digits and symbols) is worth 0. It knows no dictionary,
/// so it overrates words: it catches the obviously weak, it does not certify the strong.
public struct PassphraseStrength: Equatable, Sendable {
    /// Below this estimate a new passphrase is refused without `--allow-weak-passphrase`.
    /// About 8 random characters of all four ASCII classes, or 11 random lowercase letters.
    public static let minimumBits = 50.0

    public let bits: Double
    /// Why the passphrase is weak; nil when it is not.
    public let weakness: PassphraseWeakness?

    public var isWeak: Bool { weakness != nil }

    public static func of(_ passphrase: SecretBytes) -> PassphraseStrength {
        passphrase.withUnsafeBytes { of(utf8: $0) }
    }

    /// The estimate for valid UTF-8 `bytes`. Works on the bytes in place; only the common-list
    /// look-up copies them (see `isCommon`).
    public static func of(utf8 bytes: UnsafeRawBufferPointer) -> PassphraseStrength {
        if isCommon(bytes) {
            return PassphraseStrength(bits: 0, weakness: .common)
        }
        // `abcabcabc`, `password password`: one unit, repeated, is worth the unit and the count.
        let unitLength = period(of: bytes)
        if unitLength < bytes.count {
            let unit = of(utf8: UnsafeRawBufferPointer(rebasing: bytes[0..<unitLength]))
            let bits =
                (unit.weakness == .common ? 0 : unit.bits)
                + log2(Double(bytes.count) / Double(unitLength))
            guard bits < minimumBits else { return PassphraseStrength(bits: bits, weakness: nil) }
            return PassphraseStrength(bits: bits, weakness: .repeatedUnit(bits: Int(bits)))
        }

        var characters = 0, predictable = 0
        var lower = false, upper = false, digit = false, symbol = false, other = false
        var previous: UInt32?
        var index = 0
        while index < bytes.count {
            let (scalar, length) = decode(bytes, at: index)
            index += length
            characters += 1
            switch scalar {
            case 0x61...0x7A: lower = true
            case 0x41...0x5A: upper = true
            case 0x30...0x39: digit = true
            case 0x20...0x7E: symbol = true
            default: other = true
            }
            if let previous, scalar == previous || scalar &+ 1 == previous || previous &+ 1 == scalar {
                predictable += 1
            }
            previous = scalar
        }
        var alphabet = 0.0
        if lower { alphabet += 26 }
        if upper { alphabet += 26 }
        if digit { alphabet += 10 }
        if symbol { alphabet += 33 }
        if other { alphabet += 100 }
        let bits = Double(characters - predictable) * log2(max(alphabet, 1)) + Double(predictable)

        guard bits < minimumBits else { return PassphraseStrength(bits: bits, weakness: nil) }
        if predictable * 2 >= characters && characters > 2 {
            return PassphraseStrength(bits: bits, weakness: .mostlyPredictable(characters: characters, bits: Int(bits)))
        }
        return PassphraseStrength(bits: bits, weakness: .tooShort(characters: characters, bits: Int(bits)))
    }

    /// The length of the shortest prefix that `bytes` repeats (the last repetition may be cut
    /// short); `bytes.count` when there is none. A period always ends on a character boundary:
    /// the byte after it equals the first byte, which starts a character.
    private static func period(of bytes: UnsafeRawBufferPointer) -> Int {
        guard bytes.count > 1 else { return bytes.count }
        for length in 1...(bytes.count / 2) where (length..<bytes.count).allSatisfy({ bytes[$0] == bytes[$0 - length] })
        {
            return length
        }
        return bytes.count
    }

    /// One Unicode scalar of valid UTF-8 at `index`, and its length in bytes.
    private static func decode(_ bytes: UnsafeRawBufferPointer, at index: Int) -> (UInt32, Int) {
        let lead = UInt32(bytes[index])
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var scalar = length == 1 ? lead : lead & (0xFF >> UInt32(length + 1))
        for offset in 1..<max(length, 1) where index + offset < bytes.count {
            scalar = scalar << 6 | UInt32(bytes[index + offset]) & 0x3F
        }
        return (scalar, length)
    }

    /// Lists of leaked passwords are led by these, and by them with digits or `!` appended.
    private static let common: Set<String> = [
        "password", "passphrase", "passwort", "motdepasse", "contraseña", "qwerty", "qwertyuiop", "azerty",
        "asdfgh", "asdfghjkl", "zxcvbnm", "letmein", "iloveyou", "welcome", "admin", "administrator", "root",
        "login", "secret", "diary", "mydiary", "monkey", "dragon", "sunshine", "princess", "football",
        "baseball", "superman", "batman", "master", "shadow", "trustno", "hunter", "changeme", "opensesame",
        "abc", "qazwsx", "qweasd", "iloveu", "loveyou", "starwars", "whatever", "freedom", "hello",
        "helloworld", "correcthorsebatterystaple", "passw0rd", "p@ssw0rd", "p@ssword", "pa$$word",
    ]

    /// Whether `bytes`, lowercased and without trailing digits and symbols, is on the list,
    /// with or without its spaces, or is made only of words on the list (`password letmein`).
    private static func isCommon(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= 64 else { return false }
        // Allocated once at full size and zeroed after, so no copy of the passphrase is left
        // behind; `split` below makes slices of `folded`, not copies.
        var folded = [UInt8](repeating: 0, count: bytes.count)
        var joined = [UInt8](repeating: 0, count: bytes.count)
        defer {
            secureZero(&folded)
            secureZero(&joined)
        }
        var joinedCount = 0
        for (index, byte) in bytes.enumerated() {
            folded[index] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            if byte != UInt8(ascii: " ") {
                joined[joinedCount] = folded[index]
                joinedCount += 1
            }
        }
        if isCommonWord(joined[0..<joinedCount]) { return true }
        let words = folded.split(separator: UInt8(ascii: " "))
        return !words.isEmpty && words.allSatisfy { isCommonWord($0) }
    }

    /// Whether `word` (lowercase), without trailing digits and symbols, is on the list.
    private static func isCommonWord<Bytes: BidirectionalCollection<UInt8>>(_ word: Bytes) -> Bool {
        var end = word.endIndex
        while end > word.startIndex {
            let last = word[word.index(before: end)]
            guard last < 0x80, !(last >= 0x61 && last <= 0x7A) else { break }
            end = word.index(before: end)
        }
        let stem = word[word.startIndex..<end]
        // The look-up needs a String, which cannot be zeroed; Swift keeps up to 15 bytes inline
        // (no heap copy), and the longest common word is 25, so longer input is not compared.
        guard !stem.isEmpty, stem.count <= 25 else { return false }
        return common.contains(String(decoding: stem, as: UTF8.self))
    }
}
