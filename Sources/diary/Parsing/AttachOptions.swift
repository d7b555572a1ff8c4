import ArgumentParser
import DiaryApp

/// `--keep-metadata` and `--no-dedup`, shared by `new --attach` and `attach`.
struct AttachFlags: ParsableArguments {
    @Flag(help: "Store a JPEG exactly as it is, its EXIF (GPS position included), XMP, IPTC and comments kept.")
    var keepMetadata = false

    @Flag(
        help: "Store the file even when an identical one is stored already (see SECURITY.md on what sharing reveals).")
    var noDedup = false

    var options: AttachOptions { AttachOptions(keepMetadata: keepMetadata, dedup: !noDedup) }

    /// Says on stderr what was removed from each photo.
    static func report(_ prepared: PreparedAttachments) {
        for stripped in prepared.stripped { Output.talk("diary: " + AttachmentLines.removed(stripped)) }
    }
}
