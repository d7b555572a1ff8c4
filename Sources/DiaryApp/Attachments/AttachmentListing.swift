import DiaryVault
import Foundation

/// The entries `diary attachments` lists without an id: every entry with attachments, newest
/// first, each opened on its own so that one damaged entry costs only its own lines.
public enum AttachmentListing {
    /// The entries with attachments that open, and the ids of those that do not
    /// (`VaultError.entryDamaged`), both newest first. Other errors stop the listing.
    public static func entries(of vault: Vault) throws -> (entries: [Entry], damaged: [UUID]) {
        var entries: [Entry] = []
        var damaged: [UUID] = []
        for summary in try vault.list(EntryFilter()) where !summary.attachments.isEmpty {
            do {
                entries.append(try vault.entry(summary.id))
            } catch VaultError.entryDamaged(let id, _) {
                damaged.append(id)
            }
        }
        return (entries, damaged)
    }
}
