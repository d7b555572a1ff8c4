import DiaryApp
import DiaryVault
import Foundation

extension New {
    /// The template `new` starts from: `--template`, else `configured` (a default name from
    /// elsewhere, such as a config file's `template` key), else none.
    static func chosenTemplate(option: String?, configured: String?) -> String? {
        option ?? configured
    }

    /// `diary new --template NAME`: the editor on the expanded template, whatever stdin is.
    /// Returns nil when nothing was stored (saved unchanged or left empty: the user's choice).
    /// Once an entry is stored, the prompt it used joins the template's prompt memory.
    func newFromTemplate(named name: String, in vault: Vault, attaching files: PreparedAttachments?) throws -> Entry? {
        let template = try vault.template(named: name)
        let entryDate = date?.start ?? Date()
        var generator = SystemRandomNumberGenerator()
        let expansion = TemplateExpander.expand(
            template, date: entryDate, in: DateOutput.context, using: &generator)
        let intent = EditIntent.newEntry(
            date: entryDate, dateIsDay: date?.isDay ?? false, tags: tags, starred: star)
        let stored = try Editor.edit(
            expansion.text, limit: Vault.maximumTextBytes, owner: .init(vault: vault.id, entry: nil), intent: intent
        ) { body in
            body == expansion.text || EntryText.isBlank(body) ? nil : try store(body, in: vault, attaching: files)
        }
        guard let stored else {
            Output.note("the template was left unchanged or empty; nothing was stored")
            return nil
        }
        if expansion.recentPrompts != template.recentPrompts {
            do {
                try vault.updateTemplate(template.id, recentPrompts: expansion.recentPrompts)
            } catch {
                // The entry is stored; only the memory of prompts used is not.
                Output.warning(
                    "the prompt used was not remembered: " + (ErrorReport(error)?.message ?? "\(error)"))
            }
        }
        return stored
    }
}
