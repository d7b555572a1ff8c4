import Foundation

/// Why the config file cannot be read or changed, or a setting not used.
///
/// `line` is the 1-based line of the file where the problem is, when it can be found.
public enum ConfigError: Error, Equatable {
    /// The file is not TOML; `detail` is the parser's own description (toml++'s).
    case syntax(path: String, line: Int, column: Int, detail: String)
    /// A key diary does not know (`colour`, `unlock.idle`).
    case unknownKey(path: String, key: String, line: Int?)
    /// A known key with a value it cannot hold; an empty `path` (and no line) when the value
    /// came from the command line (`diary config set`, `diary journal add`), not the file.
    case badValue(path: String, key: String, line: Int?, problem: ConfigValueProblem)
    /// The file is not UTF-8 text, or holds a NUL.
    case notText(path: String)
    /// The file is larger than `limit` bytes (`ConfigFile.maximumSize`).
    case tooLarge(path: String, limit: Int)
    /// The file (`path`, or the file its links end at) is a FIFO, a socket, a device or a
    /// directory, not a regular file.
    case notRegularFile(path: String)
    /// The file is a symbolic link whose chain ends at `target`, which does not exist.
    case danglingLink(path: String, target: String)
    /// The file (or its directory) cannot be read or written; `errno`.
    case io(path: String, errno: Int32)
    /// A key given to `diary config` that diary does not know.
    case unknownSettingName(String)
    /// `-j NAME` or `journal default NAME` with a name not in `[journals]`; `known` lists them.
    case unknownJournal(name: String, known: [String])
    /// A journal name that is not a valid name (`JournalName`).
    case badJournalName(String)
    /// `journal add NAME` with a name already registered, at `path`.
    case journalExists(name: String, path: String)
    /// `--vault` and `-j` together (where only one can name the vault).
    case vaultAndJournal
}
