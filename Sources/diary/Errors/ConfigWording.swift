import DiaryApp
import Foundation

/// The words for `ConfigError` and `ConfigValueProblem`.
///
/// A refused value or name typed on the command line is a usage error (64); a config file that
/// cannot be read or holds a bad value fails with 1, naming the file and the line.
enum ConfigWording {
    static func report(_ error: ConfigError) -> ErrorReport {
        switch error {
        case .syntax(let path, let line, let column, let detail):
            return fileReport(path, line, "not valid TOML at column \(column): \(detail)")
        case .unknownKey(let path, let key, let line):
            return fileReport(path, line, "unknown key '\(key)'", hint: knownKeys)
        case .badValue(let path, let key, _, let problem) where path.isEmpty:
            return ErrorReport(
                message: "bad value for '\(key)': \(describe(problem))", hint: hint(for: problem), code: .usage)
        case .badValue(let path, let key, let line, let problem):
            return fileReport(path, line, "bad value for '\(key)': \(describe(problem))", hint: hint(for: problem))
        case .notText(let path):
            return fileReport(path, nil, "not UTF-8 text (or holds a NUL byte)")
        case .tooLarge(let path, let limit):
            return fileReport(path, nil, "larger than \(limit / 1024) KiB; a config file is a few lines")
        case .notRegularFile(let path):
            return fileReport(path, nil, "not a regular file (a FIFO, a socket, a device or a directory)")
        case .danglingLink(let path, let target):
            return fileReport(
                path, nil, "a symbolic link to \(target), which does not exist",
                hint: "make that file, or remove the link; diary writes through a link, never over it")
        case .io(let path, let code):
            return ErrorReport(message: "\(path): \(String(cString: strerror(code)))", hint: nil, code: .failure)
        case .unknownSettingName(let name):
            return ErrorReport(message: "unknown setting '\(name)'", hint: knownKeys, code: .usage)
        case .unknownJournal(let name, let known):
            let list = known.isEmpty ? "none is registered yet" : "known: " + known.joined(separator: ", ")
            return ErrorReport(
                message: "no journal named '\(name)' (\(list))",
                hint: "`diary journal add \(name) PATH` registers one", code: .usage)
        case .badJournalName(let name):
            return ErrorReport(
                message: "'\(name)' is not a journal name", hint: describe(.badName), code: .usage)
        case .journalExists(let name, let path):
            return ErrorReport(
                message: "the journal '\(name)' is already registered, at \(path)",
                hint: "`diary journal remove \(name)` forgets it (its vault is kept)", code: .usage)
        case .vaultAndJournal:
            return ErrorReport(
                message: "--vault and -j/--journal both name the vault; give one", hint: nil, code: .usage)
        }
    }

    static let knownKeys =
        "the keys: " + ConfigKey.allCases.map(\.rawValue).joined(separator: ", ") + ", journals.NAME"

    private static func fileReport(_ path: String, _ line: Int?, _ what: String, hint: String? = nil) -> ErrorReport {
        let place = line.map { "\(path), line \($0)" } ?? path
        return ErrorReport(
            message: "config file \(place): \(what)",
            hint: hint ?? "fix the file, or see `diary config --help`", code: .failure)
    }

    static func describe(_ problem: ConfigValueProblem) -> String {
        switch problem {
        case .empty: "it is empty"
        case .controlCharacter: "it holds a control or invisible format character (a newline, a bidi override)"
        case .notOneOf(let words): "it must be one of: " + words.joined(separator: ", ")
        case .badDuration: "not a duration (90s, 15m, 8h, 1h30m; at most 30 days)"
        case .badName: "a name is letters, digits, - and _ (at most 64), starting with a letter or digit"
        case .badTemplateName: "a template's name has no white space at either end and at most 200 bytes"
        case .badDatePattern: "the date pattern prints nothing (see DateFormatter.dateFormat: yyyy-MM-dd HH:mm)"
        case .relativePath: "a journal's path must be absolute or start with ~/"
        case .unknownJournal: "no journal of that name is in [journals]"
        case .wrongType(let expected): "it must be a \(expected)"
        }
    }

    private static func hint(for problem: ConfigValueProblem) -> String? {
        switch problem {
        case .unknownJournal: "`diary journal add NAME PATH` registers a journal; `diary journal list` shows them"
        default: nil
        }
    }
}
