import DiaryVault
import Foundation

/// Tags written in the text, jrnl's way: `#walk` or `@nature` become the tags `walk` and
/// `nature` when `new` stores or `edit` saves an entry.
///
/// A tag is `#` or `@` at the start of the text or after white space, followed at once by a
/// word of letters, digits, `_` and `-` that holds at least one letter. So a Markdown heading
/// (`# Title`, `## Title`), a link's anchor (`https://x.org/#top`), an e-mail address
/// (`me@example.org`) and a number (`#1`) are not tags; the word ends at the first other
/// character (`#walk.` is `walk`).
public enum InlineTags {
    public static func find(in text: String) -> [String] {
        var tags: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let afterSpace = index == text.startIndex || text[text.index(before: index)].isWhitespace
            guard character == "#" || character == "@", afterSpace else {
                index = next
                continue
            }
            let word = text[next...].prefix(while: isWordCharacter)
            if word.contains(where: \.isLetter) { tags.append(String(word)) }
            index = word.isEmpty ? next : word.endIndex
        }
        return tags
    }

    /// The tags of a new entry: those given in options (cleaned, `TagInput.clean`) first, then
    /// those written in `text`. The vault keeps one spelling per tag, the first: an option's.
    public static func forNewEntry(given: [String], text: String) -> [String] {
        given.map(TagInput.clean) + find(in: text)
    }

    /// The tags of an entry whose text went from `before` to `text`: its tags and those newly
    /// written in the text, or nil when the edit adds none (none is ever removed here; `diary
    /// tag` does).
    ///
    /// Only a tag the edit wrote is new: one the text held before stays out when `diary tag ID
    /// -x` removed it, though `#x` is still in the text. A tag already held in another spelling
    /// (`Walk` for `#walk`) is not new either.
    public static func afterEdit(_ tags: [String], before: String, text: String) -> [String]? {
        afterEdit(tags, writtenBefore: find(in: before), text: text)
    }

    /// `afterEdit(_:before:text:)` with the tags the text held before, found already
    /// (`EditIntent` keeps them for a text recovered later).
    public static func afterEdit(_ tags: [String], writtenBefore: [String], text: String) -> [String]? {
        let isHeld = { (held: [String], tag: String) in held.contains { EntryText.sameTag($0, tag) } }
        let added = find(in: text).filter { !isHeld(writtenBefore, $0) && !isHeld(tags, $0) }
        return added.isEmpty ? nil : tags + added
    }

    private static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "-"
    }
}

/// A tag as typed in an option (`--tag`, `diary tag +x`): a leading `#` or `@` is optional
/// (`#work`, `@work` and `work` are the same tag, as in text: `InlineTags`).
public enum TagInput {
    /// The tag without surrounding spaces and without one leading `#` or `@`.
    public static func clean(_ tag: String) -> String {
        var t = tag.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("#") || t.hasPrefix("@") { t.removeFirst() }
        return t
    }

    /// Refuses a tag with white space inside (`a b`): it would print as `#a b`, which reads as
    /// a tag and a word. Throws `InputError.tagWithSpace` with the cleaned tag.
    public static func check(_ tag: String) throws {
        let cleaned = clean(tag)
        if cleaned.contains(where: \.isWhitespace) { throw InputError.tagWithSpace(tag: cleaned) }
    }
}
