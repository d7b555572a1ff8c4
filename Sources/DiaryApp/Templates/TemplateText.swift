import DiaryVault
import Foundation

/// A template's text cut in two: the body `diary new --template` expands, and the prompt list
/// `{prompt}` chooses from: every line that is not blank after a line reading `---prompts---`
/// (white space around it aside). The first such line starts the list; it and the list are not
/// part of the body.
public struct TemplateText: Equatable, Sendable {
    public static let promptsMarker = "---prompts---"

    public let body: String
    /// Trimmed, in order, duplicates kept once.
    public let prompts: [String]
    /// The line, counted from 1 in the whole text, of the first prompt that cannot be
    /// remembered (see `invalidPrompt`), so that a refusal can point at it.
    public let invalidPromptLine: Int?

    public init(parsing text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let marker = lines.firstIndex(where: { Self.trimmed($0) == Self.promptsMarker }) else {
            body = text
            prompts = []
            invalidPromptLine = nil
            return
        }
        body = lines[..<marker].joined(separator: "\n")
        invalidPromptLine = lines.indices.dropFirst(marker + 1).first { index in
            let prompt = Self.trimmed(lines[index])
            return !prompt.isEmpty && !TemplateName.isValidPrompt(prompt)
        }.map { $0 + 1 }
        var seen = Set<String>()
        prompts = lines[(marker + 1)...].map(Self.trimmed).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The first prompt line that cannot be remembered (longer than
    /// `TemplateName.maximumPromptBytes`, or holding a control character), if any: such a
    /// template is refused when it is written, so a pick never fails later.
    public var invalidPrompt: String? { prompts.first { !TemplateName.isValidPrompt($0) } }

    private static func trimmed(_ line: Substring) -> String {
        line.trimmingCharacters(in: .whitespaces)
    }
}

/// What `diary new --template` starts the editor from, and the prompt memory to store once the
/// entry is stored.
public struct TemplateExpansion: Equatable, Sendable {
    public let text: String
    /// The prompt `{prompt}` became; nil when the body has no `{prompt}` or there is no list.
    public let prompt: String?
    /// The template's prompt memory after this choice (unchanged when `prompt` is nil).
    public let recentPrompts: [String]
}

/// Expands a template's placeholders.
///
/// `{date}`, `{time}` and `{weekday}` are the entry's date in the user's locale (as `list` and
/// `show` print dates); `{prompt}` is one line of the prompt list, the same line wherever it
/// appears. `{{` is a literal `{` (so `{{date}` gives `{date}`). Anything else in braces, a
/// `{prompt}` without a prompt list, and a `{` without its `}` stay as written: a template
/// never fails to expand.
public enum TemplateExpander {
    /// How many of the prompts used last a new choice avoids.
    public static let remembered = 3

    public static func expand(
        _ template: Template, date: Date, in context: LocaleCalendar, using generator: inout some RandomNumberGenerator
    ) -> TemplateExpansion {
        let parsed = TemplateText(parsing: template.text)
        let wantsPrompt = parsed.body.contains("{prompt}")
        let prompt =
            wantsPrompt ? choosePrompt(parsed.prompts, avoiding: template.recentPrompts, using: &generator) : nil
        let values: [String: String] = [
            "date": context.formatter(template: LocaleCalendar.dayTemplate).string(from: date),
            "time": context.formatter(template: LocaleCalendar.timeTemplate).string(from: date),
            "weekday": weekday(of: date, in: context),
        ].merging(prompt.map { ["prompt": $0] } ?? [:]) { a, _ in a }
        let memory = prompt.map { remember($0, in: template.recentPrompts) } ?? template.recentPrompts
        return TemplateExpansion(text: substitute(parsed.body, values), prompt: prompt, recentPrompts: memory)
    }

    /// A prompt chosen at random among those not used last: every remembered one is avoided
    /// while any other is left; when the list is shorter, the oldest remembered are allowed
    /// again first. Nil for an empty list.
    public static func choosePrompt(
        _ prompts: [String], avoiding recent: [String], using generator: inout some RandomNumberGenerator
    ) -> String? {
        guard !prompts.isEmpty else { return nil }
        var avoided = Array(recent.prefix(remembered))
        while true {
            let candidates = prompts.filter { !avoided.contains($0) }
            if !candidates.isEmpty { return candidates.randomElement(using: &generator) }
            avoided.removeLast()
        }
    }

    /// The memory after `prompt` was used: it first, then the others, `remembered` in all.
    public static func remember(_ prompt: String, in recent: [String]) -> [String] {
        Array(([prompt] + recent.filter { $0 != prompt }).prefix(remembered))
    }

    private static func weekday(of date: Date, in context: LocaleCalendar) -> String {
        let formatter = context.formatter()
        formatter.dateFormat = "EEEE"
        return formatter.string(from: date)
    }

    /// One pass over the text: a replaced value is never scanned again, so a prompt holding
    /// `{date}` stays as written.
    static func substitute(_ text: String, _ values: [String: String]) -> String {
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            let after = rest[rest.index(after: open)...]
            if after.first == "{" {
                out += "{"
                rest = after.dropFirst()
                continue
            }
            if let close = after.firstIndex(of: "}"), let value = values[String(after[..<close])] {
                out += value
                rest = after[after.index(after: close)...]
            } else {
                out += "{"
                rest = after
            }
        }
        return out + rest
    }
}
