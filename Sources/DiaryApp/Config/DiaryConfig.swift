import DiaryVault
import Foundation

/// The settings of the config file (`$XDG_CONFIG_HOME/diary/config.toml`), each already
/// checked: a `DiaryConfig` holds only values its keys accept.
///
/// It holds no secret and no entry text: paths, names, words and patterns.
public struct DiaryConfig: Equatable, Sendable {
    /// The scalar settings that are set, as typed.
    public private(set) var values: [ConfigKey: String] = [:]
    /// The named journals: name to path (absolute, or `~/…`), as typed.
    public private(set) var journals: [String: String] = [:]

    public init() {}

    /// The value of `key` if set.
    public subscript(key: ConfigKey) -> String? { values[key] }

    /// Sets `key` to `value`, or says why the value is refused (nothing changes then).
    public mutating func set(_ key: ConfigKey, to value: String) -> ConfigValueProblem? {
        if let problem = key.check(value) { return problem }
        if key == .journal, journals[value] == nil { return .unknownJournal }
        values[key] = value
        return nil
    }

    /// Forgets `key`; true if it was set.
    @discardableResult
    public mutating func unset(_ key: ConfigKey) -> Bool { values.removeValue(forKey: key) != nil }

    /// Registers the journal `name` at `path`, or says why not (a name already registered
    /// is refused: `journal remove` it first).
    public mutating func addJournal(_ name: String, path: String) throws(ConfigError) {
        guard JournalName.isValid(name) else { throw .badJournalName(name) }
        if let problem = Self.checkJournalPath(path) {
            throw .badValue(path: "", key: "journals." + name, line: nil, problem: problem)
        }
        if let existing = journals[name] { throw .journalExists(name: name, path: existing) }
        journals[name] = path
    }

    /// Forgets the journal `name` (never its vault); also the default when it was this one.
    /// Returns whether the default was cleared.
    @discardableResult
    public mutating func removeJournal(_ name: String, keepingDefault: Bool = false) throws(ConfigError) -> Bool {
        guard journals.removeValue(forKey: name) != nil else {
            throw .unknownJournal(name: name, known: journalNames)
        }
        guard values[.journal] == name, !keepingDefault else { return false }
        values[.journal] = nil
        return true
    }

    /// Makes `name` the default journal.
    public mutating func setDefaultJournal(_ name: String) throws(ConfigError) {
        guard journals[name] != nil else { throw .unknownJournal(name: name, known: journalNames) }
        values[.journal] = name
    }

    /// The registered names, sorted.
    public var journalNames: [String] { journals.keys.sorted() }

    /// The name the journal at `directory` is registered under, if any (the first in order when
    /// two names share it).
    public func journalName(of directory: URL, environment: DiaryEnvironment) -> String? {
        let path = directory.standardizedFileURL.path
        return journalNames.first { environment.userPath(journals[$0]!).path == path }
    }

    /// A journal's path must be absolute or start with `~/`: a relative one would mean
    /// something else in every directory diary runs in.
    static func checkJournalPath(_ path: String) -> ConfigValueProblem? {
        if path.isEmpty { return .empty }
        if path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .controlCharacter
        }
        return path.hasPrefix("/") || path.hasPrefix("~/") || path == "~" ? nil : .relativePath
    }

    // MARK: Typed values

    /// `store`, for `init` and `sync join` without `--store`.
    public var store: StoreKind? { values[.store].flatMap(StoreKind.init(rawValue:)) }

    /// `unlock.timeout`, for `unlock` without `--timeout`.
    public var unlockTimeout: TimeSpan? { values[.unlockTimeout].flatMap(TimeSpan.init(parsing:)) }

    /// `unlock.max`, for `unlock` without `--max`.
    public var unlockMax: TimeSpan? { values[.unlockMax].flatMap(TimeSpan.init(parsing:)) }

    /// `color`; `auto` when unset.
    public var color: ColorSetting { values[.color].flatMap(ColorSetting.init(rawValue:)) ?? .auto }

    /// `date.format`, for the dates `list` and `show` print.
    public var dateFormat: String? { values[.dateFormat] }

    /// `template`: the template `new` uses without `--template`.
    public var defaultTemplate: String? { values[.template] }

    /// `editor`: see `EditorChoice` for where it stands among the environment's.
    public var editor: String? { values[.editor] }

    /// `journal`: the default journal's name.
    public var defaultJournal: String? { values[.journal] }

    /// Replaces a value while reading (the reader checks it first).
    mutating func load(_ key: ConfigKey, _ value: String) { values[key] = value }

    /// Adds a journal while reading (the reader checks it first).
    mutating func loadJournal(_ name: String, _ path: String) { journals[name] = path }
}
