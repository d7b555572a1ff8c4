import DiaryApp

/// Text from entries, import files and paths made safe to print for a person.
///
/// A terminal obeys control characters: `ESC ] 0 ; … BEL` retitles the window, `ESC [ 2 J` clears
/// the screen, `\r` returns to the start of the line so later text hides earlier text, and
/// some terminals have had escape sequences that answer back into the input. So every
/// human-facing print path (list lines, `show`'s header and its text on a terminal, messages on
/// stderr, prompts) passes text through `escaped`, the one sanitiser. One style everywhere,
/// the one Swift and C readers know: `\e`, `\a`, `\b`, `\t`, `\n`, `\v`, `\f`, `\r`, `\0`, and
/// `\u{HH}` for any other control character (C0, DEL, C1) or bidirectional override (which can
/// make text read in another order than it is stored). JSON output is escaped by the encoder
/// instead, and `show --raw` (or `show` into a pipe) gives the text unchanged.
enum Printable {
    /// `text` with each control character replaced by its escape, except those in `keeping`
    /// (`show` keeps its text's newlines and tabs; messages keep their own line breaks).
    static func escaped(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && !kept.contains($0) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar), !kept.contains(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// Line breaks and tabs: what a multi-line message or an entry's text keeps.
    static let layout: Set<Unicode.Scalar> = ["\n", "\t"]

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0, DEL, C1
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidirectional embeddings, overrides, isolates
        default: return false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\u{1B}": return "\\e"
        case "\u{07}": return "\\a"
        case "\u{08}": return "\\b"
        case "\t": return "\\t"
        case "\n": return "\\n"
        case "\u{0B}": return "\\v"
        case "\u{0C}": return "\\f"
        case "\r": return "\\r"
        case "\0": return "\\0"
        default: return "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }
}
