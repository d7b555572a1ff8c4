import Foundation

/// A setting as `diary config` names it: a `ConfigKey` (`unlock.timeout`) or a named journal
/// (`journals.work`).
public enum ConfigSettingName: Equatable, Sendable {
    case key(ConfigKey)
    case journal(String)

    /// `text` as a setting's name, or `ConfigError.unknownSettingName`.
    public init(_ text: String) throws(ConfigError) {
        if let key = ConfigKey(rawValue: text) {
            self = .key(key)
        } else if text.hasPrefix("journals."), JournalName.isValid(String(text.dropFirst("journals.".count))) {
            self = .journal(String(text.dropFirst("journals.".count)))
        } else {
            throw .unknownSettingName(text)
        }
    }

    public var text: String {
        switch self {
        case .key(let key): key.rawValue
        case .journal(let name): "journals." + name
        }
    }
}

extension DiaryConfig {
    /// The value of the setting `name`, if set.
    public func value(of name: ConfigSettingName) -> String? {
        switch name {
        case .key(let key): self[key]
        case .journal(let journal): journals[journal]
        }
    }

    /// Sets `name` to `value`, or refuses the value with `ConfigError.badValue` (no line: it
    /// came from the command line). A journal given a new path keeps its name.
    public mutating func set(_ name: ConfigSettingName, to value: String) throws(ConfigError) {
        switch name {
        case .key(let key):
            if let problem = set(key, to: value) {
                throw .badValue(path: "", key: name.text, line: nil, problem: problem)
            }
        case .journal(let journal):
            if journals[journal] != nil { _ = try removeJournal(journal, keepingDefault: true) }
            try addJournal(journal, path: value)
        }
    }

    /// Forgets `name`; true if it was set. Forgetting the default journal's entry also forgets
    /// the default, which would otherwise name nothing.
    public mutating func unset(_ name: ConfigSettingName) -> Bool {
        switch name {
        case .key(let key): unset(key)
        case .journal(let journal): (try? removeJournal(journal)) != nil
        }
    }

    /// Every setting that is set, as `diary config list` prints them: the keys in `ConfigKey`
    /// order, then the journals by name.
    public var listing: [(name: String, value: String)] {
        ConfigKey.allCases.compactMap { key in self[key].map { (key.rawValue, $0) } }
            + journalNames.map { ("journals." + $0, journals[$0]!) }
    }
}
