/// Words in an entry's text, counted as `wc -w` counts them: a word is a run of characters
/// that are not white space (Unicode's White_Space property, so a no-break or ideographic space
/// separates words too). Text without spaces, such as Chinese or Japanese, counts as one word
/// per run: there is no dictionary here to cut it into words.
public enum WordCount {
    /// The words in `text`.
    public static func count(_ text: String) -> Int {
        var words = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            step(isSpace: scalar.properties.isWhitespace, inWord: &inWord, words: &words)
        }
        return words
    }

    /// The words in validated UTF-8 read in place, so counting builds no String of the text.
    static func count(_ text: ValidatedUTF8) -> Int {
        let bytes = text.bytes
        let n = bytes.count
        var words = 0
        var inWord = false
        var i = 0
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                // ASCII white space: tab, line feed, vertical tab, form feed, carriage return, space.
                step(isSpace: b0 == 0x20 || (0x09...0x0D).contains(b0), inWord: &inWord, words: &words)
                i += 1
                continue
            }
            // Validated, so the lead byte gives the length and every continuation byte is there.
            let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : 2
            var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
            for k in 1..<length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
            let isSpace = Unicode.Scalar(value)?.properties.isWhitespace ?? false
            step(isSpace: isSpace, inWord: &inWord, words: &words)
            i += length
        }
        return words
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
