/// Words in an entry's text, counted as `wc -w` counts them: a word is a run of characters
/// that are not white space (Unicode's White_Space property, so a no-break or ideographic space
/// separates words too). Text without spaces, such as Chinese or Japanese, counts as one word
/// per run: there is no dictionary here to cut it into words.
enum WordCount {
    /// The words in `text`: the reference the in-place count is tested against.
    static func count(_ text: String) -> Int {
        var words = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            step(isSpace: scalar.properties.isWhitespace, inWord: &inWord, words: &words)
        }
        return words
    }

    /// The words in validated UTF-8 read in place, so counting builds no String of the text.
    static func count(_ text: ValidatedUTF8) -> Int {
        guard let base = text.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        let n = text.bytes.count
        var words = 0
        var inWord = false
        var i = 0
        while i < n {
            let b0 = base[i]
            let isSpace: Bool
            if b0 < 0x80 {
                // ASCII white space: tab, line feed, vertical tab, form feed, carriage return, space.
                isSpace = b0 == 0x20 || (b0 >= 0x09 && b0 <= 0x0D)
                i += 1
            } else {
                // Validated, so the lead byte gives the length and every continuation byte is there.
                let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
                var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for k in 1..<length { value = value << 6 | UInt32(base[i + k] & 0x3F) }
                isSpace = isNonASCIISpace(value)
                i += length
            }
            if isSpace {
                inWord = false
            } else if !inWord {
                inWord = true
                words += 1
            }
        }
        return words
    }

    /// The scalars beyond ASCII with Unicode's White_Space property (Unicode 15), listed so the
    /// test costs a comparison or two instead of a property lookup per character;
    /// `WordCountTests` checks the list against the property.
    @inline(__always)
    static func isNonASCIISpace(_ value: UInt32) -> Bool {
        switch value {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    @inline(__always)
    private static func step(isSpace: Bool, inWord: inout Bool, words: inout Int) {
        if isSpace {
            inWord = false
        } else if !inWord {
            inWord = true
            words += 1
        }
    }
}
