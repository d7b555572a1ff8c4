import DiaryMarkdown
import DiaryVault
import Foundation

/// The local images a Markdown file links (`![alt](images/photo.png)`), as files to attach.
///
/// Which references count: an image (not a link) in the CommonMark tree, so one inside a code
/// block or a code span is text, not a reference; its destination percent-decoded
/// (`my%20photo.png`). Passed over: anything with a URL scheme (`http:`, `https:`, `data:`,
/// `file:`, …) and any path that does not resolve, symbolic links and `..` included, to a
/// regular file inside the folder that holds the Markdown file (subfolders are fine). So an
/// import never reads a file the imported folder does not hold: `../secret.png`, an absolute
/// path elsewhere, or a link inside the folder that points out of it are all refused alike.
enum MarkdownImages {
    struct Found {
        var attachments: [ImportAttachment] = []
        /// References that look local but do not resolve to a file inside the folder.
        var missing = 0
    }

    /// The files `text` (a Markdown file's text, read from `file`) links as images, each once,
    /// in order of first reference, named by their base name (made unique within the entry).
    static func find(in text: String, file: URL) -> Found {
        var found = Found()
        guard let root = realPath(file.deletingLastPathComponent().path) else { return found }
        var seen: Set<String> = []
        var names: Set<String> = []
        for destination in imageDestinations(Markdown.parse(text)) where !hasScheme(destination) {
            let path = destination.removingPercentEncoding ?? destination
            guard !path.isEmpty, !path.contains("\0"),
                let resolved = realPath(path.hasPrefix("/") ? path : root + "/" + path),
                resolved.hasPrefix(root == "/" ? "/" : root + "/"), isRegularFile(resolved)
            else {
                found.missing += 1
                continue
            }
            guard seen.insert(resolved).inserted else { continue }
            let name = uniqueName(URL(fileURLWithPath: resolved).lastPathComponent, number: seen.count, taken: &names)
            found.attachments.append(
                ImportAttachment(
                    location: .file(URL(fileURLWithPath: resolved)), name: name,
                    mediaType: MediaType.sniff(prefix: [], fileName: name)))
        }
        return found
    }

    /// Every image destination in `blocks`, in document order.
    static func imageDestinations(_ blocks: [MarkdownBlock]) -> [String] {
        var out: [String] = []
        func walk(_ inlines: [MarkdownInline]) {
            for inline in inlines {
                switch inline {
                case .image(let url, let alt):
                    out.append(url)
                    walk(alt)
                case .emphasis(let children), .strong(let children), .link(_, let children): walk(children)
                case .text, .code, .html, .softBreak, .lineBreak: break
                }
            }
        }
        func walk(_ blocks: [MarkdownBlock]) {
            for block in blocks {
                switch block {
                case .paragraph(let inlines), .heading(_, let inlines): walk(inlines)
                case .quote(let children): walk(children)
                case .list(_, _, let items): items.forEach(walk)
                case .code, .html, .thematicBreak: break
                }
            }
        }
        walk(blocks)
        return out
    }

    /// `scheme:` as RFC 3986 spells it (a letter, then letters, digits, `+`, `-`, `.`).
    static func hasScheme(_ destination: String) -> Bool {
        guard let colon = destination.firstIndex(of: ":"), colon != destination.startIndex else { return false }
        let scheme = destination[..<colon]
        return scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `name` when it is a valid attachment name not yet taken (up to case), else `name-2.ext`,
    /// `name-3.ext`, …; `image-N` when the file's own name cannot name an attachment.
    private static func uniqueName(_ name: String, number: Int, taken: inout Set<String>) -> String {
        let base = AttachmentName.isValid(name) ? name : "image-\(number)"
        let ext = MediaType.fileExtension(base).map { "." + $0 } ?? ""
        let stem = ext.isEmpty ? base : String(base.dropLast(ext.count))
        var candidate = base
        var n = 1
        while !taken.insert(AttachmentName.key(candidate)).inserted {
            n += 1
            candidate = "\(stem)-\(n)\(ext)"
            // Too long with the suffix: a name that always fits.
            if !AttachmentName.isValid(candidate) { candidate = "image-\(number)-\(n)\(ext)" }
        }
        return candidate
    }

    /// The path with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
