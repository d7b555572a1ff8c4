import Foundation

extension EntryText {
    /// A title as people read it: a Markdown heading (`# Trip`, `## Trip`) without its `#`s
    /// and the space after them; any other title unchanged.
    ///
    /// Why a reader-side rule and not another stored title: the sealed index keeps the first
    /// line as it was written (FORMAT.md §7), and every diary, older ones and sync peers
    /// included, must derive the same row from the same text; a rule applied when showing
    /// changes no vault and applies at once to entries written before it. Every human-facing
    /// place shows this (list, show, delete, new's note, the Markdown document export);
    /// `--json` keeps the stored title.
    public static func displayTitle(_ title: String) -> String {
        let marks = title.prefix { $0 == "#" }
        guard (1...6).contains(marks.count) else { return title }
        let rest = title.dropFirst(marks.count)
        guard rest.first == " " || rest.first == "\t" else { return title }
        let text = rest.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? title : text
    }
}
