import Foundation

/// Attachment objects' place in the remote tree: `attachments/<machine>/<object id>`, the
/// stored object exactly as a local store holds it, uploaded by `<machine>` (its single
/// writer), written once and never changed (docs/FORMAT.md §12.1).
extension RemoteLayout {
    static let attachmentsDirectory = "attachments"

    static func attachmentFolder(machine: UUID) -> String { "\(attachmentsDirectory)/\(hex(machine))" }

    static func attachmentPath(machine: UUID, object: UUID) -> String {
        "\(attachmentFolder(machine: machine))/\(object.uuidString.lowercased())"
    }

    /// An object file's name read back: exactly a lowercase UUID with dashes, or nil.
    static func objectID(fromName name: String) -> UUID? {
        guard name.count == 36, let id = UUID(uuidString: name), id.uuidString.lowercased() == name else {
            return nil
        }
        return id
    }
}
