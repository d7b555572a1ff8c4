import ArgumentParser
import DiaryApp
import DiaryVault

/// `diary tag`: add and remove tags.
struct Tag: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag",
        abstract: "Add or remove an entry's tags.",
        usage: "diary tag [<options>] <id> [<change> ...]",
        discussion: """
            +TAG adds a tag, -TAG removes one; a bare TAG adds. A leading # is optional. Letter \
            case does not make another tag: +WALK adds nothing to an entry tagged walk, and \
            -WALK removes walk. A tag has no spaces. Prints the resulting tags on stderr.

            EXAMPLE
              diary tag 1b4e +travel +family -draft
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The entry's id or id prefix.", completion: EntryCompletion.ids)
    var id: String

    // `.allUnrecognized` because `-draft` would otherwise be taken for an unknown option.
    @Argument(
        parsing: .allUnrecognized, help: ArgumentHelp("+TAG to add, -TAG to remove.", valueName: "change"),
        completion: EntryCompletion.tagChanges)
    var changes: [String] = []

    func validate() throws {
        guard !changes.isEmpty else { throw ValidationError("give at least one +TAG or -TAG") }
        for change in changes where Tags.clean(String(change.drop { $0 == "+" || $0 == "-" })).isEmpty {
            throw ValidationError("'\(change)' names no tag")
        }
        // Removing takes any spelling (an older diary stored tags with spaces); adding does not.
        for change in changes where !change.hasPrefix("-") {
            try Tags.validate(String(change.dropFirst(change.first == "+" ? 1 : 0)))
        }
    }

    func run() throws {
        let vault = try global.session().openVault()
        let entryID = try vault.resolve(id.lowercased())
        var tags = try vault.entry(entryID).tags
        for change in changes {
            let name = Tags.clean(String(change.dropFirst(change.first == "+" || change.first == "-" ? 1 : 0)))
            // Tags differ by more than letter case (`-walk` removes `Walk`; `+WALK` adds nothing to it).
            if change.hasPrefix("-") {
                tags.removeAll { EntryText.sameTag($0, name) }
            } else if !tags.contains(where: { EntryText.sameTag($0, name) }) {
                tags.append(name)
            }
        }
        let updated = try vault.update(entryID, tags: tags)
        let shown = updated.tags.isEmpty ? "no tags" : updated.tags.map { "#\($0)" }.joined(separator: " ")
        Output.note("\(EntryFormat.shortID(entryID)): \(shown)")
    }
}
