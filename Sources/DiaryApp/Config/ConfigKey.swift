import DiaryVault
import Foundation

/// A setting of the config file, by the name `diary config` and the file use.
///
/// The scalar settings are the cases; a named journal is `journals.NAME` (`ConfigKey.Path`).
public enum ConfigKey: String, CaseIterable, Sendable {
    case journal
    case store
    case editor
    case unlockTimeout = "unlock.timeout"
    case unlockMax = "unlock.max"
    case template
    case color
    case dateFormat = "date.format"

    /// The key's path in the TOML document (`["unlock", "timeout"]`).
    var path: [String] { rawValue.split(separator: ".").map(String.init) }

    /// `value` as this setting holds it, or why it cannot be (`ConfigValueProblem`).
    ///
    /// Checked the same way when the file is read and when `diary config set` writes, so a
    /// value that was accepted once is accepted on every read.
    public func check(_ value: String) -> ConfigValueProblem? {
        if value.isEmpty { return .empty }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .controlCharacter
        }
        switch self {
        case .journal:
            return JournalName.isValid(value) ? nil : .badName
        case .template:
            return TemplateNameRule.isValid(value) ? nil : .badTemplateName
        case .store:
            return StoreKind(rawValue: value) == nil ? .notOneOf(StoreKind.allCases.map(\.rawValue)) : nil
        case .editor:
            return value.trimmingCharacters(in: .whitespaces).isEmpty ? .empty : nil
        case .unlockTimeout, .unlockMax:
            return TimeSpan(parsing: value) == nil ? .badDuration : nil
        case .color:
            return ColorSetting(rawValue: value) == nil ? .notOneOf(ColorSetting.allCases.map(\.rawValue)) : nil
        case .dateFormat:
            // `list` prints it: a bidi override would reorder the line around it.
            if value.unicodeScalars.contains(where: TemplateName.isHidden) { return .controlCharacter }
            return DatePattern.isUsable(value) ? nil : .badDatePattern
        }
    }
}

/// What is wrong with a setting's value.
public enum ConfigValueProblem: Equatable, Sendable {
    /// An empty string.
    case empty
    /// A control character (a newline, an escape) inside, or for `date.format` a format one
    /// (a bidi override: `TemplateName.isHidden`).
    case controlCharacter
    /// Not one of these words.
    case notOneOf([String])
    /// Not a duration `diary unlock` accepts (90s, 15m, 8h, 1h30m; at most 30 days).
    case badDuration
    /// Not a name: letters, digits, `-` and `_`, at most 64, starting with a letter or digit.
    case badName
    /// Not a template's name: empty, white space at an end, a control character, or too long.
    case badTemplateName
    /// A date pattern that formats a date as nothing.
    case badDatePattern
    /// A journal's path that is neither absolute nor under `~/`.
    case relativePath
    /// The default journal is not among `[journals]`.
    case unknownJournal
    /// A TOML value of another type (a number where a string belongs); `expected` names it.
    case wrongType(expected: String)
}

/// `color`: when diary colours its output.
public enum ColorSetting: String, CaseIterable, Sendable {
    /// On a terminal, unless `NO_COLOR` is set or `TERM` is `dumb` (the default).
    case auto
    /// Always, into a pipe too and whatever `NO_COLOR` says: the user asked in their own config.
    case always
    /// Never.
    case never
}

/// The name of a journal or a template, as it may appear as a bare TOML key and on a command
/// line without quoting.
public enum JournalName {
    public static let maximumLength = 64

    /// Letters and digits (ASCII), `-` and `_`; starts with a letter or a digit; 1 to 64 long.
    /// No `.`, so a name is a bare TOML key as it is, never a dotted one.
    public static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= maximumLength else { return false }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        return name.unicodeScalars.allSatisfy(allowed.contains) && first != "-" && first != "_"
    }
}

/// `template`: a name as a template in the vault may have one (the same rule as the vault's own
/// for a template's name): not empty, no white space at either end, no control character, at
/// most 200 UTF-8 bytes. Whether such a template exists is `new`'s to say, with the vault open.
public enum TemplateNameRule {
    public static let maximumBytes = TemplateName.maximumBytes

    public static func isValid(_ name: String) -> Bool { TemplateName.isValid(name) }
}

/// `date.format`: a pattern in the syntax of Foundation's `DateFormatter.dateFormat`.
public enum DatePattern {
    /// True when the pattern formats a date as a non-empty string (a pattern of only quotes,
    /// `''`, would print nothing where the date belongs).
    public static func isUsable(_ pattern: String) -> Bool {
        guard pattern.count <= 200 else { return false }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = pattern
        let text = formatter.string(from: Date(timeIntervalSince1970: 1_700_000_000))
        return !text.trimmingCharacters(in: .whitespaces).isEmpty
    }
}
