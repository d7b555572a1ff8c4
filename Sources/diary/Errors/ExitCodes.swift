import DiaryApp

/// The exit statuses of `diary`, in one place.
///
/// The numbers follow BSD `sysexits.h` where a meaning matches, so scripts can tell "you typed
/// it wrong" from "the vault is locked" from "the passphrase is wrong". The man page and the
/// guide (docs/GUIDE.md) copy this table; `ExitCodeTests` keeps them honest.
enum ExitCode: Int32, CaseIterable, Sendable {
    /// Success.
    case ok = 0
    /// Any other failure: an I/O error, an editor that failed, an unknown or ambiguous id,
    /// an empty text (nothing stored); and `search` matched nothing (as grep's 1).
    case failure = 1
    /// Usage (`EX_USAGE`): no command at all, a bad option, argument or date, an id that is
    /// not hex, or a confirmation that cannot be asked (no terminal and no `--yes`).
    case usage = 64
    /// Damage (`EX_DATAERR`): `verify` found damage, or a header, entry or backup failed
    /// authentication.
    case damaged = 65
    /// No usable vault (`EX_NOINPUT`): the directory is missing, holds something else, or a
    /// vault of a newer format.
    case noVault = 66
    /// Input refused: the text is not valid UTF-8 or is larger than the 8 MiB limit, an import
    /// file is malformed, or a new passphrase is weak.
    case inputRefused = 67
    /// Would overwrite (`EX_CANTCREAT`): `init` or `restore` onto an existing vault, `backup`
    /// onto an existing file.
    case alreadyExists = 73
    /// Locked with no way to ask (`EX_TEMPFAIL`): no agent (or a busy one), no passphrase file,
    /// no terminal.
    case locked = 75
    /// Wrong passphrase (`EX_NOPERM`).
    case wrongPassphrase = 77

    /// One line per code, for `--help` and the man page.
    var summary: String {
        switch self {
        case .ok: return "success"
        case .failure: return "failure (I/O, editor, unknown/ambiguous id, empty text, search: no match)"
        case .usage: return "usage error (bad option, argument, date or id; confirmation needs --yes)"
        case .damaged: return "damage found (verify) or data failed authentication"
        case .noVault: return "no usable vault (missing, not a vault, newer format)"
        case .inputRefused: return "input refused (not UTF-8, over 8 MiB, bad import file, weak passphrase)"
        case .alreadyExists: return "refused to overwrite an existing vault or file"
        case .locked: return "vault locked (or its agent busy, or a rekey unfinished) and no passphrase"
        case .wrongPassphrase: return "wrong passphrase"
        }
    }

    /// The table as shown at the end of `diary --help`.
    ///
    /// Built on every run (the root command's discussion holds it), so it is plain string
    /// appending: Foundation's `padding(toLength:withPad:startingAt:)` bridges through
    /// NSString, and the generic `joined(separator:)` looks up conformances at run time.
    static var helpTable: String {
        var table = ""
        for code in allCases {
            let number = String(code.rawValue)
            if !table.isEmpty { table += "\n" }
            table += "  " + number + String(repeating: " ", count: max(0, 4 - number.count)) + code.summary
        }
        return table
    }
}
