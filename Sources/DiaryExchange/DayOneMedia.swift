import Foundation

/// Day One's media in a `.zip` export: what an entry lists (`photos`, `videos`, `audios`,
/// `pdfAttachments`, each object with an `identifier`, an `md5` and a `type` or `format`) and
/// the file the archive keeps for each, at `<folder>/<md5>.<type>`.
///
/// Read leniently: these fields were ignored before attachments existed, so a malformed media
/// object is counted as missing, never a reason to refuse the import. The md5 must be hex and
/// the type alphanumeric, so no name from the JSON can reach outside the media folders.
struct DayOneMedia {
    enum Kind: CaseIterable {
        case photo, video, audio, pdf

        /// The entry's array.
        var key: String {
            switch self {
            case .photo: return "photos"
            case .video: return "videos"
            case .audio: return "audios"
            case .pdf: return "pdfAttachments"
            }
        }

        /// The archive's folder.
        var folder: String {
            switch self {
            case .photo: return "photos"
            case .video: return "videos"
            case .audio: return "audios"
            case .pdf: return "pdfs"
            }
        }

        /// What the text calls it (the placeholder's noun, as `DayOneText` words it).
        var noun: String {
            switch self {
            case .photo: return DayOneText.placeholderNoun("photo")
            case .video: return DayOneText.placeholderNoun("video")
            case .audio: return DayOneText.placeholderNoun("audio")
            case .pdf: return DayOneText.placeholderNoun("pdf")
            }
        }

        /// The start of an attachment's name: `photo-1.jpeg`.
        var stem: String { self == .pdf ? "document" : String(folder.dropLast()) }
    }

    /// What one entry brings: its attachments, the text each reference becomes (by identifier,
    /// uppercased), and how many listed objects the archive does not hold.
    struct Found {
        var attachments: [ImportAttachment] = []
        var replacements: [String: String] = [:]
        var missing = 0
    }

    let archiveURL: URL
    /// `folder/md5` (lowercased) → the first member's path (by name) with that stem.
    private let paths: [String: String]
    private let memberPaths: Set<String>

    init(archive: ZipArchive, url: URL) {
        archiveURL = url
        var paths: [String: String] = [:]
        let folders = Set(Kind.allCases.map(\.folder))
        for member in archive.members.sorted(by: { $0.path < $1.path }) {
            let parts = member.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, folders.contains(String(parts[0])), let dot = parts[1].lastIndex(of: ".") else {
                continue
            }
            let key = String(parts[0]) + "/" + parts[1][..<dot].lowercased()
            if paths[key] == nil { paths[key] = member.path }
        }
        self.paths = paths
        memberPaths = Set(archive.members.map(\.path))
    }

    /// The media `fields` lists, found in the archive and named `photo-1.jpeg`, `video-1.mov`,
    /// `audio-1.m4a`, `document-1.pdf` (numbered per kind in the order listed).
    func find(in fields: JSONFields) -> Found {
        var found = Found()
        for kind in Kind.allCases {
            guard let node = fields.members[kind.key], case .array(let items) = node.value else { continue }
            var number = 0
            for item in items {
                guard let (identifier, path, ext) = locate(item, kind) else {
                    found.missing += 1
                    continue
                }
                number += 1
                let name = "\(kind.stem)-\(number)" + (ext.isEmpty ? "" : "." + ext)
                found.attachments.append(
                    ImportAttachment(
                        location: .zipMember(archive: archiveURL, path: path), name: name,
                        mediaType: MediaType.sniff(prefix: [], fileName: name)))
                if let identifier { found.replacements[identifier.uppercased()] = "[\(kind.noun): \(name)]" }
            }
        }
        return found
    }

    /// The identifier, member path and lowercase extension of one media object; nil when it
    /// is malformed or the archive does not hold its file.
    private func locate(_ item: JSONNode, _ kind: Kind) -> (String?, String, String)? {
        guard case .object(let object) = item.value, let md5 = Self.string(object["md5"]),
            !md5.isEmpty, md5.count <= 64, md5.allSatisfy(\.isHexDigit)
        else { return nil }
        let type = (Self.string(object["type"]) ?? Self.string(object["format"]))?.lowercased()
        let validType = type.flatMap { t in
            !t.isEmpty && t.count <= 10 && t.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? t : nil
        }
        let exact = validType.map { kind.folder + "/" + md5 + "." + $0 }
        let path: String
        if let exact, memberPaths.contains(exact) {
            path = exact
        } else if let any = paths[kind.folder + "/" + md5.lowercased()] {
            path = any
        } else {
            return nil
        }
        let ext = MediaType.fileExtension(path) ?? ""
        return (Self.string(object["identifier"]), path, ext)
    }

    private static func string(_ node: JSONNode?) -> String? {
        guard let node, case .string(let s) = node.value else { return nil }
        return s
    }
}
