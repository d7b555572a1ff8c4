import DiaryStore
import Foundation

/// What can go wrong with a vault. Messages are lowercase, name the path or the entry id, and
/// never contain plaintext.
public enum VaultError: Error, Equatable, Sendable, CustomStringConvertible {
    case noVault(path: String)
    case notAVault(path: String)
    case alreadyExists(path: String)
    case unsupportedVersion(found: Int, supported: Int)
    case unsupportedIndexVersion(found: Int, supported: Int)
    case wrongPassphrase
    case wrongKey
    case rotationInterrupted
    case headerDamaged(String)
    case indexUnavailable(String)
    case indexNeedsRepair
    case emptyText
    case entryTooLarge(bytes: Int, limit: Int)
    case tooManyTags(count: Int, limit: Int)
    case invalidTag(bytes: Int, limit: Int)
    case invalidSource(bytes: Int, limit: Int)
    case storeDamaged(path: String, detail: String)
    case unknownID(String)
    case ambiguousID(String, matches: [UUID])
    case invalidID(String)
    case entryDamaged(UUID, String)
    case backupExists(path: String)
    case notABackup(path: String)
    case backupDamaged(path: String, detail: String)
    case importRefused(position: Int, detail: String)
    case io(path: String, detail: String)
    case unknownTemplate(String)
    case duplicateTemplate(String)
    case invalidTemplateName(String, limit: Int)
    case invalidPrompt(limit: Int)
    /// The entry has no attachment of this name.
    case unknownAttachment(String)
    /// The entry has an attachment of this name already (names are compared up to letter case).
    case duplicateAttachment(String)
    /// A name (or media type) an attachment cannot have.
    case invalidAttachmentName(String)
    /// More attachments than one entry holds.
    case tooManyAttachments(limit: Int)
    /// An entry references an attachment object the store does not hold (not yet synced, or lost).
    case attachmentMissing(UUID)
    /// The header's recovery key is not the one the index records, or its tag is not made
    /// with the vault key: the header may have been replaced (docs/FORMAT.md §3).
    case recoveryKeyMismatch
    /// The recovery key given is not the vault's.
    case wrongRecoveryKey
    /// The vault has no recovery key.
    case noRecoveryKey
    /// The vault has a recovery key already (replacing it is asked for explicitly).
    case recoveryKeyExists
    /// A header of an older recovery epoch than the one the index records: put back, not new.
    case recoveryEpochRolledBack(found: UInt32, known: UInt32)

    public var description: String {
        switch self {
        case .noVault(let path): return "no vault at \(path)"
        case .notAVault(let path): return "\(path) is not a diary vault"
        case .alreadyExists(let path): return "a vault already exists at \(path)"
        case .unsupportedVersion(let found, let supported):
            return "the vault has format version \(found); this diary supports version \(supported)"
        case .unsupportedIndexVersion(let found, let supported):
            return "the vault's index has version \(found); this diary reads version \(supported) only"
        case .wrongPassphrase: return "wrong passphrase"
        case .wrongKey: return "the session key does not open this vault"
        case .rotationInterrupted: return "a key rotation was interrupted"
        case .headerDamaged(let detail): return "the vault header is damaged (\(detail))"
        case .indexUnavailable(let detail): return "the index cannot be read (\(detail))"
        case .indexNeedsRepair: return "the index is missing or damaged; nothing was written"
        case .emptyText: return "the entry is empty; nothing was stored"
        case .entryTooLarge(let bytes, let limit):
            return "the entry is \(bytes) bytes; the limit is \(limit) bytes"
        case .tooManyTags(let count, let limit): return "the entry has \(count) tags; the limit is \(limit)"
        case .invalidTag(let bytes, let limit): return "a tag is \(bytes) bytes long; the limit is \(limit) bytes"
        case .invalidSource(let bytes, let limit):
            return "an import source is \(bytes) bytes long; the limit is \(limit) bytes"
        case .storeDamaged(let path, let detail): return "\(path) is damaged: \(detail)"
        case .unknownID(let id): return "no entry matches '\(id)'"
        case .ambiguousID(let id, let matches):
            let list = matches.map { $0.uuidString.lowercased() }.joined(separator: ", ")
            return "'\(id)' matches \(matches.count) entries: \(list)"
        case .invalidID(let id): return "'\(id)' is not an entry id (a UUID or at least 4 hex digits)"
        case .entryDamaged(let id, let detail): return "entry \(id.uuidString.lowercased()) is damaged (\(detail))"
        case .backupExists(let path): return "\(path) already exists; a backup never overwrites a file"
        case .notABackup(let path): return "\(path) is not a diary backup"
        case .backupDamaged(let path, let detail): return "the backup \(path) is damaged (\(detail))"
        case .importRefused(let position, let detail):
            return "entry \(position) of the import: \(detail); nothing was imported"
        case .io(let path, let detail): return "\(path): \(detail)"
        case .unknownTemplate(let name): return "no template is called '\(name)'"
        case .duplicateTemplate(let name): return "a template called '\(name)' exists already"
        case .invalidTemplateName(let name, let limit):
            return "'\(name)' cannot name a template (1 to \(limit) bytes, one line, no space at either end)"
        case .invalidPrompt(let limit):
            return "a prompt is longer than \(limit) bytes or holds a control character"
        case .unknownAttachment(let name): return "the entry has no attachment called '\(name)'"
        case .duplicateAttachment(let name): return "the entry has an attachment called '\(name)' already"
        case .invalidAttachmentName(let name):
            return "'\(name)' cannot name an attachment (1 to 255 bytes, no '/', no control character)"
        case .tooManyAttachments(let limit): return "an entry holds at most \(limit) attachments"
        case .attachmentMissing(let id): return "attachment object \(id.uuidString.lowercased()) is not in the vault"
        case .recoveryKeyMismatch:
            return "the header's recovery key does not match the index: the header may have been replaced;"
                + " restore from a backup"
        case .wrongRecoveryKey: return "the recovery key does not open this vault"
        case .noRecoveryKey: return "the vault has no recovery key"
        case .recoveryKeyExists: return "the vault has a recovery key already"
        case .recoveryEpochRolledBack(let found, let known):
            return "a header of recovery epoch \(found) is older than the vault's (\(known))"
        }
    }
}

extension VaultError {
    /// Maps a storage error to the vault's vocabulary.
    init(_ error: StoreError) {
        switch error {
        case .noVault(let p): self = .noVault(path: p)
        case .notAVault(let p): self = .notAVault(path: p)
        case .alreadyExists(let p): self = .alreadyExists(path: p)
        case .io(let p, let d): self = .io(path: p, detail: d)
        case .corrupt(let p, let d): self = .storeDamaged(path: p, detail: d)
        }
    }
}

/// Runs `body`, translating `StoreError` into `VaultError`.
func storeCall<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as StoreError {
        throw VaultError(error)
    }
}
