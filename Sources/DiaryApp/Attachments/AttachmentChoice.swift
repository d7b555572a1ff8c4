import DiaryVault
import Foundation

/// Why no attachment was chosen when the name was left out.
public enum AttachmentChoiceError: Error, Equatable, Sendable {
    /// The entry has no attachments.
    case none(entry: UUID)
    /// The entry has several: the name must be given (`names`, in the entry's order).
    case nameNeeded(entry: UUID, names: [String])
}

/// Which attachment of an entry a command means.
public enum AttachmentChoice {
    /// The attachment `name` names (up to letter case), or, without a name, the entry's only
    /// one. Throws `VaultError.unknownAttachment` or `AttachmentChoiceError`.
    public static func record(named name: String?, in entry: Entry) throws -> AttachmentRecord {
        guard let name else {
            guard let only = entry.attachments.first else { throw AttachmentChoiceError.none(entry: entry.id) }
            guard entry.attachments.count == 1 else {
                throw AttachmentChoiceError.nameNeeded(entry: entry.id, names: entry.attachments.map(\.name))
            }
            return only
        }
        let key = AttachmentName.key(name)
        guard let record = entry.attachments.first(where: { AttachmentName.key($0.name) == key }) else {
            throw VaultError.unknownAttachment(name)
        }
        return record
    }
}
