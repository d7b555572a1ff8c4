import DiaryVault
import Foundation

extension AttachmentInput {
    /// A file to attach whose content is `bytes`, handed out in the pieces the vault asks for.
    public static func reading(
        _ bytes: [UInt8], name: String, type: String = "application/octet-stream", dedup: Bool = true
    ) -> AttachmentInput {
        var offset = 0
        return AttachmentInput(name: name, mediaType: type, dedup: dedup) { buffer in
            let count = min(buffer.count, bytes.count - offset)
            buffer.replaceSubrange(0..<count, with: bytes[offset..<offset + count])
            offset += count
            return count
        }
    }
}

extension Vault {
    /// The plaintext of `record` as this vault reads it, every check made.
    public func plaintext(of record: AttachmentRecord) throws -> [UInt8] {
        var out: [UInt8] = []
        try readAttachment(record) { out.append(contentsOf: $0) }
        return out
    }
}
