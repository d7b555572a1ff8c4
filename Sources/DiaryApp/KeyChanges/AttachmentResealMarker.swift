import Foundation

/// Remembers, outside the vault, that `rekey --attachments` rotated a vault's key to a
/// generation and has not finished sealing its attachments again, so that a second run goes on
/// from there instead of rotating once more (which would seal every attachment again).
///
/// One small file per vault id in the per-user state directory, `reseal-attachments-<id>`,
/// holding the generation in decimal. No secret; removed when the run finishes.
struct AttachmentResealMarker {
    static let prefix = "reseal-attachments-"
    let stateDirectory: URL

    private func url(_ vaultID: UUID) -> URL {
        stateDirectory.appendingPathComponent(Self.prefix + vaultID.uuidString.lowercased())
    }

    /// The generation an unfinished run rotated `vaultID` to, if any (anything else in the
    /// file is ignored: the run then starts afresh).
    func pending(_ vaultID: UUID) -> UInt32? {
        guard let data = try? Data(contentsOf: url(vaultID)), data.count <= 32,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        return UInt32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func record(_ vaultID: UUID, generation: UInt32) throws {
        try FileManager.default.createDirectory(
            at: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("\(generation)\n".utf8).write(to: url(vaultID), options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url(vaultID).path)
    }

    func clear(_ vaultID: UUID) {
        try? FileManager.default.removeItem(at: url(vaultID))
    }
}
