import ArgumentParser
import DiaryApp
import DiaryVault
import Foundation

/// Options every command takes: which vault, and where non-interactive passphrases come from.
///
/// A passphrase itself is never an option value or an environment value (those leak through
/// `ps`, shell history and `/proc/PID/environ`); only the *path* of a file holding it is.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The vault directory (default: $DIARY_VAULT, else the default journal, else $XDG_DATA_HOME/diary).",
            valueName: "path"),
        completion: .directory)
    var vault: String?

    @Option(
        name: [.customShort("j", allowingJoined: true), .long],
        help: ArgumentHelp(
            "The vault of this named journal (`diary journal list`); not with --vault.",
            valueName: "name"),
        completion: GlobalOptions.journalNames)
    var journal: String?

    /// The registered journals' names starting with what is typed (none when the config file
    /// cannot be read: a completion never prints an error).
    static let journalNames = CompletionKind.custom { _, _, prefix in
        Settings.forOutput.journalNames.filter { $0.hasPrefix(prefix) }
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the passphrase from the first line of this file (also $DIARY_PASSPHRASE_FILE).",
            valueName: "file"),
        completion: .file())
    var passphraseFile: String?

    /// The vault directory: `--vault` or `-j`, else `$DIARY_VAULT`, else the config's default
    /// journal, else the XDG data directory (`VaultChoice`, through `Settings`).
    var vaultURL: URL { Settings.vault(self).directory }
}

/// `--new-passphrase-file` and `--allow-weak-passphrase`, for the commands that set a
/// passphrase (`init`, `passwd`).
struct NewPassphraseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the new passphrase from the first line of this file (also $DIARY_NEW_PASSPHRASE_FILE).",
            valueName: "file"),
        completion: .file())
    var newPassphraseFile: String?

    @Flag(help: "Use the new passphrase even if the strength check calls it weak.")
    var allowWeakPassphrase = false

    /// Where the new passphrase comes from (the option, else `$DIARY_NEW_PASSPHRASE_FILE`,
    /// else the terminal), for the session.
    var source: NewPassphraseSource {
        NewPassphraseSource(fileOption: newPassphraseFile, allowWeak: allowWeakPassphrase)
    }
}

/// Which entries: the filters `list`, `search` and `export` share.
struct EntryFilterOptions: ParsableArguments {
    @Flag(help: "Only starred entries.")
    var starred = false

    @Option(help: ArgumentHelp("Only entries with this tag.", valueName: "tag"), completion: EntryCompletion.tags)
    var tag: String?

    // `transform: DateInput.argument` so that a date diary does not understand is answered with
    // a suggestion and where the accepted forms are listed, as `new --date` answers it.
    @Option(
        help: ArgumentHelp("Only entries dated on or after this date.", valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument(for: "--from"))
    var from: DateInput?

    @Option(
        help: ArgumentHelp("Only entries dated on or before this date (a day counts whole).", valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument(for: "--to"))
    var to: DateInput?

    @Option(
        help: ArgumentHelp("Only entries dated on this day (in your time zone).", valueName: "date"),
        completion: DateInput.completion, transform: DateInput.argument(for: "--on"))
    var on: DateInput?

    func validate() throws {
        if let from, let to, from.start > to.end { throw ValidationError("--from is after --to") }
        if on != nil && (from != nil || to != nil) {
            throw ValidationError("--on is one day; it cannot be combined with --from or --to")
        }
        if let tag { try Tags.validate(tag) }
    }

    /// The filter, without a limit.
    var filter: EntryFilter {
        var filter = EntryFilter(starred: starred, tag: tag.map(Tags.clean), from: from?.start, to: to?.end)
        if let on {
            // An instant typed with a time counts as its day.
            let day = DateInput(dayOf: on.start, calendar: DateOutput.dayCalendar)
            (filter.from, filter.to) = (day.start, day.end)
        }
        return filter
    }
}

/// The filters shared by `list` and `search`: which entries, how many, and JSON.
struct FilterOptions: ParsableArguments {
    @OptionGroup var entries: EntryFilterOptions

    @Option(
        name: [.customShort("n"), .customLong("limit")],
        help: ArgumentHelp("At most this many entries.", valueName: "n"))
    var limit: Int?

    @Flag(help: "Print JSON (an array of objects with sorted keys) instead of lines.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("-n must be at least 1") }
    }

    var filter: EntryFilter {
        var filter = entries.filter
        filter.limit = limit
        return filter
    }
}

/// Tag spelling on the command line (`TagInput` in DiaryApp): a leading `#` or `@` is optional.
enum Tags {
    static func clean(_ tag: String) -> String { TagInput.clean(tag) }

    /// Refuses a tag with white space inside (`--tag 'a b'`): a usage error (64), before
    /// anything is opened or written.
    static func validate(_ tag: String) throws {
        do {
            try TagInput.check(tag)
        } catch let error as InputError {
            throw ValidationError(InputWording.message(error))
        }
    }
}
