import DiaryVault
import Foundation

/// What storing a text left by an edit did.
public enum RecoveredText: Equatable, Sendable {
    /// Stored as a new entry: it was one, or the entry it edited is gone.
    case added(UUID)
    /// Stored into the entry it edited.
    case updated(UUID)
    /// Stored as a new entry (`added`) because the entry it edited (`original`) changed since
    /// the edit began: storing it there would have lost that change.
    case addedBesideChanged(added: UUID, original: UUID)
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
    /// An edit is stored into its entry only while that entry is as it was when the edit began
    /// (`EditIntent.entryChanged`). If it changed since (a later edit or sync), the text is
    /// never put over it: it becomes a new entry with the entry's date (or the edit's `--date`),
    /// tags and star, and the outcome names both.
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
            if let intent, intent.entryChanged(current) {
                guard text != current.text else { return .unchanged(id) }
                let added = try vault.add(
                    text: text, date: intent.date ?? current.date,
                    dateIsDay: intent.date == nil ? current.isCalendarDay : intent.dateIsDay,
                    starred: current.starred, tags: intent.tagsAfterEdit(current.tags, text: text) ?? current.tags)
                return .addedBesideChanged(added: added.id, original: id)
            }
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
