import DiaryApp

/// How many terminal columns text takes, for aligning and cutting `list` lines, `search`
/// context and the `calendar` labels.
///
/// Why not `wcwidth(3)`: it answers by the C locale, which `diary` never sets (and under
/// `LC_ALL=C` every non-ASCII character would count as unprintable). Terminals draw East Asian
/// wide and fullwidth characters (Hangul, kana, CJK ideographs) and emoji in two columns,
/// combining marks and zero-width characters in none, everything else in one; a character
/// (grapheme cluster) is as wide as its first scalar, or two when it is shown as an emoji.
enum DisplayWidth {
    static func of(_ text: String) -> Int {
        // Most titles, tags and dates are printable ASCII: one column a byte.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.isASCII { return first.value < 0x20 || first.value == 0x7F ? 0 : 1 }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) || scalars.contains("\u{FE0F}") {
            return 2
        }
        return width(of: first)
    }

    /// `text` cut so that it takes at most `columns` columns, ending in `…` when it was cut.
    static func cut(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard of(text) > columns else { return text }
        return prefix(text, fitting: columns - 1) + "…"  // one column for the ellipsis
    }

    /// The longest start of `text` that takes at most `columns` columns (no ellipsis).
    static func prefix(_ text: String, fitting columns: Int) -> String {
        var kept = ""
        var width = 0
        for character in text {
            let w = of(character)
            if width + w > columns { break }
            kept.append(character)
            width += w
        }
        return kept
    }

    /// `text` followed by spaces up to `columns` columns.
    static func padded(_ text: String, to columns: Int) -> String {
        text + String(repeating: " ", count: max(0, columns - of(text)))
    }

    private static func width(of scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        let v = scalar.value
        if v >= 0x1160 && v <= 0x11FF { return 0 }  // Hangul medial vowels and final consonants
        for range in wide where range.contains(v) { return 2 }
        return 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, from Unicode's EastAsianWidth.txt, coarsely.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F,  // Hangul Jamo initial consonants
        0x2E80...0x303E,  // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,  // CJK extension A
        0x4E00...0x9FFF,  // CJK unified ideographs
        0xA000...0xA4CF,  // Yi
        0xA960...0xA97F,  // Hangul Jamo extended A
        0xAC00...0xD7A3,  // Hangul syllables
        0xF900...0xFAFF,  // CJK compatibility ideographs
        0xFE10...0xFE19,  // vertical forms
        0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
        0xFF00...0xFF60,  // fullwidth forms
        0xFFE0...0xFFE6,  // fullwidth signs
        0x1F300...0x1F64F,  // pictographs, emoticons
        0x1F900...0x1F9FF,  // supplemental symbols and pictographs
        0x20000...0x2FFFD,  // CJK extensions B–F
        0x30000...0x3FFFD,  // CJK extension G and later
    ]
}
