import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// `diary template edit NAME`.
struct TemplateEdit: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a template's text in your editor.",
        discussion: """
            Opens the template's text as written (placeholders and prompt list included). Saving \
            it unchanged, or leaving it empty, changes nothing (status 0). The prompt memory \
            stays: prompts used lately are still avoided. A text `template add` would refuse \
            is refused here too; on a terminal, diary names the problem and offers to reopen \
            the editor on the text you saved.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The template's name.", completion: EntryCompletion.templates)
    var name: String

    func run() throws {
        let vault = try global.session().openVault()
        let template = try vault.template(named: name)
        let text: String
        switch try TemplateInput.edit(template.text, owner: .init(vault: vault.id, entry: nil)) {
        case .text(let saved): text = saved
        case .empty: return Output.note("the template was left empty; nothing was changed")
        case .unchanged: return Output.note("the template is unchanged")
        }
        try vault.updateTemplate(template.id, text: text)
        Output.note("changed template \"\(template.name)\"")
    }
}

/// `diary template remove NAME`.
struct TemplateRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Delete a template.",
        discussion: """
            Asks for confirmation on the terminal. Without a terminal (scripts, pipes) --yes is \
            required; otherwise nothing is deleted and the exit status is 64. Entries written \
            from the template stay. On a synced vault, the next sync deletes it on every machine.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The template's name.", completion: EntryCompletion.templates)
    var name: String

    @Flag(help: "Do not ask.")
    var yes = false

    func run() throws {
        let session = global.session()
        let vault = try session.openVault()
        let template = try vault.template(named: name)
        let shown = Printable.escaped(template.name)
        try confirmDestructive(
            "deleting template \"\(shown)\"", question: "Delete template \"\(shown)\"?", yes: yes)
        try session.deleteTemplate(template.id, from: vault)
        Output.note("deleted template \"\(template.name)\"")
    }
}
