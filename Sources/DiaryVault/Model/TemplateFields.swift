import Foundation

/// What a template holds besides its text (`diary template`): its name, and the prompts its
/// `{prompt}` placeholder chose last, so the next choice can avoid them. Sealed with the text
/// as a version-2 entry plaintext (docs/FORMAT.md §7), so it is encrypted and syncs.
public struct TemplateFields: Equatable, Sendable {
    /// Unique in the vault, compared without letter case (`TemplateName.key`).
    public var name: String
    /// The prompt lines chosen last, most recent first (at most `TemplateName.maximumRecentPrompts`).
    public var recentPrompts: [String]

    public init(name: String, recentPrompts: [String] = []) {
        self.name = name
        self.recentPrompts = recentPrompts
    }
}

/// The rules a template's name and prompt memory follow, shared by every writer and the reader.
public enum TemplateName {
    /// A name is at most this many UTF-8 bytes (and characters).
    public static let maximumBytes = 200
    /// The prompt memory holds at most this many prompts: a pick keeps the last three, a sync
    /// merge keeps the union of two machines' memories, cut to this.
    public static let maximumRecentPrompts = 16
    /// A remembered prompt is at most this many UTF-8 bytes; longer prompt lines are refused.
    public static let maximumPromptBytes = 1024

    /// True when `name` can name a template: not empty, no white space at either end, no
    /// control character (a newline, a tab), at most `maximumBytes`.
    public static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= maximumBytes else { return false }
        let scalars = name.unicodeScalars
        if let first = scalars.first, let last = scalars.last,
            CharacterSet.whitespacesAndNewlines.contains(first) || CharacterSet.whitespacesAndNewlines.contains(last)
        {
            return false
        }
        return !scalars.contains(where: isHidden)
    }

    /// True for a scalar a name must not hold: a control character (a newline, an escape) or a
    /// format one (a bidi override, a zero-width space), which would change or hide what a
    /// line printed around it shows. Also the rule for other one-line settings (`date.format`).
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        CharacterSet.controlCharacters.contains(scalar)
    }

    /// True when `prompt` can be remembered: one line (no control character but a tab), not
    /// blank, at most `maximumPromptBytes`.
    public static func isValidPrompt(_ prompt: String) -> Bool {
        !EntryText.isBlank(prompt) && prompt.utf8.count <= maximumPromptBytes
            && !prompt.unicodeScalars.contains { $0 != "\t" && CharacterSet.controlCharacters.contains($0) }
    }

    /// What two names that are the same template have in common: the name with letter case folded.
    public static func key(_ name: String) -> String {
        name.folding(options: [.caseInsensitive], locale: nil)
    }
}
