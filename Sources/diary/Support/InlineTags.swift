import DiaryApp

/// Tags written in the text, jrnl's way: `#walk` or `@nature` become the tags `walk` and
/// `nature` when `new` stores or `edit` saves an entry.
///
/// A tag is `#` or `@` at the start of the text or after white space, followed at once by a
/// word of letters, digits, `_` and `-` that holds at least one letter. So a Markdown heading
/// (`# Title`, `## Title`), a link's anchor (`https://x.org/#top`), an e-mail address
/// (`me@example.org`) and a number (`#1`) are not tags; the word ends at the first other
/// character (`#walk.` is `walk`).
enum InlineTags {
    static func find(in text: String) -> [String] {
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

    private static func isWordCharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "_" || c == "-"
    }
}
