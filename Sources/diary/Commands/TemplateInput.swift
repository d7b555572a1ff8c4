import DiaryApp
import DiaryVault
import Foundation

/// How `template add` and `template edit` take a text: the checks before anything is stored,
/// and the editor, reopened on a refused text rather than losing it.
enum TemplateInput {
    /// What the editor gave back.
    enum Saved: Equatable {
        case text(String)
        /// Left blank: nothing to store.
        case empty
        /// Saved as it was started from: nothing to store.
        case unchanged
    }

    /// Why `text` cannot be stored as a template, or nil: a prompt line that could not be
    /// remembered (named by its line), then a text too large or blank.
    static func problem(_ text: String) -> Error? {
        if let line = TemplateText(parsing: text).invalidPromptLine {
            return CLIError.invalidPrompt(line: line, limit: TemplateName.maximumPromptBytes)
        }
        do {
            try TextInput.check(text, limit: Vault.maximumTextBytes)
        } catch {
            return error
        }
        return nil
    }

    /// Throws `problem(text)`, if any.
    static func check(_ text: String) throws {
        if let problem = problem(text) { throw problem }
    }

    /// Opens the editor on `original` until the user saves a text `problem` accepts, or leaves
    /// it blank or unchanged.
    ///
    /// A refused text is checked while the editor's file still holds it; on a terminal the
    /// problem is said and the editor reopened on the very text the user saved, if they want.
    /// Without a terminal to ask on, or when they decline, the problem is thrown and the text
    /// wiped: kept for `diary recover`, it would come back as an entry, not as a template.
    static func edit(_ original: String, owner: InterruptedEdits.Owner) throws -> Saved {
        var start = original
        while true {
            let outcome: Outcome = try Editor.edit(
                start, limit: Vault.maximumTextBytes, owner: owner, intent: nil
            ) { saved in
                if EntryText.isBlank(saved) { return .saved(.empty) }
                if saved == original { return .saved(.unchanged) }
                guard let problem = problem(saved) else { return .saved(.text(saved)) }
                guard let tty = TTY.open() else { return .refused(problem) }
                Output.error(ErrorReport(problem)?.message ?? "\(problem)")
                return tty.confirm("Edit the template again?") ? .again(saved) : .declined(problem)
            }
            switch outcome {
            case .saved(let saved): return saved
            case .again(let text): start = text
            case .refused(let problem): throw problem
            // Already said on the terminal: only the status is left to give.
            case .declined(let problem): throw SilentExit(code: ErrorReport(problem)?.code ?? .inputRefused)
            }
        }
    }

    private enum Outcome {
        case saved(Saved)
        case again(String)
        case refused(Error)
        case declined(Error)
    }
}
