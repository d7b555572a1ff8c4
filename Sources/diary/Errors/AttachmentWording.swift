import DiaryApp
import DiaryExchange
import DiarySync
import DiaryVault
import Foundation

/// An attachment that failed while `open` or `extract` read it, with the entry and name the
/// user typed, which the vault's error does not know.
struct AttachmentReadFailure: Error {
    let name: String
    let entry: UUID
    let underlying: Error
    /// Failed after part of it was written (`extract -o -`'s second reading).
    var outputIncomplete = false
    /// The copies on the sync remote a fetch just refused (why the object is not here).
    var refusedCopies: [RefusedAttachment] = []
}

/// `open`'s viewer exited with a failure status or was killed (the copy was wiped).
struct ViewerFailed: Error {
    let command: String
    let status: Int32

    var report: ErrorReport {
        ErrorReport(
            message: "the viewer '\(command)' failed (status \(status)); its copy was wiped",
            hint: "set DIARY_OPENER to a program that opens the file and waits until you close it", code: .failure)
    }
}

/// The words and exit codes of attachment errors.
enum AttachmentWording {
    static func report(_ error: AttachmentFileError) -> ErrorReport {
        switch error {
        case .missing(let path):
            return ErrorReport(
                message: "cannot attach \(path): no such file; nothing was stored", hint: nil, code: .failure)
        case .unreadable(let path, let code):
            return ErrorReport(
                message: "cannot read \(path): \(String(cString: strerror(code))); nothing was stored", hint: nil,
                code: .failure)
        case .notRegularFile(let path, let kind):
            return ErrorReport(
                message: "\(path) is \(words(kind)), not a regular file; nothing was stored", hint: nil,
                code: .inputRefused)
        case .changedWhileRead(let path):
            return ErrorReport(
                message: "\(path) changed while it was read; nothing was stored",
                hint: "attach it again once nothing writes to it", code: .inputRefused)
        case .empty(let path):
            return ErrorReport(
                message: "\(path) reports a size of 0 (an empty file, or a /proc or special file); nothing was stored",
                hint: nil, code: .inputRefused)
        case .tooLarge(let path, let limit):
            return ErrorReport(
                message: "\(path) is larger than \(limit >> 30) GiB, the limit of an attachment; nothing was stored",
                hint: nil, code: .inputRefused)
        case .malformedJPEG(let path):
            return ErrorReport(
                message:
                    "\(path) starts as a JPEG but is broken or cut short, so its metadata cannot be removed; nothing was stored",
                hint: "to attach it exactly as it is, metadata included, add --keep-metadata", code: .inputRefused)
        case .invalidName(let name, _):
            return ErrorReport(
                message:
                    "'\(name)' cannot name an attachment (1 to 255 bytes, no '/', no control character, no space at either end)",
                hint: "give another name with --name", code: .inputRefused)
        case .nameNotUTF8(let path):
            return ErrorReport(
                message: "the name of \(path) is not UTF-8, so it cannot name an attachment; nothing was stored",
                hint: "give it a name with --name (diary attach), or rename the file", code: .inputRefused)
        case .notReplaceable(let path, let kind):
            return ErrorReport(
                message:
                    "\(path) is \(words(kind)), not a regular file; --force replaces only a regular file; nothing was written",
                hint: "choose another path", code: .alreadyExists)
        case .exists(let path):
            return ErrorReport(
                message: "\(path) exists; nothing was written", hint: "choose a new path, or add --force to replace it",
                code: .alreadyExists)
        case .unwritable(let path, let code):
            return ErrorReport(
                message: "cannot write \(path): \(String(cString: strerror(code))); nothing was written", hint: nil,
                code: .failure)
        }
    }

    static func report(_ error: AttachmentChoiceError) -> ErrorReport {
        switch error {
        case .none(let entry):
            return ErrorReport(
                message: "entry \(EntryFormat.shortID(entry)) has no attachments",
                hint: "`diary attach \(EntryFormat.shortID(entry)) FILE` adds one", code: .failure)
        case .nameNeeded(let entry, let names):
            return ErrorReport(
                message: "entry \(EntryFormat.shortID(entry)) has \(names.count) attachments; name one",
                hint: "`diary attachments \(EntryFormat.shortID(entry))` lists them", code: .usage)
        }
    }

    static func report(_ failure: AttachmentReadFailure) -> ErrorReport? {
        let subject = "attachment \(failure.name) of entry \(EntryFormat.shortID(failure.entry))"
        let outcome =
            failure.outputIncomplete
            ? "what was written to stdout is incomplete and must not be trusted" : "nothing was written"
        switch failure.underlying {
        case AttachmentError.damaged(_, let reason):
            return ErrorReport(
                message: "\(subject) is damaged (\(words(reason))); \(outcome)",
                hint: "run `diary verify` to list all damage", code: .damaged)
        case VaultError.attachmentMissing where !failure.refusedCopies.isEmpty:
            let copies = failure.refusedCopies.map {
                "the copy on the remote (\(Printable.escaped($0.path))) is damaged: \(SyncMessages.words($0.reason))"
            }
            return ErrorReport(
                message:
                    "\(subject) is not in the vault: \(copies.joined(separator: "; ")); it was not used; \(outcome)",
                hint:
                    "on a machine where it opens: extract it, `diary detach` it, attach the file again with --no-dedup --keep-metadata, and sync",
                code: .damaged)
        case VaultError.attachmentMissing:
            return ErrorReport(
                message: "\(subject) is not in the vault; \(outcome)",
                hint: "if the vault syncs, `diary sync` fetches it; else `diary verify`", code: .damaged)
        case _ where failure.outputIncomplete:
            let cause = ErrorReport(failure.underlying)?.message ?? "\(failure.underlying)"
            return ErrorReport(
                message: "\(subject) could not be read to its end (\(cause)); \(outcome)",
                hint: nil, code: .damaged)
        default:
            return ErrorReport(failure.underlying)
        }
    }

    /// Attachment errors outside `open` and `extract` (a file refused while attaching).
    static func report(_ error: AttachmentError) -> ErrorReport {
        switch error {
        case .empty: return ErrorReport(message: "a file is empty; nothing was stored", hint: nil, code: .inputRefused)
        case .tooLarge(let limit):
            return ErrorReport(
                message: "a file is larger than \(limit >> 30) GiB, the limit of an attachment; nothing was stored",
                hint: nil, code: .inputRefused)
        case .damaged(let object, let reason):
            return ErrorReport(
                message: "attachment object \(object.uuidString.lowercased()) is damaged (\(words(reason)))",
                hint: "run `diary verify` to list all damage", code: .damaged)
        }
    }

    static func words(_ kind: FileKind) -> String {
        switch kind {
        case .directory: return "a directory"
        case .fifo: return "a FIFO (named pipe)"
        case .socket: return "a socket"
        case .device: return "a device"
        case .symbolicLink: return "a symbolic link"
        case .other: return "a special file"
        }
    }

    static func words(_ reason: AttachmentDamage) -> String {
        switch reason {
        case .invalidRecord: return "its record is invalid"
        case .wrongLength(let expected, let actual): return "\(actual) bytes stored where \(expected) were expected"
        case .wrongPrefix: return "wrong version or kind"
        case .chunkRefused(let chunk): return "chunk \(chunk) failed authentication"
        case .wrongTag(let chunk): return "chunk \(chunk) has the wrong tag"
        case .badPadding: return "bad padding"
        case .hashMismatch: return "its stored bytes do not match their hash"
        }
    }
}
