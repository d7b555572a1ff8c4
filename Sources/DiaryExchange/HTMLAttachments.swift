import DiaryCrypto
import DiaryMarkdown
import DiaryVault
import Foundation

/// An entry's attachments in the HTML export: each image the browser shows (JPEG, PNG, GIF,
/// WebP) inline as a `data:` URI, streamed from the vault and encoded as it comes, so the page
/// stays one self-contained file; every other file named in a list, never linked (the page
/// loads nothing, and a link to a local file would lead nowhere).
enum HTMLAttachments {
    static let inlineTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/webp"]

    /// Writes the images, then the list of other files, to `output`.
    static func write(_ entry: Entry, from vault: Vault, to output: ExportOutput) throws {
        let images = entry.attachments.filter { inlineTypes.contains($0.mediaType) }
        let others = entry.attachments.filter { !inlineTypes.contains($0.mediaType) }
        for record in images {
            let name = MarkdownHTML.escaped(record.name)
            try put(
                "<figure class=\"attachment\"><img style=\"max-width:100%;height:auto\" alt=\"\(name)\" src=\"data:\(record.mediaType);base64,",
                output)
            var encoder = Base64Stream()
            try vault.readAttachment(record) { piece in try encoder.add(piece, to: output) }
            try encoder.finish(to: output)
            try put("\"><figcaption>\(name)</figcaption></figure>\n", output)
        }
        guard !others.isEmpty else { return }
        var list = "<ul class=\"attachments\">\n"
        for record in others {
            let type = MarkdownHTML.escaped(record.mediaType)
            list +=
                "<li>\(MarkdownHTML.escaped(record.name)) <span class=\"type\">(\(type), \(record.length) bytes)</span></li>\n"
        }
        try put(list + "</ul>\n", output)
    }

    private static func put(_ text: String, _ output: ExportOutput) throws {
        var bytes = Array(text.utf8)
        try output.write(&bytes)
    }
}

/// Base64 of a stream of pieces: whole groups of three bytes are encoded as they come, the
/// one or two left over carried to the next piece.
struct Base64Stream {
    private var carry: [UInt8] = []

    mutating func add(_ piece: UnsafeRawBufferPointer, to output: ExportOutput) throws {
        var bytes = carry + piece
        let whole = bytes.count - bytes.count % 3
        carry = Array(bytes[whole...])
        var encoded = Array(Data(bytes[..<whole]).base64EncodedString().utf8)
        secureZero(&bytes)
        try output.write(&encoded)
    }

    mutating func finish(to output: ExportOutput) throws {
        var encoded = Array(Data(carry).base64EncodedString().utf8)
        carry = []
        try output.write(&encoded)
    }
}
