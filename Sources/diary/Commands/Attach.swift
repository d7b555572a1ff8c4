import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary attach`: add files to an entry.
struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Attach files to an entry.",
        usage: "diary attach [<options>] <id> <files> ...",
        discussion: """
            Each file is sealed like an entry's text (its own key, in 64 KiB chunks that are \
            each authenticated) and added to entry ID under its base name, or under --name \
            (only with one file). A name the entry has already (up to letter case) is refused: \
            give the new file another with --name. All the files are added in one change: if \
            one is refused, none is stored.

            Only regular files are attached: a directory, a FIFO, a socket or a device is \
            refused, so is a missing, unreadable or empty file, one larger than 4 GiB, and a \
            file that changes while it is read (status 67). An entry holds at most 255 \
            attachments. A file whose name is not UTF-8 needs --name.

            PHOTO METADATA: a JPEG's EXIF (camera, time, GPS position, thumbnail), XMP, IPTC \
            and comments are removed before sealing, without re-encoding the image, and so is \
            whatever follows the image (the extra pictures phones append, each with its own \
            EXIF, or a motion photo's video); stderr says what was removed. --keep-metadata \
            stores the file byte for byte. A JPEG that is broken or cut short is refused \
            unless --keep-metadata is given. Other files are stored as they are.

            DEDUP: a file identical to one already stored is stored once and shared. Someone \
            who can make you attach a file can then learn whether you had it (SECURITY.md); \
            --no-dedup stores this file on its own.

            EXAMPLE
              diary attach 1b4e ~/Pictures/heron.jpg
              diary attach 1b4e scan.pdf --name letter-from-anna.pdf
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    @Argument(help: "The files to attach.", completion: .file())
    var files: [String] = []

    @Option(help: ArgumentHelp("The attachment's name (only with one file).", valueName: "name"))
    var name: String?

    @OptionGroup var flags: AttachFlags

    func validate() throws {
        if files.isEmpty { throw ValidationError("give the files to attach") }
        if name != nil && files.count != 1 { throw ValidationError("--name names one file; give one file with it") }
        if let name, String(validating: RawArguments.bytes(of: name), as: UTF8.self) == nil {
            throw ValidationError("the --name given is not UTF-8; an attachment's name must be")
        }
    }

    func run() throws {
        let vault = try global.session().openVault()
        let entryID = try vault.resolve(id.lowercased())
        let paths = RawArguments.bytes(of: files)
        let prepared = try PreparedAttachments(
            paths.map { FileToAttach(pathBytes: $0, name: name) }, options: flags.options)
        let entry = try vault.attach(prepared.inputs, to: entryID)
        AttachFlags.report(prepared)
        let count = files.count == 1 ? "1 file" : "\(files.count) files"
        Output.note("attached \(count) to \(EntryFormat.shortID(entry.id))")
    }
}
