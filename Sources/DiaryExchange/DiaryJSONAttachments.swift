import DiaryVault
import Foundation

/// An entry's `attachments` in the diary JSON export: what each file is, and where the export
/// wrote it, relative to the JSON file (absent when the export went to stdout, with no files).
///
/// ```
/// "attachments" : [ { "added" : "…Z", "name" : "photo.jpg",
///   "path" : "diary.attachments/<entry id>/photo.jpg", "size" : 1234, "type" : "image/jpeg" } ]
/// ```
/// A path is read strictly: relative, no `.`, `..` or empty part, inside a folder beside the
/// JSON file whose name ends in `.attachments`, and still inside it with every symbolic link
/// resolved; any other path refuses the import.
enum DiaryJSONAttachments {
    static let folderSuffix = ".attachments"

    /// The attachments folder of the export file `file`: its name without the extension, then
    /// `.attachments` (`diary.json` → `diary.attachments`).
    static func folderName(besideFile file: URL) -> String {
        let name = file.lastPathComponent
        let stem = file.pathExtension.isEmpty ? name : String(name.dropLast(file.pathExtension.count + 1))
        return (stem.isEmpty ? name : stem) + folderSuffix
    }

    /// The files an entry's `attachments` member lists (none when it has none), and how many
    /// it lists without a file to import (an export to stdout, or a file not there).
    static func read(_ fields: JSONFields, entry: UUID, jsonFile: URL) throws -> (
        files: [ImportAttachment], missing: Int
    ) {
        guard let node = fields.members["attachments"] else { return ([], 0) }
        guard case .array(let items) = node.value, !items.isEmpty else {
            throw fields.failure("'attachments' is not an array of attachments", at: node)
        }
        var files: [ImportAttachment] = []
        var missing = 0
        for item in items {
            guard case .object(let members) = item.value else {
                throw fields.failure("'attachments' holds \(item.kind), not only objects", at: item)
            }
            let one = JSONFields(members: members, file: fields.file, position: fields.position, line: item.line)
            let name = try one.string("name")
            let type = try one.string("type")
            guard AttachmentName.isValid(name) else {
                throw fields.failure("an attachment's 'name' is invalid", at: item)
            }
            guard AttachmentName.isValidMediaType(type) else {
                throw fields.failure("attachment '\(name)': 'type' is not a media type", at: item)
            }
            guard case .number(let size)? = members["size"]?.value, size >= 1,
                size <= Double(AttachmentLimits.maximumLength), size.rounded() == size
            else { throw fields.failure("attachment '\(name)': 'size' is not a length", at: item) }
            let added = try one.date("added")
            guard let path = try one.optionalString("path") else {
                missing += 1
                continue
            }
            guard let url = try resolve(path, jsonFile: jsonFile, fields: fields, node: item) else {
                missing += 1
                continue
            }
            files.append(
                ImportAttachment(
                    location: .file(url), name: name, mediaType: type, added: added, length: UInt64(size),
                    isVerbatim: true))
        }
        return (files, missing)
    }

    /// The file `path` names, relative to the JSON file; nil when it is not there. Throws for a
    /// path that is not strictly inside an attachments folder beside the JSON file.
    private static func resolve(_ path: String, jsonFile: URL, fields: JSONFields, node: JSONNode) throws -> URL? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts[0].hasSuffix(folderSuffix), !path.contains("\0"),
            parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." })
        else { throw fields.failure("an attachment's 'path' leaves its attachments folder", at: node) }
        let base = jsonFile.deletingLastPathComponent().path
        guard let folder = realPath(base + "/" + parts[0]) else { return nil }
        guard let file = realPath(base + "/" + path) else { return nil }
        // The folder itself must be the one beside the JSON file, not a link to elsewhere (a
        // link to ~/.ssh would otherwise bring any readable file in under a harmless name).
        guard let here = realPath(base), folder == here + "/" + parts[0], file.hasPrefix(folder + "/") else {
            throw fields.failure("an attachment's 'path' leaves its attachments folder", at: node)
        }
        return URL(fileURLWithPath: file)
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
