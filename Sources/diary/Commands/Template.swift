import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary template`: named texts, sealed in the vault, that `diary new --template` starts from.
struct TemplateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "template",
        abstract: "Keep templates (with prompts) for new entries.",
        discussion: """
            A template is a text `diary new --template NAME` opens in your editor, with its \
            placeholders filled in: {date}, {time} and {weekday} (the entry's date, in your \
            locale, as `list` prints dates) and {prompt}, one line of the template's prompt list, \
            chosen at random but never one of the three used last. The prompt list is every \
            line that is not blank after a line reading ---prompts---; it is not part of the \
            entry. {{ gives a literal {; any other word in braces stays as written.

            Templates are sealed in the vault like entries: encrypted, in backups, and synced. \
            They never appear in list, search, export or any other command about entries. \
            Names are unique, letter case ignored.

            EXAMPLE
              diary template add evening < evening.txt
              diary template list
              diary new --template evening
            """,
        subcommands: [
            TemplateAdd.self, TemplateList.self, TemplateShow.self, TemplateEdit.self, TemplateRemove.self,
        ])
}

/// `diary template add NAME`.
struct TemplateAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a template, from stdin or your editor.",
        discussion: """
            The text comes from stdin when stdin is not a terminal, else from your editor \
            ($VISUAL, else $EDITOR, else vi). Text left empty in the editor stores nothing \
            (status 0); empty stdin stores nothing (status 1). A name another template has \
            (letter case ignored) is refused, as is a name with a control character, white \
            space at either end, or over 200 bytes (status 64). A prompt line over 1024 bytes, or \
            holding a control character, is refused (status 67), and the error names its line; \
            from the editor, diary then offers to reopen it on the text you saved.

            EXAMPLE
              printf '{weekday}\\n\\n{prompt}\\n---prompts---\\nWhat went well?\\nWhat surprised you?\\n' \\
                | diary template add evening
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The new template's name.")
    var name: String

    func validate() throws { try TemplateNames.validate(name) }

    func run() throws {
        let vault = try global.session().openVault()
        // Before the editor opens: a duplicate must fail before the user has written anything.
        if try vault.templates().contains(where: { TemplateName.key($0.name) == TemplateName.key(name) }) {
            throw VaultError.duplicateTemplate(name)
        }
        let text: String
        if TTY.stdinIsTerminal {
            switch try TemplateInput.edit("", owner: .init(vault: vault.id, entry: nil)) {
            case .text(let saved): text = saved
            case .empty, .unchanged: return Output.note("the template was left empty; nothing was stored")
            }
        } else {
            // Refused here, the text is still the user's: it came from stdin.
            text = try StdinText.read(limit: Vault.maximumTextBytes)
            try TemplateInput.check(text)
        }
        let stored = try vault.addTemplate(name: name, text: text)
        Output.note("added template \"\(stored.name)\"")
    }
}

/// `diary template list`.
struct TemplateList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the templates' names.",
        discussion: "One name a line on stdout, sorted (letter case ignored); nothing when there is none.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let vault = try global.session().openVault()
        for template in try vault.templates() { Output.data(Printable.escaped(template.name)) }
    }
}

/// `diary template show NAME`.
struct TemplateShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print a template's text, placeholders and prompt list as written.",
        discussion: """
            On a terminal, control characters are shown escaped, as `diary show` does; into a \
            pipe the text is printed unchanged.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The template's name.", completion: EntryCompletion.templates)
    var name: String

    func run() throws {
        let template = try global.session().openVault().template(named: name)
        // Byte for byte into a pipe, without the newline `Output.data` adds: `template show a |
        // template add b` must store the same text, round after round.
        guard isatty(STDOUT_FILENO) == 1 else { return Output.write(template.text, to: STDOUT_FILENO) }
        let shown = Printable.escaped(template.text, keeping: Printable.layout)
        Output.write(shown.hasSuffix("\n") ? shown : shown + "\n", to: STDOUT_FILENO)
    }
}

/// The check on a template's name, before the vault is opened.
enum TemplateNames {
    static func validate(_ name: String) throws {
        guard TemplateName.isValid(name) else {
            throw ValidationError(VaultError.invalidTemplateName(name, limit: TemplateName.maximumBytes).description)
        }
    }
}
