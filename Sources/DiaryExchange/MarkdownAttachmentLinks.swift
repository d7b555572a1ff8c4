import DiaryVault
import Foundation

/// The lines a Markdown export adds after an entry's text for its attachments: a relative link
/// to each file (`[name](folder/<id>/name)`, an image as `![name](…)`, which the Markdown
/// importer attaches again), or, when the files are not written, each name alone.
enum MarkdownAttachmentLinks {
    /// Nothing for an entry without attachments, so its text is exactly as before.
    static func block(_ entry: Entry, folder: String?) -> String {
        guard !entry.attachments.isEmpty else { return "" }
        var out = ""
        for record in entry.attachments {
            let label = escaped(record.name)
            guard let folder else {
                out += "\n*Attachment: \(label)*\n"
                continue
            }
            let path = ExportAttachmentFolder.path(folder, entry: entry.id, name: record.name)
            let bang = record.mediaType.hasPrefix("image/") ? "!" : ""
            out += "\n\(bang)[\(label)](\(encoded(path)))\n"
        }
        return out
    }

    /// Every ASCII punctuation character backslash-escaped, so a name is text, never markup.
    static func escaped(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            let isPunctuation =
                scalar.value > 0x20 && scalar.value < 0x7F && !scalar.properties.isAlphabetic
                && !("0"..."9").contains(scalar)
            if isPunctuation { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out
    }

    /// The path percent-encoded but for unreserved characters and '/', so a destination never
    /// holds a space, a parenthesis or a bracket (the importer decodes it).
    static func encoded(_ path: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~/")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }
}
