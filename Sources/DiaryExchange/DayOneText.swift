import DiaryVault
import Foundation

/// Turns Day One's stored Markdown into text a person reads in a terminal.
enum DayOneText {
    /// `![alt](dayone-moment://ID)` and the `dayone-moment:/video/ID` forms for other media.
    nonisolated(unsafe) static let media = try! Regex(
        #"!\[[^\]\n]*\]\(dayone-moment:/{1,2}(?:([A-Za-z]+)/)?([^)\s]*)\)"#)

    /// The text with media references replaced by placeholders such as `[photo not imported]`
    /// and Day One's backslash escapes removed, and the number of references replaced that way.
    /// A reference whose identifier (uppercased) is in `imported` becomes that text instead
    /// (`[photo: photo-1.jpeg]`) and is not counted.
    ///
    /// Media go first: unescaping first would turn text the person wrote as literal
    /// `\!\[\]\(dayone-moment…\)` into something that looks like a reference.
    static func readable(_ raw: String, imported: [String: String] = [:]) -> (text: String, media: Int) {
        var count = 0
        let replaced = raw.replacing(media) { match -> String in
            if let text = imported[String(match.output[2].substring ?? "").uppercased()] { return text }
            count += 1
            let kind = match.output[1].substring.map { String($0).lowercased() }
            return "[\(placeholderNoun(kind)) not imported]"
        }
        return (unescaped(replaced), count)
    }

    static func placeholderNoun(_ kind: String?) -> String {
        switch kind {
        case "video": return "video"
        case "audio": return "audio recording"
        case "pdfattachment", "pdf": return "pdf"
        case "document", "attachment": return "attachment"
        case "sketch": return "sketch"
        default: return "photo"
        }
    }

    /// Removes Markdown backslash escapes: a backslash before ASCII punctuation (`\.`, `\-`,
    /// `\!`, `\(`, `\#`, `\*`, `\_`, `\[`, `\\`, …) leaves only the punctuation. A backslash
    /// before anything else is kept, as CommonMark reads it.
    static func unescaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        var iterator = text.makeIterator()
        while let c = iterator.next() {
            guard c == "\\" else { out.append(c); continue }
            guard let next = iterator.next() else { out.append(c); break }
            if next.isASCII && next.isPunctuationOrSymbol {
                out.append(next)
            } else {
                out.append(c)
                out.append(next)
            }
        }
        return out
    }
}

extension Character {
    fileprivate var isPunctuationOrSymbol: Bool {
        guard let ascii = asciiValue else { return false }
        return (0x21...0x2F).contains(ascii) || (0x3A...0x40).contains(ascii) || (0x5B...0x60).contains(ascii)
            || (0x7B...0x7E).contains(ascii)
    }
}
