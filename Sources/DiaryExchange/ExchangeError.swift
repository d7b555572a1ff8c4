import DiaryVault
import Foundation

/// What can go wrong reading an import or writing an export.
///
/// Messages are lowercase and name the file and, inside it, the entry (its position, counted
/// from 1, and the id the file gives it, such as a Day One uuid) or the line. They never quote
/// entry text or titles: those are diary plaintext, and error messages may end up in logs.
public enum ExchangeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(file: String, detail: String)
    case tooLarge(file: String, bytes: Int, limit: Int)
    case invalidUTF8(file: String, line: Int)
    /// A zip archive that breaks its own structure, or a member that is damaged or cannot be
    /// read (encrypted, an unsupported compression method).
    case malformedArchive(file: String, detail: String)
    case malformedJSON(file: String, line: Int, detail: String)
    /// The file is JSON but not the expected kind of export (for example no `entries` array).
    case notAnExport(file: String, expected: String, detail: String)
    case unsupportedVersion(file: String, found: Int, supported: Int)
    /// One entry breaks the schema: a required field is missing, has the wrong type, or holds an
    /// invalid date.
    case invalidEntry(file: String, entry: Int, id: String?, detail: String)
    case invalidFrontMatter(file: String, line: Int, detail: String)
    /// A Markdown file has neither a `date:` in its front matter nor a date in its name.
    case noDate(file: String)
    /// An imported photo starts as a JPEG but is broken or cut short: its metadata cannot be
    /// removed (`--keep-metadata` imports it as it is). `file` names it (in its zip, if any).
    case malformedJPEG(file: String)
    /// Nothing to read: a directory without `*.md` files, or a .zip without a .json file.
    case noInput(path: String, detail: String)
    /// An export never overwrites a file.
    case outputExists(path: String)
    case writeFailed(path: String, detail: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let detail): return "\(file): cannot be read (\(detail))"
        case .tooLarge(let file, let bytes, let limit):
            return "\(file): \(bytes) bytes is too large to import; the limit is \(limit) bytes"
        case .invalidUTF8(let file, let line): return "\(file): line \(line) is not valid utf-8"
        case .malformedArchive(let file, let detail): return "\(file): not a valid zip archive (\(detail))"
        case .malformedJSON(let file, let line, let detail): return "\(file): line \(line): malformed json (\(detail))"
        case .notAnExport(let file, let expected, let detail):
            return "\(file): not a \(expected) export (\(detail))"
        case .unsupportedVersion(let file, let found, let supported):
            return "\(file): export version \(found) is not supported; this diary reads version \(supported)"
        case .invalidEntry(let file, let entry, let id, let detail):
            let name = id.map { "entry \(entry) (\($0))" } ?? "entry \(entry)"
            return "\(file): \(name): \(detail)"
        case .invalidFrontMatter(let file, let line, let detail): return "\(file): line \(line): \(detail)"
        case .noDate(let file):
            return "\(file): no date (give 'date:' in the front matter or start the file name with YYYY-MM-DD)"
        case .malformedJPEG(let file):
            return "\(file): starts as a JPEG but is broken or cut short, so its metadata cannot be removed"
        case .noInput(let path, let detail): return "\(path): \(detail)"
        case .outputExists(let path): return "\(path) already exists; an export never overwrites a file"
        case .writeFailed(let path, let detail): return "\(path): cannot be written (\(detail))"
        }
    }
}
