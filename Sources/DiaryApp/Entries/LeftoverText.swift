import DiaryVault
import Foundation

/// What storing a text left by an edit did.
public enum RecoveredText: Equatable, Sendable {
    /// Stored as a new entry: it was one, or the entry it edited is gone.
    case added(UUID)
    /// Stored into the entry it edited.
    case updated(UUID)
    /// The entry already holds that text, and no new date was meant.
    case unchanged(UUID)
    /// The text is blank: nothing to store.
    case empty
}

/// Stores a text that a `new` or an `edit` left behind (its save failed, or `diary` was killed)
/// the way that command would have stored it.
public enum LeftoverText {
    /// Stores `text`, left by a new entry (`editing` nil) or an edit of entry `editing`, in
    /// `vault`, with what `intent` says the command meant: its date, its `--tag`s, its star, and
    /// for an edit only the inline tags that are new in the text.
    ///
    /// Without an intent (a directory left by a diary that kept none) the text is stored as
    /// before intents were kept: now, with the tags written in a new entry's text, and an edit's
    /// tags untouched.
    public static func store(
        _ text: String, editing entry: UUID?, intent: EditIntent?, in vault: Vault
    ) throws -> RecoveredText {
        guard !EntryText.isBlank(text) else { return .empty }
        // A damaged or deleted entry cannot take the edit: the text becomes an entry of its own.
        if let id = entry, let current = try? vault.entry(id) {
            let textChanged = text != current.text
            guard textChanged || intent?.date != nil else { return .unchanged(id) }
            try vault.update(
                id, text: textChanged ? text : nil, date: intent?.date, dateIsDay: intent?.dateIsDay ?? false,
                tags: textChanged ? intent?.tagsAfterEdit(current.tags, text: text) : nil)
            return .updated(id)
        }
        let added = try vault.add(
            text: text, date: intent?.date, dateIsDay: intent?.dateIsDay ?? false, starred: intent?.starred ?? false,
            tags: InlineTags.forNewEntry(given: intent?.tags ?? [], text: text))
        return .added(added.id)
    }
}
